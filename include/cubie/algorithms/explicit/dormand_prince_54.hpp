#pragma once
// Dormand-Prince 5(4) (Dormand & Prince, 1980): seven stages, FSAL, fifth-order solution
// with a fourth-order embedded error estimate (the pair behind MATLAB's ode45 and SciPy's
// RK45).

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/algorithms/explicit/explicit_runge_kutta.hpp"

namespace cubie {

struct dormand_prince_54_tableau {
    static constexpr const char* name = "dormand_prince_54";
    static constexpr int stages = 7;
    static constexpr int order = 5;
    static constexpr int embedded_order = 4;
    static constexpr double a[7][7] = {
        {0, 0, 0, 0, 0, 0, 0},
        {1.0 / 5, 0, 0, 0, 0, 0, 0},
        {3.0 / 40, 9.0 / 40, 0, 0, 0, 0, 0},
        {44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0, 0},
        {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0, 0},
        {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0, 0},
        {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0},
    };
    static constexpr double b[7] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784,
                                    11.0 / 84,  0};
    static constexpr double b_hat[7] = {
        5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40};
    static constexpr double c[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
    // Dense output: Hairer's CONTD5 of DOPRI5 (Shampine's 4th-order interpolant over the seven
    // stages), its coefficients d1..d7 expanded into stage weights.
    // Checked for every rooted tree up to its order by
    // tests/reference/check_dense_output_conditions.py.
    static constexpr int dense_stages = 7;
    static constexpr int dense_order = 4;
    static constexpr int dense_degree = 4;
    static constexpr double b_dense[7][4] = {
        {1, -8048581381.0 / 2820520608, 8663915743.0 / 2820520608, -12715105075.0 / 11282082432},
        {0, 0, 0, 0},
        {0, 131558114200.0 / 32700410799, -68118460800.0 / 10900136933,
         87487479700.0 / 32700410799},
        {0, -1754552775.0 / 470086768, 14199869525.0 / 1410260304, -10690763975.0 / 1880347072},
        {0, 127303824393.0 / 49829197408, -318862633887.0 / 49829197408,
         701980252875.0 / 199316789632},
        {0, -282668133.0 / 205662961, 2019193451.0 / 616988883, -1453857185.0 / 822651844},
        {0, 40617522.0 / 29380423, -110615467.0 / 29380423, 69997945.0 / 29380423},
    };
};
static_assert(check_tableau<dormand_prince_54_tableau>());
static_assert(is_fsal<dormand_prince_54_tableau>());

using dormand_prince_54 = explicit_runge_kutta<dormand_prince_54_tableau>;

}  // namespace cubie
