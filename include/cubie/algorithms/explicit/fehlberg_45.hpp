#pragma once
// Runge-Kutta-Fehlberg 4(5) (Fehlberg, 1969): six stages, fourth-order solution (propagated)
// with a fifth-order embedded solution for the error estimate.

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/algorithms/explicit/explicit_runge_kutta.hpp"

namespace cubie {

struct fehlberg_45_tableau {
    static constexpr const char* name = "fehlberg_45";
    static constexpr int stages = 6;
    static constexpr int order = 4;
    static constexpr int embedded_order = 5;
    static constexpr double a[6][6] = {
        {0, 0, 0, 0, 0, 0},
        {1.0 / 4, 0, 0, 0, 0, 0},
        {3.0 / 32, 9.0 / 32, 0, 0, 0, 0},
        {1932.0 / 2197, -7200.0 / 2197, 7296.0 / 2197, 0, 0, 0},
        {439.0 / 216, -8, 3680.0 / 513, -845.0 / 4104, 0, 0},
        {-8.0 / 27, 2, -3544.0 / 2565, 1859.0 / 4104, -11.0 / 40, 0},
    };
    static constexpr double b[6] = {25.0 / 216, 0, 1408.0 / 2565, 2197.0 / 4104, -1.0 / 5, 0};
    static constexpr double b_hat[6] = {16.0 / 135,      0,         6656.0 / 12825,
                                        28561.0 / 56430, -9.0 / 50, 2.0 / 55};
    static constexpr double c[6] = {0, 1.0 / 4, 3.0 / 8, 12.0 / 13, 1, 1.0 / 2};
};
static_assert(check_tableau<fehlberg_45_tableau>());

using fehlberg_45 = explicit_runge_kutta<fehlberg_45_tableau>;

}  // namespace cubie
