#pragma once
// Rodas5P (G. Steinebach, Construction of Rosenbrock-Wanner method Rodas5P and numerical
// benchmarks within the Julia Differential Equations package, BIT Numer. Math. 63, 27 (2023)):
// eight stages, order 5 with an embedded solution of order 4, stiffly accurate and L-stable.
// Coefficients as in OrdinaryDiffEq.jl's Rodas5PTableau (17 significant digits). The
// solution is the last stage's point plus U_8 and the embedded one is that point, so the
// error estimate is U_8. Its solution is also a W-method of order 2 (order 2 with any matrix
// in place of J), found by the checker. Order conditions:
// tests/reference/check_rosenbrock_conditions.py.

#include "cubie/algorithms/rosenbrock/rosenbrock.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"

namespace cubie {

struct rodas5p_tableau {
    static constexpr const char* name = "rodas5p";
    static constexpr int stages = 8;
    static constexpr int order = 5;
    static constexpr int embedded_order = 4;
    static constexpr int w_order = 2;
    static constexpr double gamma = 0.21193756319429014;
    static constexpr double a[8][8] = {
        {0, 0, 0, 0, 0, 0, 0, 0},
        {3.0, 0, 0, 0, 0, 0, 0, 0},
        {2.849394379747939, 0.45842242204463923, 0, 0, 0, 0, 0, 0},
        {-6.954028509809101, 2.489845061869568, -10.358996098473584, 0, 0, 0, 0, 0},
        {2.8029986275628964, 0.5072464736228206, -0.3988312541770524, -0.04721187230404641, 0, 0, 0,
         0},
        {-7.502846399306121, 2.561846144803919, -11.627539656261098, -0.18268767659942256,
         0.030198172008377946, 0, 0, 0},
        {-7.502846399306121, 2.561846144803919, -11.627539656261098, -0.18268767659942256,
         0.030198172008377946, 1, 0, 0},
        {-7.502846399306121, 2.561846144803919, -11.627539656261098, -0.18268767659942256,
         0.030198172008377946, 1, 1, 0},
    };
    static constexpr double c[8][8] = {
        {0, 0, 0, 0, 0, 0, 0, 0},
        {-14.155112264123755, 0, 0, 0, 0, 0, 0, 0},
        {-17.97296035885952, -2.859693295451294, 0, 0, 0, 0, 0, 0},
        {147.12150275711716, -1.41221402718213, 71.68940251302358, 0, 0, 0, 0, 0},
        {165.43517024871676, -0.4592823456491126, 42.90938336958603, -5.961986721573306, 0, 0, 0,
         0},
        {24.854864614690072, -3.0009227002832186, 47.4931110020768, 5.5814197821558125,
         -0.6610691825249471, 0, 0, 0},
        {30.91273214028599, -3.1208243349937974, 77.79954646070892, 34.28646028294783,
         -19.097331116725623, -28.087943162872662, 0, 0},
        {37.80277123390563, -3.2571969029072276, 112.26918849496327, 66.9347231244047,
         -40.06618937091002, -54.66780262877968, -9.48861652309627, 0},
    };
    static constexpr double alpha[8] = {
        0, 0.6358126895828704, 0.4095798393397535, 0.9769306725060716, 0.4288403609558664, 1, 1, 1};
    static constexpr double gamma_sum[8] = {0.21193756319429014,
                                            -0.42387512638858027,
                                            -0.3384627126235924,
                                            1.8046452872882734,
                                            2.325825639765069,
                                            0,
                                            0,
                                            0};
    static constexpr double m[8] = {-7.502846399306121,
                                    2.561846144803919,
                                    -11.627539656261098,
                                    -0.18268767659942256,
                                    0.030198172008377946,
                                    1,
                                    1,
                                    1};
    static constexpr double m_hat[8] = {-7.502846399306121,
                                        2.561846144803919,
                                        -11.627539656261098,
                                        -0.18268767659942256,
                                        0.030198172008377946,
                                        1,
                                        1,
                                        0};
};
static_assert(check_rosenbrock_tableau<rodas5p_tableau>());

using rodas5p = rosenbrock<rodas5p_tableau>;

}  // namespace cubie
