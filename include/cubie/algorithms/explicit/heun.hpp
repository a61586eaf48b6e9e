#pragma once
// Heun's method (explicit trapezoidal rule; Heun, 1900): two stages, second order.

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/algorithms/explicit/explicit_runge_kutta.hpp"

namespace cubie {

struct heun_tableau {
    static constexpr const char* name = "heun";
    static constexpr int stages = 2;
    static constexpr int order = 2;
    static constexpr double a[2][2] = {
        {0, 0},
        {1, 0},
    };
    static constexpr double b[2] = {1.0 / 2, 1.0 / 2};
    static constexpr double c[2] = {0, 1};
};
static_assert(check_tableau<heun_tableau>());

using heun = explicit_runge_kutta<heun_tableau>;

}  // namespace cubie
