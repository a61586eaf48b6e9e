#pragma once
// Kvaerno's ESDIRK 3(2) (A. Kvaerno, Singly diagonally implicit Runge-Kutta methods with an
// explicit first stage, BIT 44 (2004) 489-502): four stages, the first explicit, order 3
// with an embedded solution of order 2; gamma = 0.43586652150845900 is the root of
// 6 g^3 - 18 g^2 + 9 g - 1 = 0 that makes it L-stable. Both solutions are stiffly accurate
// (b is the last row of A, b_hat the third), so the error estimate is Y_4 - Y_3. The
// coefficients are the paper's formulas in gamma, evaluated in 40-digit arithmetic.
// Order conditions: tests/reference/check_dirk_conditions.py.

#include "cubie/algorithms/dirk/dirk.hpp"
#include "cubie/algorithms/dirk/dirk_tableau.hpp"
#include "cubie/linear/newton_krylov.hpp"

namespace cubie {

struct kvaerno3_tableau {
    static constexpr const char* name = "kvaerno3";
    static constexpr int stages = 4;
    static constexpr int order = 3;
    static constexpr int embedded_order = 2;
    static constexpr double gamma = 0.43586652150845900;
    static constexpr double a[4][4] = {
        {0, 0, 0, 0},
        {0.43586652150845900, 0.43586652150845900, 0, 0},
        {0.49056338842178057, 0.073570090069760433, 0.43586652150845900, 0},
        {0.30880996997674652, 1.4905633884217806, -1.2352398799069861, 0.43586652150845900},
    };
    static constexpr double c[4] = {0, 0.87173304301691800, 1, 1};
    static constexpr double b[4] = {0.30880996997674652, 1.4905633884217806, -1.2352398799069861,
                                    0.43586652150845900};
    static constexpr double b_hat[4] = {0.49056338842178057, 0.073570090069760433,
                                        0.43586652150845900, 0};
};
static_assert(check_dirk_tableau<kvaerno3_tableau>());

using kvaerno3 = dirk<kvaerno3_tableau>;

/// kvaerno3 with matrix-free Newton-Krylov solves (linear/newton_krylov.hpp) for larger systems:
/// restarted GMRES with Jacobi preconditioning, and BiCGSTAB with a second-order Neumann
/// preconditioner. Other choices: dirk<kvaerno3_tableau, newton_krylov<Method, Preconditioning>>.
using kvaerno3_gmres =
    dirk<kvaerno3_tableau, newton_krylov<gmres_method<>, jacobi_preconditioning>>;
using kvaerno3_bicgstab =
    dirk<kvaerno3_tableau, newton_krylov<bicgstab_method<>, neumann_preconditioning<2>>>;

}  // namespace cubie
