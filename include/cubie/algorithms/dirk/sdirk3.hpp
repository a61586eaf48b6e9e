#pragma once
// Alexander's three-stage SDIRK method (R. Alexander, Diagonally implicit Runge-Kutta
// methods for stiff O.D.E.'s, SIAM J. Numer. Anal. 14 (1977), Table 3; Hairer & Wanner,
// Solving ODEs II, IV.6): order 3, L-stable and stiffly accurate (b is the last row of A),
// with gamma = 0.43586652150845900 the root of 6 g^3 - 18 g^2 + 9 g - 1 = 0 and
//   c_2 = (1 + gamma) / 2,  a_21 = (1 - gamma) / 2,
//   a_31 = -(6 gamma^2 - 16 gamma + 1) / 4,  a_32 = (6 gamma^2 - 20 gamma + 5) / 4,
// evaluated in 40-digit arithmetic. No error estimate: fixed steps only. Order conditions:
// tests/reference/check_dirk_conditions.py.

#include "cubie/algorithms/dirk/dirk.hpp"
#include "cubie/algorithms/dirk/dirk_tableau.hpp"

namespace cubie {

struct sdirk3_tableau {
    static constexpr const char* name = "sdirk3";
    static constexpr int stages = 3;
    static constexpr int order = 3;
    static constexpr double gamma = 0.43586652150845900;
    static constexpr double a[3][3] = {
        {0.43586652150845900, 0, 0},
        {0.28206673924577050, 0.43586652150845900, 0},
        {1.2084966491760101, -0.64436317068446907, 0.43586652150845900},
    };
    static constexpr double c[3] = {0.43586652150845900, 0.71793326075422950, 1};
    static constexpr double b[3] = {1.2084966491760101, -0.64436317068446907, 0.43586652150845900};
};
static_assert(check_dirk_tableau<sdirk3_tableau>());

using sdirk3 = dirk<sdirk3_tableau>;

}  // namespace cubie
