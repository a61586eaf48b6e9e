#pragma once
// Bogacki-Shampine 3(2) (Bogacki & Shampine, 1989): four stages, FSAL, third-order solution
// with a second-order embedded error estimate (the pair behind MATLAB's ode23).

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/algorithms/explicit/explicit_runge_kutta.hpp"

namespace cubie {

struct bogacki_shampine_32_tableau {
    static constexpr const char* name = "bogacki_shampine_32";
    static constexpr int stages = 4;
    static constexpr int order = 3;
    static constexpr int embedded_order = 2;
    static constexpr double a[4][4] = {
        {0, 0, 0, 0},
        {1.0 / 2, 0, 0, 0},
        {0, 3.0 / 4, 0, 0},
        {2.0 / 9, 1.0 / 3, 4.0 / 9, 0},
    };
    static constexpr double b[4] = {2.0 / 9, 1.0 / 3, 4.0 / 9, 0};
    static constexpr double b_hat[4] = {7.0 / 24, 1.0 / 4, 1.0 / 3, 1.0 / 8};
    static constexpr double c[4] = {0, 1.0 / 2, 3.0 / 4, 1};
    // Dense output: the cubic Hermite interpolant of (y, f(t, y)) and (y_new, f(t + h, y_new)),
    // the FSAL stage, written as stage weights.
    // Checked for every rooted tree up to its order by
    // tests/reference/check_dense_output_conditions.py.
    static constexpr int dense_stages = 4;
    static constexpr int dense_order = 3;
    static constexpr int dense_degree = 3;
    static constexpr double b_dense[4][3] = {
        {1, -4.0 / 3, 5.0 / 9},
        {0, 1, -2.0 / 3},
        {0, 4.0 / 3, -8.0 / 9},
        {0, -1, 1},
    };
};
static_assert(check_tableau<bogacki_shampine_32_tableau>());
static_assert(is_fsal<bogacki_shampine_32_tableau>());

using bogacki_shampine_32 = explicit_runge_kutta<bogacki_shampine_32_tableau>;

}  // namespace cubie
