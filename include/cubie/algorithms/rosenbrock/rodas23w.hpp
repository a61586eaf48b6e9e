#pragma once
// Rodas23W (G. Steinebach, Rosenbrock methods within OrdinaryDiffEq.jl - overview, recent
// developments and applications, preprint 2024; OrdinaryDiffEq.jl's Rodas23W): Rodas3P's
// stages (rodas3p.hpp) with its two solutions exchanged. The step keeps the embedded
// solution of Rodas3P, the fourth stage's point plus U_4, which is a W-method of order 2
// (order 2 with any matrix in place of J), stiffly accurate and L-stable; the error estimate
// is the difference to Rodas3P's order-3 solution (U_5 - U_4 up to sign, as for rodas3p). So
// Rodas23W keeps order 2 with an approximate Jacobian where Rodas3P drops to order 1.
// OrdinaryDiffEq.jl adds an error test of its dense output, which has no counterpart here
// (the stepper has no dense output). gamma = 1/3; the third stage is evaluated at (t, y) and
// the fifth shares the fourth one's point: they cost no evaluation of f.
// tests/reference/check_rosenbrock_conditions.py checks that the coefficients are rodas3p's
// with m and m_hat exchanged, and the Rosenbrock and W-order conditions.

#include "cubie/algorithms/rosenbrock/rosenbrock.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"

namespace cubie {

struct rodas23w_tableau {
    static constexpr const char* name = "rodas23w";
    static constexpr int stages = 5;
    static constexpr int order = 2;
    static constexpr int embedded_order = 3;
    static constexpr int w_order = 2;
    static constexpr double gamma = 1.0 / 3;
    static constexpr double a[5][5] = {
        {0, 0, 0, 0, 0},
        {4.0 / 3, 0, 0, 0, 0},
        {0, 0, 0, 0, 0},
        {2.90625, 3.375, 0.40625, 0, 0},
        {2.90625, 3.375, 0.40625, 0, 0},
    };
    static constexpr double c[5][5] = {
        {0, 0, 0, 0, 0},
        {-4.0, 0, 0, 0, 0},
        {8.25, 6.75, 0, 0, 0},
        {1.21875, -5.0625, -1.96875, 0, 0},
        {4.03125, -15.1875, -4.03125, 6.0, 0},
    };
    static constexpr double alpha[5] = {0, 4.0 / 9, 0, 1, 1};
    static constexpr double gamma_sum[5] = {1.0 / 3, -1.0 / 9, 1, 0, 0};
    static constexpr double m[5] = {2.90625, 3.375, 0.40625, 1, 0};
    static constexpr double m_hat[5] = {2.90625, 3.375, 0.40625, 0, 1};
};
static_assert(check_rosenbrock_tableau<rodas23w_tableau>());

using rodas23w = rosenbrock<rodas23w_tableau>;

}  // namespace cubie
