#pragma once
// ROS34PW2 (J. Rang and L. Angermann, New Rosenbrock W-methods of order 3 for partial
// differential algebraic equations of index 1, BIT 45 (2005) 761-787): four stages, a
// W-method of order 3 (its order holds with any matrix in place of J) with an embedded
// solution of order 2 (W-order 2), stiffly accurate and L-stable, gamma = 0.43586652150845900.
// PETSc's default Rosenbrock-W method (TSROSWRA34PW2).
//
// The published coefficients are in the original form (Gamma, alpha, b, b_hat; PETSc's
// TSROSWRA34PW2 and OrdinaryDiffEq.jl's ROS34PW2Tableau give the same 17 digits). Transformed
// here in 50-digit arithmetic ((a_ij) = alpha Gamma^-1, (c_ij) = diag(1/gamma) - Gamma^-1,
// m = b Gamma^-1, m_hat = b_hat Gamma^-1) and rounded to 17 digits. Stiffly accurate: b is the
// last row of alpha + Gamma, so the solution is the last stage's point plus U_4 (m = a_4 + e_4,
// gamma_4 = 0 exactly). tests/reference/check_rosenbrock_conditions.py recovers the original
// form from these values, compares it with the published one and checks the Rosenbrock and
// W-order conditions.

#include "cubie/algorithms/rosenbrock/rosenbrock.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"

namespace cubie {

struct ros34pw2_tableau {
    static constexpr const char* name = "ros34pw2";
    static constexpr int stages = 4;
    static constexpr int order = 3;
    static constexpr int embedded_order = 2;
    static constexpr int w_order = 3;
    static constexpr double gamma = 0.43586652150845900;
    static constexpr double a[4][4] = {
        {0, 0, 0, 0},
        {2.0, 0, 0, 0},
        {1.4192173174557647, -0.25923221167296971, 0, 0},
        {4.1847604823191607, -0.28519201735549591, 2.2942803602790417, 0},
    };
    static constexpr double c[4][4] = {
        {0, 0, 0, 0},
        {-4.5885607205580835, 0, 0, 0},
        {-4.1847604823191607, 0.28519201735549591, 0, 0},
        {-6.3681792001283578, -6.7956209444668362, 2.8700986043310561, 0},
    };
    static constexpr double alpha[4] = {0, 0.87173304301691801, 0.73157995778885238, 1};
    static constexpr double gamma_sum[4] = {0.43586652150845900, -0.43586652150845901,
                                            -0.41333337623388649, 0};
    static constexpr double m[4] = {4.1847604823191607, -0.28519201735549591, 2.2942803602790417,
                                    1};
    static constexpr double m_hat[4] = {3.9070105346711920, 1.1180478778205032, 0.52165023261149065,
                                        0.5};
};
static_assert(check_rosenbrock_tableau<ros34pw2_tableau>());

using ros34pw2 = rosenbrock<ros34pw2_tableau>;

}  // namespace cubie
