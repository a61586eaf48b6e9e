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
// tests/reference/check_rosenbrock_conditions.py checks the Rosenbrock and W-order
// conditions of the exchanged solutions.

#include "cubie/algorithms/rosenbrock/rodas3p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"

namespace cubie {

struct rodas23w_tableau : rodas3p_tableau {
    static constexpr const char* name = "rodas23w";
    static constexpr int order = rodas3p_tableau::embedded_order;
    static constexpr int embedded_order = rodas3p_tableau::order;
    static constexpr int w_order = 2;
    // Rodas3P's two solutions, exchanged (arrays of their own: nvcc reads no reference to a
    // host array in device code).
    using base = rodas3p_tableau;
    static constexpr double m[5] = {base::m_hat[0], base::m_hat[1], base::m_hat[2], base::m_hat[3],
                                    base::m_hat[4]};
    static constexpr double m_hat[5] = {base::m[0], base::m[1], base::m[2], base::m[3], base::m[4]};
};
static_assert(check_rosenbrock_tableau<rodas23w_tableau>());

using rodas23w = rosenbrock<rodas23w_tableau>;

}  // namespace cubie
