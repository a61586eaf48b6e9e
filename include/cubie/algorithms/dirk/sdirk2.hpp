#pragma once
// Alexander's two-stage SDIRK method (R. Alexander, Diagonally implicit Runge-Kutta methods
// for stiff O.D.E.'s, SIAM J. Numer. Anal. 14 (1977), Table 1): gamma = 1 - 1/sqrt(2),
// order 2, L-stable and stiffly accurate (b is the last row of A). No error estimate: fixed
// steps only. Order conditions: tests/reference/check_dirk_conditions.py.

#include "cubie/algorithms/dirk/dirk.hpp"
#include "cubie/algorithms/dirk/dirk_tableau.hpp"

namespace cubie {

struct sdirk2_tableau {
    static constexpr const char* name = "sdirk2";
    static constexpr int stages = 2;
    static constexpr int order = 2;
    static constexpr double gamma = 0.29289321881345248;  // 1 - 1/sqrt(2)
    static constexpr double a[2][2] = {
        {0.29289321881345248, 0},
        {0.70710678118654752, 0.29289321881345248},
    };
    static constexpr double c[2] = {0.29289321881345248, 1};
    static constexpr double b[2] = {0.70710678118654752, 0.29289321881345248};
};
static_assert(check_dirk_tableau<sdirk2_tableau>());

using sdirk2 = dirk<sdirk2_tableau>;

}  // namespace cubie
