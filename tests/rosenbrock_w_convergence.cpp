// Measured convergence orders of the Rosenbrock-W methods (fixed steps, double): their order
// on the problems of rosenbrock_convergence.cpp, and their W-order with a deliberately wrong
// Jacobian, with which a classical Rosenbrock method (rodas4) drops to order 1.
//
// On Prothero-Robinson (lambda = 10 over [0, 2]) the classical order shows once h lambda is
// small: from 128 steps for ROS34PW2 and from 256 (h lambda = 0.08) for ROS34PW3, which below
// that shows the order reduction rodas4 shows there (rosenbrock_convergence.cpp). On the stiff
// pair (lambda = 1000) the error is the forced smooth mode's, of the classical order.
//
// The W-orders are measured on a damped nonlinear rotation (autonomous, two coupled states),
//
//   y1' = -k y1 - rho y2,   y2' = rho y1 - k y2,   rho = y1^2 + y2^2,
//
// that is r' = -k r and theta' = r^2: r = r0 e^(-k t), theta = r0^2 (1 - e^(-2 k t)) / (2 k);
// k = 1, y(0) = (1.5, 0), over [0, 2]. Its approximate variant declares the Jacobian
// A = J / 2 + [[0, 0.3], [-0.3, 0]], so A - J = O(1). The W-order conditions hold for any A:
// ROS34PW2 keeps order 3, ROS34PW3 drops from 4 to its W-order 3, Rosenbrock23 and Rodas23W
// keep 2 and Rodas5P drops from 5 to 2, while Rodas4, of W-order 1, drops from 4 to 1 (its
// error is led by h^2 sum_i b_i gamma_i (A - J) f per step). Were the declared Jacobian
// replaced by the exact one (or by differences) the rodas4 check would measure 4 and fail.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cubie/algorithms/rosenbrock/rodas23w.hpp"
#include "cubie/algorithms/rosenbrock/rodas4.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/ros34pw2.hpp"
#include "cubie/algorithms/rosenbrock/ros34pw3.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/systems/right_hand_side.hpp"
#include "support/convergence.hpp"
#include "support/stiff_problems.hpp"

using namespace cubie;
using namespace cubie::testing;

namespace {

enum class jacobian_kind { exact, approximate };

/// The damped rotation above; its jacobian is the exact one or the approximate A.
template <class T, jacobian_kind Kind>
struct damped_rotation {
    using value_type = T;
    static constexpr int n_states = 2;
    static constexpr int n_parameters = 1;  // k
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 2> state_names{"y1", "y2"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"k"};

    CUBIE_HD void rhs(T, const state_t<damped_rotation>& y, const parameters_t<damped_rotation>& p,
                      const drivers_t<damped_rotation>&, state_t<damped_rotation>& dydt) const {
        const T rho = y[0] * y[0] + y[1] * y[1];
        dydt[0] = -p[0] * y[0] - rho * y[1];
        dydt[1] = rho * y[0] - p[0] * y[1];
    }
    CUBIE_HD void jacobian(T, const state_t<damped_rotation>& y,
                           const parameters_t<damped_rotation>& p,
                           const drivers_t<damped_rotation>&,
                           jacobian_t<damped_rotation>& J) const {
        const T rho = y[0] * y[0] + y[1] * y[1];
        J[0] = {-p[0] - 2 * y[0] * y[1], -rho - 2 * y[1] * y[1]};
        J[1] = {rho + 2 * y[0] * y[0], -p[0] + 2 * y[0] * y[1]};
        if constexpr (Kind == jacobian_kind::approximate) {
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) J[i][j] *= T(0.5);
            J[0][1] += T(0.3);
            J[1][0] -= T(0.3);
        }
    }
    CUBIE_HD void time_derivative(T, const state_t<damped_rotation>&,
                                  const parameters_t<damped_rotation>&,
                                  const drivers_t<damped_rotation>&,
                                  state_t<damped_rotation>& dfdt) const {
        dfdt[0] = dfdt[1] = 0;
    }
};

// The steppers take the declared Jacobian, not differences.
static_assert(
    right_hand_side<damped_rotation<double, jacobian_kind::approximate>>::analytic_jacobian);

template <jacobian_kind Kind>
struct damped_rotation_problem {
    template <class Algorithm>
    double error(int n_steps) const {
        const double k = 1, r0 = 1.5, t_end = 2;
        const double r = r0 * std::exp(-k * t_end);
        const double theta = r0 * r0 * (1 - std::exp(-2 * k * t_end)) / (2 * k);
        return fixed_step_error<damped_rotation<double, Kind>, Algorithm>(
            t_end, n_steps, {r0, 0}, {k}, {r * std::cos(theta), r * std::sin(theta)});
    }
};

/// Algorithm's order with the approximate Jacobian is its W-order within 0.2
/// (check_convergence_order's measure).
template <class Algorithm>
void check_w_order(int n_coarsest, int points) {
    const damped_rotation_problem<jacobian_kind::approximate> problem;
    std::string sweep;
    const double slope = measured_order<Algorithm>(problem, n_coarsest, points, sweep);
    INFO(std::string(Algorithm::name)
         << " with an approximate Jacobian: measured order " << slope << ", W-order "
         << Algorithm::w_order << " (order " << Algorithm::order << ");" << sweep);
    CHECK(std::abs(slope - Algorithm::w_order) < 0.2);
}

}  // namespace

static_assert(rosenbrock23::order == 2 && rosenbrock23::w_order == 2);
static_assert(ros34pw2::order == 3 && ros34pw2::w_order == 3);
static_assert(ros34pw3::order == 4 && ros34pw3::w_order == 3);
static_assert(rodas23w::order == 2 && rodas23w::w_order == 2);
static_assert(rodas5p::order == 5 && rodas5p::w_order == 2);
static_assert(rodas4::order == 4 && rodas4::w_order == 1);

TEST_CASE("rosenbrock23: order 2") {
    check_convergence_order<rosenbrock23>(prothero_robinson_problem{}, 16, 4);
    check_convergence_order<rosenbrock23>(stiff_pair_problem{}, 16, 4);
}
TEST_CASE("ros34pw2: order 3") {
    check_convergence_order<ros34pw2>(prothero_robinson_problem{}, 128, 4);
    check_convergence_order<ros34pw2>(stiff_pair_problem{}, 32, 4);
}
TEST_CASE("ros34pw3: order 4") {
    check_convergence_order<ros34pw3>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<ros34pw3>(stiff_pair_problem{}, 64, 4);
}
TEST_CASE("rodas23w: order 2") {
    check_convergence_order<rodas23w>(prothero_robinson_problem{}, 32, 4);
    check_convergence_order<rodas23w>(stiff_pair_problem{}, 16, 4);
}

// With the exact Jacobian the rotation shows the classical orders of the two methods whose
// W-order is lower; the W-order test below uses the same problem.
TEST_CASE("ros34pw3 and rodas4 on the damped rotation with its exact Jacobian: order 4") {
    const damped_rotation_problem<jacobian_kind::exact> problem;
    check_convergence_order<ros34pw3>(problem, 128, 4);
    check_convergence_order<rodas4>(problem, 64, 4);
}

TEST_CASE("with an approximate Jacobian the W-methods keep their W-order and rodas4 drops to 1") {
    check_w_order<rosenbrock23>(32, 4);
    check_w_order<ros34pw2>(256, 4);
    check_w_order<ros34pw3>(256, 4);
    check_w_order<rodas23w>(32, 4);
    check_w_order<rodas5p>(32, 4);
    check_w_order<rodas4>(128, 4);  // order 4 with the exact Jacobian, above
}
