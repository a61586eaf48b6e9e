#pragma once
// Kvaerno's ESDIRK 5(4) (A. Kvaerno, Singly diagonally implicit Runge-Kutta methods with an
// explicit first stage, BIT 44 (2004) 489-502): seven stages, the first explicit, order 5
// with an embedded solution of order 4, gamma = 0.26, L-stable. Both solutions are stiffly
// accurate (b is the last row of A, b_hat the sixth), so the error estimate is Y_7 - Y_6.
// Coefficients to the 17 digits of the paper's table. Order conditions:
// tests/reference/check_dirk_conditions.py.

#include "cubie/algorithms/dirk/dirk.hpp"
#include "cubie/algorithms/dirk/dirk_tableau.hpp"
#include "cubie/linear/newton_krylov.hpp"

namespace cubie {

struct kvaerno5_tableau {
    static constexpr const char* name = "kvaerno5";
    static constexpr int stages = 7;
    static constexpr int order = 5;
    static constexpr int embedded_order = 4;
    static constexpr double gamma = 0.26;
    static constexpr double a[7][7] = {
        {0, 0, 0, 0, 0, 0, 0},
        {0.26, 0.26, 0, 0, 0, 0, 0},
        {0.13, 0.84033320996790809, 0.26, 0, 0, 0, 0},
        {0.22371961478320505, 0.47675532319799699, -0.06470895363112615, 0.26, 0, 0, 0},
        {0.16648564323248321, 0.10450018841591720, 0.03631482272098715, -0.13090704451073998, 0.26,
         0, 0},
        {0.13855640231268224, 0, -0.04245337201752043, 0.02446657898003141, 0.61943039072480676,
         0.26, 0},
        {0.13659751177640291, 0, -0.05496908796538376, -0.04118626728321046, 0.62993304899016403,
         0.06962479448202728, 0.26},
    };
    static constexpr double c[7] = {
        0, 0.52, 1.23033320996790809, 0.89576598435007589, 0.43639360985864758, 1, 1};
    static constexpr double b[7] = {
        0.13659751177640291, 0,   -0.05496908796538376, -0.04118626728321046, 0.62993304899016403,
        0.06962479448202728, 0.26};
    static constexpr double b_hat[7] = {0.13855640231268224,
                                        0,
                                        -0.04245337201752043,
                                        0.02446657898003141,
                                        0.61943039072480676,
                                        0.26,
                                        0};
};
static_assert(check_dirk_tableau<kvaerno5_tableau>());

using kvaerno5 = dirk<kvaerno5_tableau>;

/// kvaerno5 with matrix-free Newton-Krylov solves (linear/newton_krylov.hpp) for larger systems:
/// restarted GMRES with Jacobi preconditioning, and BiCGSTAB with a second-order Neumann
/// preconditioner. Other choices: dirk<kvaerno5_tableau, newton_krylov<Method, Preconditioning>>.
using kvaerno5_gmres =
    dirk<kvaerno5_tableau, newton_krylov<gmres_method<>, jacobi_preconditioning>>;
using kvaerno5_bicgstab =
    dirk<kvaerno5_tableau, newton_krylov<bicgstab_method<>, neumann_preconditioning<2>>>;

}  // namespace cubie
