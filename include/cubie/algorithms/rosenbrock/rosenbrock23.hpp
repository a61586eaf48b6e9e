#pragma once
// Rosenbrock23 (L. F. Shampine and M. W. Reichelt, The MATLAB ODE suite, SIAM J. Sci. Comput.
// 18(1) (1997) 1-22: MATLAB's ode23s; OrdinaryDiffEq.jl's Rosenbrock23): three stages, order
// 2, L-stable, with d = gamma = 1/(2 + sqrt 2). The error estimate is the difference to an
// order-3 solution that uses a third stage at (t + h, y_new). The method is a W-method of
// order 2: its solution keeps order 2 with any matrix in place of J (the embedded order-3
// solution keeps W-order 2 only).
//
// Published form, with W = I - h d J, T = df/dt, e32 = 6 + sqrt 2:
//
//   W k1 = F0 + h d T,                                  F0 = f(t, y)
//   W (k2 - k1) = F1 - k1,                              F1 = f(t + h/2, y + h/2 k1)
//   y_new = y + h k2
//   W k3 = F2 - e32 (k2 - F1) - 2 (k1 - F0) + h d T,    F2 = f(t + h, y_new)
//   error = h/6 (k1 - 2 k2 + k3)
//
// In Hairer and Wanner's original form (rosenbrock_tableau.hpp), with K_i = h k_i: the first
// two lines give k1 - F0 = h d (J k1 + T) and k2 - F1 = h d J (k2 - k1), so
//
//   Gamma = d [[1, 0, 0], [-1, 1, 0], [e32 - 2, -e32, 1]],   (alpha_ij) = [[0], [1/2], [0, 1]],
//   b = (0, 1, 0),   b_hat = b + (1, -2, 1)/6 = (1/6, 2/3, 1/6),   gamma_i = (d, 0, -d).
//
// These relations use only W, so they hold for any W = I - h d A: the W-order conditions are
// those of this Gamma and alpha. Transformed ((a_ij) = alpha Gamma^-1 and so on), with
// Gamma^-1 = (2 + sqrt 2) [[1, 0, 0], [1, 1, 0], [2, e32, 1]]:
//
//   a_21 = (2 + sqrt 2)/2,  a_31 = a_32 = 2 + sqrt 2,
//   c_21 = -(2 + sqrt 2),   c_31 = -2 (2 + sqrt 2),   c_32 = -(14 + 8 sqrt 2),
//   m = (2 + sqrt 2) (1, 1, 0),   m_hat = (2 + sqrt 2) (7/6, (10 + sqrt 2)/6, 1/6),
//
// written below to 17 digits. The third stage's point y + (U_1 + U_2)/d is y_new. The
// derivation is repeated, and the recovered original form compared with it in 50 digits, in
// tests/reference/check_rosenbrock_conditions.py, which also checks the order conditions.
//
// Here f(t + h, y_new) is not reused as the next step's f(t, y) (the stepper is not FSAL):
// each step evaluates f three times besides the loop's f at the step's start.

#include "cubie/algorithms/rosenbrock/rosenbrock.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"

namespace cubie {

struct rosenbrock23_tableau {
    static constexpr const char* name = "rosenbrock23";
    static constexpr int stages = 3;
    static constexpr int order = 2;
    static constexpr int embedded_order = 3;
    static constexpr int w_order = 2;
    static constexpr double gamma = 0.29289321881345248;  // 1 / (2 + sqrt 2)
    static constexpr double a[3][3] = {
        {0, 0, 0},
        {1.7071067811865475, 0, 0},
        {3.4142135623730950, 3.4142135623730950, 0},
    };
    static constexpr double c[3][3] = {
        {0, 0, 0},
        {-3.4142135623730950, 0, 0},
        {-6.8284271247461901, -25.313708498984760, 0},
    };
    static constexpr double alpha[3] = {0, 0.5, 1};
    static constexpr double gamma_sum[3] = {0.29289321881345248, 0, -0.29289321881345248};
    static constexpr double m[3] = {3.4142135623730950, 3.4142135623730950, 0};
    static constexpr double m_hat[3] = {3.9832491561019442, 6.4950937914128568,
                                        0.56903559372884917};
};
static_assert(check_rosenbrock_tableau<rosenbrock23_tableau>());

using rosenbrock23 = rosenbrock<rosenbrock23_tableau>;

}  // namespace cubie
