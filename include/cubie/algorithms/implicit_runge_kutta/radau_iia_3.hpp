#pragma once
// Radau IIA of order 3 (Hairer & Wanner, Solving ODEs II, IV.5 Table 5.5): two stages at
// c = 1/3, 1, stage order 2, L-stable and stiffly accurate (b is the last row of A, so
// y_new = y + Z_2). A^-1 = [[3/2, 1/2], [-9/2, 5/2]] has no real eigenvalue, only the pair
// alpha +- i beta = 2 +- i sqrt 2: per step one complex LU factorisation. T's columns are Re
// and Im of the eigenvector of 2 - i sqrt 2 scaled to end in 1: T = [[1/9, 2 sqrt 2 / 9],
// [1, 0]].
//
// Error estimate, by Hairer and Wanner's construction for Radau IIA 5 (IV.8, (8.19), (8.20)):
// an embedded solution y_hat = y + h (gamma0 f(t, y) + b_hat_1 f_1 + b_hat_2 f_2) from the
// stages and f(t, y). Two weights and gamma0 leave order 2 at most (order 3 would force
// gamma0 = 0, y_hat = y_new): b_hat = (3/4 - 3 gamma0 / 2, 1/4 + gamma0 / 2), and
// y_hat - y_new = gamma0 h f(t, y) + e^T Z with e = gamma0 (-9/2, 1/2), O(h^3):
// error_estimate_order 2. The estimate is filtered as Hairer and Wanner's, (I - h gamma0 J)^-1
// applied to it, and A^-1 having no real eigenvalue, (1 / (h gamma0)) I - J needs a real LU
// factorisation of its own in adaptive steps (a quarter of the complex one's work).
//
// gamma0 = 1/2, the real part alpha of A^-1's eigenvalues, makes y_hat the trapezoidal rule,
// y + h/2 (f(t, y) + f(t + h, y_new)), and e = (-9/4, 1/4). On y' = lambda y with z = h lambda
// -> -infinity the second, stiff-safe estimate (8.20) then tends to the true local error of
// Radau IIA 3 itself (ratio 1 in magnitude, as tests/reference/check_implicit_rk_conditions.py
// prints; 1/(2 gamma0) in general: 1.22 for gamma0 = 1/sqrt 6 = 1/|alpha + i beta|, 1.5 for
// 1/3, 2 for 1/4; Radau IIA 5 with RADAU5's gamma0 gives 1.21). For small |z| it
// overestimates the O(h^4) error, as an order-2 estimate must, in proportion to gamma0
// (its leading term is gamma0 h^3 y''' / 6): a smaller gamma0 would trade that for an
// overestimate of stiff errors.
//
// Coefficients: exact fractions, and sqrt 2 in 20 digits. Checked in 50 digits by
// tests/reference/check_implicit_rk_conditions.py.

#include "cubie/algorithms/implicit_runge_kutta/implicit_runge_kutta.hpp"
#include "cubie/algorithms/implicit_runge_kutta/implicit_runge_kutta_tableau.hpp"

namespace cubie {

struct radau_iia_3_tableau {
    static constexpr const char* name = "radau_iia_3";
    static constexpr int stages = 2;
    static constexpr int order = 3;
    static constexpr double a[2][2] = {
        {5.0 / 12, -1.0 / 12},
        {0.75, 0.25},
    };
    static constexpr double b[2] = {0.75, 0.25};
    static constexpr double c[2] = {1.0 / 3, 1};
    static constexpr double d[2] = {0, 1};
    static constexpr double eigenvalues[1][2] = {{2, 1.4142135623730950488}};
    static constexpr double transformation[2][2] = {
        {1.0 / 9, 0.31426968052735445529},
        {1, 0},
    };
    static constexpr double inverse_transformation[2][2] = {
        {0, 1},
        {3.1819805153394638598, -0.35355339059327376220},
    };
    static constexpr int embedded_order = 2;
    static constexpr double gamma0 = 0.5;
    static constexpr double e[2] = {-2.25, 0.25};
};
static_assert(check_implicit_runge_kutta_tableau<radau_iia_3_tableau>());

using radau_iia_3 = implicit_runge_kutta<radau_iia_3_tableau>;

}  // namespace cubie
