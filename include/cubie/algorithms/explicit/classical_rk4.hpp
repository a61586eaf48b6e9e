#pragma once
// Classical fourth-order Runge-Kutta method (Kutta, 1901).

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/algorithms/explicit/explicit_runge_kutta.hpp"

namespace cubie {

struct classical_rk4_tableau {
    static constexpr const char* name = "classical_rk4";
    static constexpr int stages = 4;
    static constexpr int order = 4;
    static constexpr double a[4][4] = {
        {0, 0, 0, 0},
        {1.0 / 2, 0, 0, 0},
        {0, 1.0 / 2, 0, 0},
        {0, 0, 1, 0},
    };
    static constexpr double b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
    static constexpr double c[4] = {0, 1.0 / 2, 1.0 / 2, 1};
};
static_assert(check_tableau<classical_rk4_tableau>());

using classical_rk4 = explicit_runge_kutta<classical_rk4_tableau>;

}  // namespace cubie
