// Measured convergence orders of the DIRK methods (fixed steps, double) on the stiff,
// non-autonomous problems of support/stiff_problems.hpp: Prothero-Robinson (lambda = 10)
// and the stiff pair (lambda = 1000). Both are linear in y with a constant Jacobian, so one
// simplified Newton iteration solves each stage exactly and the error measured is the
// method's own. On Prothero-Robinson the classical order shows once h lambda is small; DIRK
// stages have stage order 1 (2 for the ESDIRKs), so for larger h lambda the order drops
// (Prothero and Robinson). On the stiff pair h lambda >> 1 for the L-stable methods: their
// stiff mode is damped at once and the error is the forced smooth mode's, of the classical
// order; the A-stable implicit midpoint and trapezoidal rules (R(inf) = -1) do not damp it,
// so they run with h lambda <= 1. Each method's step counts lie past its pre-asymptotic
// range and above the rounding floor (about 1e-14).
#include <doctest/doctest.h>

#include "cubie/algorithms/dirk/backward_euler.hpp"
#include "cubie/algorithms/dirk/hairer_wanner_sdirk4.hpp"
#include "cubie/algorithms/dirk/implicit_midpoint.hpp"
#include "cubie/algorithms/dirk/kvaerno3.hpp"
#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/dirk/sdirk2.hpp"
#include "cubie/algorithms/dirk/sdirk3.hpp"
#include "cubie/algorithms/dirk/trapezoid.hpp"
#include "support/convergence.hpp"
#include "support/stiff_problems.hpp"

using namespace cubie;
using namespace cubie::testing;

TEST_CASE("backward_euler: order 1") {
    check_convergence_order<backward_euler>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<backward_euler>(stiff_pair_problem{}, 64, 4);
}
TEST_CASE("implicit_midpoint: order 2") {
    check_convergence_order<implicit_midpoint>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<implicit_midpoint>(stiff_pair_problem{}, 2048, 4);
}
TEST_CASE("trapezoid: order 2") {
    check_convergence_order<trapezoid>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<trapezoid>(stiff_pair_problem{}, 2048, 4);
}
TEST_CASE("sdirk2: order 2") {
    check_convergence_order<sdirk2>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<sdirk2>(stiff_pair_problem{}, 64, 4);
}
TEST_CASE("sdirk3: order 3") {
    check_convergence_order<sdirk3>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<sdirk3>(stiff_pair_problem{}, 64, 4);
}
TEST_CASE("kvaerno3: order 3") {
    check_convergence_order<kvaerno3>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<kvaerno3>(stiff_pair_problem{}, 64, 4);
}
TEST_CASE("hairer_wanner_sdirk4: order 4") {
    check_convergence_order<hairer_wanner_sdirk4>(prothero_robinson_problem{}, 256, 3);
    check_convergence_order<hairer_wanner_sdirk4>(stiff_pair_problem{}, 32, 4);
}
TEST_CASE("kvaerno5: order 5") {
    check_convergence_order<kvaerno5>(prothero_robinson_problem{}, 64, 3);
    check_convergence_order<kvaerno5>(stiff_pair_problem{}, 16, 4);
}
