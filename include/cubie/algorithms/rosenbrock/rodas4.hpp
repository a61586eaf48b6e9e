#pragma once
// RODAS (E. Hairer and G. Wanner, Solving Ordinary Differential Equations II, 2nd ed.,
// Springer 1996, Sect. VI.4), here rodas4: six stages, order 4 with an embedded solution of
// order 3, stiffly accurate and L-stable, gamma = 1/4. Coefficients as Hairer's rodas.f gives
// them (RODCOE, METH = 1). The solution is the last stage's point plus U_6 and the embedded
// one is that point, so the error estimate is U_6. Order conditions:
// tests/reference/check_rosenbrock_conditions.py.

#include "cubie/algorithms/rosenbrock/rosenbrock.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"

namespace cubie {

struct rodas4_tableau {
    static constexpr const char* name = "rodas4";
    static constexpr int stages = 6;
    static constexpr int order = 4;
    static constexpr int embedded_order = 3;
    static constexpr double gamma = 0.25;
    static constexpr double a[6][6] = {
        {0, 0, 0, 0, 0, 0},
        {1.544000000000000, 0, 0, 0, 0, 0},
        {0.9466785280815826, 0.2557011698983284, 0, 0, 0, 0},
        {3.314825187068521, 2.896124015972201, 0.9986419139977817, 0, 0, 0},
        {1.221224509226641, 6.019134481288629, 12.53708332932087, -0.6878860361058950, 0, 0},
        {1.221224509226641, 6.019134481288629, 12.53708332932087, -0.6878860361058950, 1, 0},
    };
    static constexpr double c[6][6] = {
        {0, 0, 0, 0, 0, 0},
        {-5.668800000000000, 0, 0, 0, 0, 0},
        {-2.430093356833875, -0.2063599157091915, 0, 0, 0, 0},
        {-0.1073529058151375, -9.594562251023355, -20.47028614809616, 0, 0, 0},
        {7.496443313967647, -10.24680431464352, -33.99990352819905, 11.70890893206160, 0, 0},
        {8.083246795921522, -7.981132988064893, -31.52159432874371, 16.31930543123136,
         -6.058818238834054, 0},
    };
    static constexpr double alpha[6] = {0, 0.386, 0.21, 0.63, 1, 1};
    static constexpr double gamma_sum[6] = {0.25, -0.1043, 0.1035, -0.3620000000000023e-01, 0, 0};
    static constexpr double m[6] = {
        1.221224509226641, 6.019134481288629, 12.53708332932087, -0.6878860361058950, 1, 1};
    static constexpr double m_hat[6] = {
        1.221224509226641, 6.019134481288629, 12.53708332932087, -0.6878860361058950, 1, 0};
};
static_assert(check_rosenbrock_tableau<rodas4_tableau>());

using rodas4 = rosenbrock<rodas4_tableau>;

}  // namespace cubie
