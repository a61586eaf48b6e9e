#pragma once
// SDIRK4 of Hairer and Wanner (Solving ODEs II, 2nd ed., Springer 1996, IV.6, Table 6.5):
// five stages, gamma = 1/4, order 4 with an embedded solution of order 3, L-stable and
// stiffly accurate (b is the last row of A). Order conditions:
// tests/reference/check_dirk_conditions.py.

#include "cubie/algorithms/dirk/dirk.hpp"
#include "cubie/algorithms/dirk/dirk_tableau.hpp"
#include "cubie/linear/newton_krylov.hpp"

namespace cubie {

struct hairer_wanner_sdirk4_tableau {
    static constexpr const char* name = "hairer_wanner_sdirk4";
    static constexpr int stages = 5;
    static constexpr int order = 4;
    static constexpr int embedded_order = 3;
    static constexpr double gamma = 0.25;
    static constexpr double a[5][5] = {
        {0.25, 0, 0, 0, 0},
        {0.5, 0.25, 0, 0, 0},
        {17.0 / 50, -1.0 / 25, 0.25, 0, 0},
        {371.0 / 1360, -137.0 / 2720, 15.0 / 544, 0.25, 0},
        {25.0 / 24, -49.0 / 48, 125.0 / 16, -85.0 / 12, 0.25},
    };
    static constexpr double c[5] = {0.25, 0.75, 11.0 / 20, 0.5, 1};
    static constexpr double b[5] = {25.0 / 24, -49.0 / 48, 125.0 / 16, -85.0 / 12, 0.25};
    static constexpr double b_hat[5] = {59.0 / 48, -17.0 / 96, 225.0 / 32, -85.0 / 12, 0};
};
static_assert(check_dirk_tableau<hairer_wanner_sdirk4_tableau>());

using hairer_wanner_sdirk4 = dirk<hairer_wanner_sdirk4_tableau>;

/// hairer_wanner_sdirk4 with matrix-free Newton-Krylov solves (linear/newton_krylov.hpp) for
/// larger systems: restarted GMRES with Jacobi preconditioning, and BiCGSTAB with a
/// second-order Neumann preconditioner. Other choices: dirk<hairer_wanner_sdirk4_tableau,
/// newton_krylov<Method, Preconditioning>>.
using hairer_wanner_sdirk4_gmres =
    dirk<hairer_wanner_sdirk4_tableau, newton_krylov<gmres_method<>, jacobi_preconditioning>>;
using hairer_wanner_sdirk4_bicgstab =
    dirk<hairer_wanner_sdirk4_tableau,
         newton_krylov<bicgstab_method<>, neumann_preconditioning<2>>>;

}  // namespace cubie
