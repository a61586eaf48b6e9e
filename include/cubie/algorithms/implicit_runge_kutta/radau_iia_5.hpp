#pragma once
// Radau IIA of order 5 (Hairer & Wanner, Solving ODEs II, IV.5 Table 5.6, and their RADAU5,
// IV.8): three stages at the Radau right points c = (4 - sqrt 6)/10, (4 + sqrt 6)/10, 1,
// stage order 3, L-stable and stiffly accurate (b is the last row of A, so y_new = y + Z_3).
// A^-1 has the real eigenvalue gamma = 3.637... and the pair alpha +- i beta = 2.681... +-
// 3.050... i: per step one real and one complex LU factorisation. T and T^-1 are RADAU5's
// (its columns: the unit eigenvector of gamma, then Re and Im of the eigenvector of
// alpha - i beta scaled to end in 1, so T's last row is (t31, 1, 0)).
//
// Error estimate (Hairer & Wanner (8.19), (8.20)): the embedded solution of order 3 with
// gamma0 = 1 / gamma, so that its filter (I - h gamma0 J) is the real block's matrix, up to
// the factor h gamma0, and costs no factorisation of its own; e = gamma0 (-(13 + 7 sqrt 6)/3,
// (-13 + 7 sqrt 6)/3, -1/3). The estimate is O(h^4): error_estimate_order 3, the exponent
// 1/4 of RADAU5.
//
// Coefficients: the closed forms above and of Table 5.6, and the eigen-decomposition of A^-1,
// evaluated in 50-digit arithmetic (T agrees with RADAU5's 20 digits). Checked in 50 digits by
// tests/reference/check_implicit_rk_conditions.py.

#include "cubie/algorithms/implicit_runge_kutta/implicit_runge_kutta.hpp"
#include "cubie/algorithms/implicit_runge_kutta/implicit_runge_kutta_tableau.hpp"

namespace cubie {

struct radau_iia_5_tableau {
    static constexpr const char* name = "radau_iia_5";
    static constexpr int stages = 3;
    static constexpr int order = 5;
    static constexpr double a[3][3] = {
        {0.19681547722366042587, -0.065535425850198388109, 0.023770974348220152420},
        {0.39442431473908727700, 0.29207341166522846302, -0.041548752125997930198},
        {0.37640306270046727505, 0.51248582618842161384, 1.0 / 9},
    };
    static constexpr double b[3] = {0.37640306270046727505, 0.51248582618842161384, 1.0 / 9};
    static constexpr double c[3] = {0.15505102572168219018, 0.64494897427831780982, 1};
    static constexpr double d[3] = {0, 0, 1};
    static constexpr double eigenvalues[2][2] = {
        {3.6378342527444957322, 0},
        {2.6810828736277521339, 3.0504301992474105694},
    };
    static constexpr double transformation[3][3] = {
        {0.091232394870892942792, -0.14125529502095420843, -0.030029194105147424492},
        {0.24171793270710701896, 0.20412935229379993200, 0.38294211275726193780},
        {0.96604818261509293619, 1, 0},
    };
    static constexpr double inverse_transformation[3][3] = {
        {4.3255798900631553510, 0.33919925181580986954, 0.54177053993587487119},
        {-4.1787185915519047273, -0.32768282076106238708, 0.47662355450055045196},
        {-0.50287263494578687595, 2.5719269498556054292, -0.59603920482822492497},
    };
    static constexpr int embedded_order = 3;
    static constexpr double gamma0 = 0.27488882959567736775;
    static constexpr double e[3] = {-2.7623054547485993983, 0.37993559825272887787,
                                    -0.091629609865225789249};
};
static_assert(check_implicit_runge_kutta_tableau<radau_iia_5_tableau>());

using radau_iia_5 = implicit_runge_kutta<radau_iia_5_tableau>;

}  // namespace cubie
