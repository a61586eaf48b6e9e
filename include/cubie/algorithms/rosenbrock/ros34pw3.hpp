#pragma once
// ROS34PW3 (J. Rang and L. Angermann, New Rosenbrock W-methods of order 3 for partial
// differential algebraic equations of index 1, BIT 45 (2005) 761-787): four stages, order 4
// with the exact Jacobian and W-order 3 (order 3 with any matrix in place of J), A-stable with
// R(inf) = 0.63 (not L-stable), gamma = 1.0685790213016289. The embedded solution has order 2
// (and W-order 2), though the published coefficients are sometimes listed as a 4(3) pair:
// its order-3 conditions fail by 0.24 (tests/reference/check_rosenbrock_conditions.py).
//
// The published coefficients are in the original form (Gamma, alpha, b, b_hat; OrdinaryDiffEq.jl's
// ROS34PW3Tableau and other transcriptions give the same 17 digits). Transformed here in
// 50-digit arithmetic ((a_ij) = alpha Gamma^-1, (c_ij) = diag(1/gamma) - Gamma^-1,
// m = b Gamma^-1, m_hat = b_hat Gamma^-1) and rounded to 17 digits. The checker recovers the
// original form from these values, compares it with the published one and checks the
// Rosenbrock and W-order conditions.

#include "cubie/algorithms/rosenbrock/rosenbrock.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"

namespace cubie {

struct ros34pw3_tableau {
    static constexpr const char* name = "ros34pw3";
    static constexpr int stages = 4;
    static constexpr int order = 4;
    static constexpr int embedded_order = 2;
    static constexpr int w_order = 3;
    static constexpr double gamma = 1.0685790213016289;
    static constexpr double a[4][4] = {
        {0, 0, 0, 0},
        {2.3541034887609084, 0, 0, 0},
        {2.1274518517432332, 0.70186667064306583, 0, 0},
        {1.6573541366907122, 0.37998365119129377, 0.76775379337675117, 0},
    };
    static constexpr double c[4][4] = {
        {0, 0, 0, 0},
        {-2.2030223706744597, 0, 0, 0},
        {-2.7500601149934667, -0.84085696310811176, 0, 0},
        {-3.0077871973155886, -0.70707746256182478, -1.1874362749274353, 0},
    };
    static constexpr double alpha[4] = {0, 2.5155456020628817, 1.2577728010314408,
                                        0.62888640051572044};
    static constexpr double gamma_sum[4] = {1.0685790213016289, -1.4469665807612528,
                                            -0.77147624853134317, -0.29371172261080908};
    static constexpr double m[4] = {2.5468758076906692, 0.55278097044375494, 0.92052196304992578,
                                    0.72016749832563535};
    static constexpr double m_hat[4] = {2.3405487055538934, 0.55017673830214996,
                                        0.91379856812985473, 0};
};
static_assert(check_rosenbrock_tableau<ros34pw3_tableau>());

using ros34pw3 = rosenbrock<ros34pw3_tableau>;

}  // namespace cubie
