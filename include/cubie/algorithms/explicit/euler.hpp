#pragma once
// Forward (explicit) Euler method (Euler, 1768): one stage, first order.

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/algorithms/explicit/explicit_runge_kutta.hpp"

namespace cubie {

struct euler_tableau {
    static constexpr const char* name = "euler";
    static constexpr int stages = 1;
    static constexpr int order = 1;
    static constexpr double a[1][1] = {
        {0},
    };
    static constexpr double b[1] = {1};
    static constexpr double c[1] = {0};
};
static_assert(check_tableau<euler_tableau>());

using euler = explicit_runge_kutta<euler_tableau>;

}  // namespace cubie
