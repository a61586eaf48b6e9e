// Measured convergence orders of the Rosenbrock methods (fixed steps, double) on two stiff,
// non-autonomous problems with exact solutions, so that the gamma_i h f_t terms take part (see
// support/convergence.hpp for the measurement):
//
//   Prothero-Robinson  y' = -lambda (y - sin t) + cos t, y(0) = 0, y = sin t; lambda = 10 over
//                      [0, 2].
//   stiff pair         y' = A (y - g(t)) + g'(t), g = sin t (1, 1), A with eigenvalues -1 along
//                      (1, 1) and -lambda = -1000 along (1, -1); y(0) = (2, 0) starts both
//                      modes at 1: y = g + e^-t (1, 1) + e^(-lambda t) (1, -1), over [0, 2].
//
// Both systems give their Jacobian and df/dt analytically: a Rosenbrock method keeps its
// order only with the exact Jacobian. Each method's step counts lie past its pre-asymptotic
// range and above the rounding floor (about 1e-14). On Prothero-Robinson the classical order
// shows once h lambda is small (0.1 or less: for larger h lambda these methods show the order
// reduction Prothero and Robinson describe, strongest for Rodas4, which reaches order 4 only
// from h lambda = 0.08, 256 steps). On the stiff pair h lambda >> 1: the stiff mode is damped
// by R(-h lambda)^n (ROS3P, with |R(inf)| = 0.73, needs 128 steps for that) and the error is
// the forced smooth mode's, of the classical order. The forcing lies along the smooth mode:
// forcing the stiff one too is Prothero-Robinson at h lambda >> 1, where the orders drop.
#include <doctest/doctest.h>

#include "cubie/algorithms/rosenbrock/rodas3p.hpp"
#include "cubie/algorithms/rosenbrock/rodas4.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/ros3p.hpp"
#include "support/convergence.hpp"
#include "support/stiff_problems.hpp"

using namespace cubie;
using namespace cubie::testing;

TEST_CASE("ros3p: order 3") {
    check_convergence_order<ros3p>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<ros3p>(stiff_pair_problem{}, 128, 4);
}
TEST_CASE("rodas3p: order 3") {
    check_convergence_order<rodas3p>(prothero_robinson_problem{}, 64, 4);
    check_convergence_order<rodas3p>(stiff_pair_problem{}, 32, 4);
}
TEST_CASE("rodas4: order 4") {
    check_convergence_order<rodas4>(prothero_robinson_problem{}, 256, 3);
    check_convergence_order<rodas4>(stiff_pair_problem{}, 16, 4);
}
TEST_CASE("rodas5p: order 5") {
    check_convergence_order<rodas5p>(prothero_robinson_problem{}, 16, 4);
    check_convergence_order<rodas5p>(stiff_pair_problem{}, 8, 4);
}
