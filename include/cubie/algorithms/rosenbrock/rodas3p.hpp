#pragma once
// Rodas3P (G. Steinebach, Rosenbrock methods within OrdinaryDiffEq.jl - overview, recent
// developments and applications, preprint 2024; coefficients as in OrdinaryDiffEq.jl's
// Rodas3PTableau): five stages, order 3 with an embedded solution of order 2, stiffly
// accurate and L-stable, gamma = 1/3. All coefficients are binary or simple fractions. The
// third stage is evaluated at (t, y) and the fifth shares the fourth one's point: they cost no
// evaluation of f. Order conditions: tests/reference/check_rosenbrock_conditions.py.

#include "cubie/algorithms/rosenbrock/rosenbrock.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"

namespace cubie {

struct rodas3p_tableau {
    static constexpr const char* name = "rodas3p";
    static constexpr int stages = 5;
    static constexpr int order = 3;
    static constexpr int embedded_order = 2;
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
    static constexpr double m[5] = {2.90625, 3.375, 0.40625, 0, 1};
    static constexpr double m_hat[5] = {2.90625, 3.375, 0.40625, 1, 0};
};
static_assert(check_rosenbrock_tableau<rodas3p_tableau>());

using rodas3p = rosenbrock<rodas3p_tableau>;

}  // namespace cubie
