#pragma once
// ROS3P (J. Lang and J. G. Verwer, ROS3P - an accurate third-order Rosenbrock solver designed
// for parabolic problems, BIT 41 (2001) 731-738): three stages, order 3 with an embedded
// solution of order 2, A-stable (not L-stable: |R(inf)| = sqrt(3) - 1) and free of order
// reduction on parabolic problems. Coefficients as the paper's table gives them (transformed
// form, gamma = 1/2 + sqrt(3)/6). The third stage shares the second one's point, so it costs
// no evaluation of f. Order conditions: tests/reference/check_rosenbrock_conditions.py.

#include "cubie/algorithms/rosenbrock/rosenbrock.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"

namespace cubie {

struct ros3p_tableau {
    static constexpr const char* name = "ros3p";
    static constexpr int stages = 3;
    static constexpr int order = 3;
    static constexpr int embedded_order = 2;
    static constexpr double gamma = 7.886751345948129e-01;
    static constexpr double a[3][3] = {
        {0, 0, 0},
        {1.267949192431123, 0, 0},
        {1.267949192431123, 0, 0},
    };
    static constexpr double c[3][3] = {
        {0, 0, 0},
        {-1.607695154586736, 0, 0},
        {-3.464101615137755, -1.732050807568877, 0},
    };
    static constexpr double alpha[3] = {0, 1, 1};
    static constexpr double gamma_sum[3] = {7.886751345948129e-01, -2.113248654051871e-01,
                                            -1.077350269189626};
    static constexpr double m[3] = {2, 5.773502691896258e-01, 4.226497308103742e-01};
    static constexpr double m_hat[3] = {2.113248654051871, 1, 4.226497308103742e-01};
};
static_assert(check_rosenbrock_tableau<ros3p_tableau>());

using ros3p = rosenbrock<ros3p_tableau>;

}  // namespace cubie
