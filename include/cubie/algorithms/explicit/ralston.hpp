#pragma once
// Ralston's second-order method (Ralston, 1962): two stages, second order, chosen to minimise
// the truncation error bound among two-stage methods.

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/algorithms/explicit/explicit_runge_kutta.hpp"

namespace cubie {

struct ralston_tableau {
    static constexpr const char* name = "ralston";
    static constexpr int stages = 2;
    static constexpr int order = 2;
    static constexpr double a[2][2] = {
        {0, 0},
        {2.0 / 3, 0},
    };
    static constexpr double b[2] = {1.0 / 4, 3.0 / 4};
    static constexpr double c[2] = {0, 2.0 / 3};
};
static_assert(check_tableau<ralston_tableau>());

using ralston = explicit_runge_kutta<ralston_tableau>;

}  // namespace cubie
