// The adaptive Radau IIA methods on stiff problems with Gustafsson's controller, against SciPy
// references (reference/stiff_reference.csv, written by reference/make_stiff_reference.py);
// the second, filtered error estimate after a stiff transient; saves through the collocation
// polynomial; a float solve; and the failures of steps whose iteration matrix is singular or
// whose simplified Newton iteration does not converge, with the work the reports count.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cubie/algorithms/implicit_runge_kutta/gauss_legendre_2.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_3.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/catalogue/robertson.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "cubie/systems/right_hand_side.hpp"
#include "support/failing_steps.hpp"
#include "support/failure_isolation.hpp"
#include "support/one_step.hpp"
#include "support/stiff_problems.hpp"
#include "support/stiff_reference.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::check_divergence_recovered;
using cubie::testing::check_failure_without_smaller_step;
using cubie::testing::check_fixed_step_failure;
using cubie::testing::check_pollution_reference;
using cubie::testing::check_stiff_references;
using cubie::testing::cubic_decay;
using cubie::testing::cubic_decay_solution;
using cubie::testing::one_step;
using cubie::testing::relaxation;
using cubie::testing::test_backend;

namespace {

/// The stiff pair's exact solution (support/stiff_problems.hpp), lambda = 1000.
double stiff_pair_solution(int component, double t) {
    const double smooth = std::sin(t) + std::exp(-t), stiff = std::exp(-1000 * t);
    return component == 0 ? smooth + stiff : smooth - stiff;
}

}  // namespace

// Within twice the tolerance of SciPy's Radau at rtol 1e-12 (stiff_reference.hpp).
TEST_CASE(
    "radau_iia_3 and radau_iia_5 with Gustafsson's controller: Robertson to t = 1e5 and "
    "1e11, Van der Pol mu = 1000, against SciPy's Radau") {
    check_stiff_references<radau_iia_3, gustafsson_controller>();
    check_stiff_references<radau_iia_5, gustafsson_controller>();
}

// Pollution's real and complex iteration matrices are factored in its sparsity pattern
// (linear/iteration_lu.hpp), against SciPy's reference as for the other families.
TEST_CASE("radau_iia_5: Bari test set pollution to t = 60") {
    check_pollution_reference<radau_iia_5, gustafsson_controller>();
}

// One step of h p = -1e5 from y = 2 on y' = p (y - 1): the transient y - 1 = 1 is gone at
// t = h, and y_new - 1 = R(h p), 2e-5 for Radau IIA 3 and 3e-5 for Radau IIA 5, is the local
// error. The first estimate (8.19) tends to -1 per unit of transient (1e4 tolerances here);
// the second (8.20) to the local error itself (times 1 and 1.21 in this limit,
// reference/check_implicit_rk_conditions.py), so the step is accepted.
template <class Method>
void check_stiff_transient_estimate(double ratio, unsigned linear_iterations) {
    const state_t<relaxation<double>> y{2};
    state_t<relaxation<double>> y_new;
    implicit_step_report report;
    const double err = one_step<Method>(relaxation<double>{}, {-1e6}, y, 0.1, 1e-4, report, y_new);
    const double local_error = std::abs(y_new[0] - 1) / (1e-4 + 1e-4 * 2);
    INFO(Method::name << ": estimate " << err << ", local error " << local_error << " x tolerance");
    CHECK(err < 1);
    CHECK(err == doctest::Approx(ratio * local_error).epsilon(0.01));
    // The first iteration solves the linear stage system, the second confirms it; then
    // both estimates take a solve.
    CHECK(report.newton_iterations == 2);
    CHECK(report.linear_iterations == linear_iterations);
}

TEST_CASE("after a stiff transient the filtered estimate (8.20) accepts what (8.19) rejects") {
    check_stiff_transient_estimate<radau_iia_3>(1, 2 * 1 + 2);     // one complex block
    check_stiff_transient_estimate<radau_iia_5>(1.21, 2 * 2 + 2);  // a real and a complex one
}

// The stiff pair's transient (lambda = 1000) is interpolated too. Saving does not shorten
// steps: the solve's steps are those of the same solve saving nothing.
TEST_CASE("radau_iia_5 saves through its collocation polynomial") {
    using system = cubie::testing::stiff_pair<double>;
    const std::vector<double> y0{2, 0}, lambda{1000};
    solve_settings<gustafsson_controller> settings;
    settings.t_end = 2;
    settings.dt = 1e-4;
    settings.rtol = settings.atol = {1e-7};
    const auto plain = solver<system, radau_iia_5, gustafsson_controller>{}.solve(
        {1, y0, lambda}, settings, test_backend{});
    settings.save_every = 0.002;  // t = 0.002, ..., 2; the first five inside the transient
    const auto saved = solver<system, radau_iia_5, gustafsson_controller, save_state>{}.solve(
        {1, y0, lambda}, settings, test_backend{});
    REQUIRE(saved.statuses[0] == status::success);
    REQUIRE(saved.n_saves() == 1000);
    double worst = 0;
    for (std::size_t k = 0; k < saved.n_saves(); ++k) {
        const double t = saved.save_times[k];
        for (int i = 0; i < 2; ++i) {
            const double exact = stiff_pair_solution(i, t);
            worst = std::fmax(worst, std::abs(saved.saved_value(k, i, 0) - exact) /
                                         (1e-7 + 1e-7 * std::abs(exact)));
        }
    }
    MESSAGE("radau_iia_5 saves on the stiff pair: largest error "
            << worst << " x tolerance, " << saved.accepted_steps[0] << " steps");
    // An interpolant of order 3 in steps that an order-5 estimate sizes; measured 0.17.
    CHECK(worst < 1);
#if defined(__CUDACC__)
    CHECK(std::abs(double(saved.accepted_steps[0]) - double(plain.accepted_steps[0])) <= 1);
#else
    CHECK(saved.accepted_steps == plain.accepted_steps);
    CHECK(saved.rejected_steps == plain.rejected_steps);
    CHECK(saved.final_states == plain.final_states);
#endif
}

TEST_CASE("radau_iia_5 in float: the stiff pair within the tolerance") {
    using system = cubie::testing::stiff_pair<float>;
    const std::vector<float> y0{2, 0}, lambda{1000};
    solve_settings<gustafsson_controller> settings;
    settings.t_end = 2;
    settings.dt = 1e-4;
    settings.rtol = settings.atol = {1e-4};
    const auto result = solver<system, radau_iia_5, gustafsson_controller>{}.solve(
        {1, y0, lambda}, settings, test_backend{});
    REQUIRE(result.statuses[0] == status::success);
    for (int i = 0; i < 2; ++i) {
        const double exact = stiff_pair_solution(i, 2);
        CHECK(std::abs(result.final_state(i, 0) - exact) < 1e-4 * (1 + std::abs(exact)));
    }
    CHECK(result.newton_iterations[0] >= result.accepted_steps[0]);
}

// Trajectory 0 has h p = 0.5 * 2 gamma = gamma, so Radau IIA 5's real iteration matrix is zero
// at the first step; trajectory 1 shares the batch. With regular matrices every step keeps y = 1
// exactly: one Newton iteration with dW = 0, and a zero error.
TEST_CASE("a singular iteration matrix fails the step, and only that trajectory") {
    const double gamma = radau_iia_5_tableau::eigenvalues[0][0];
    const std::vector<double> y0{1, 2}, p{2 * gamma, -1};
    const batch_inputs<double> inputs{2, y0, p};
    const double exact_1 = 1 + std::exp(-1.0);  // y(1) of trajectory 1

    SUBCASE("the failed step reports singular_matrix, an infinite error and leaves y") {
        const relaxation<double> system{};
        const state_t<relaxation<double>> y{1};
        state_t<relaxation<double>> y_new;
        implicit_step_report failed;
        CHECK(one_step<radau_iia_5>(system, {2 * gamma}, y, 0.5, 1e-8, failed, y_new) ==
              std::numeric_limits<double>::infinity());
        CHECK(failed.failure == step_failure::singular_matrix);
        CHECK(failed.newton_iterations == 0);
        CHECK(failed.linear_iterations == 0);
        CHECK(y_new[0] == 1);
        implicit_step_report regular;
        CHECK(one_step<radau_iia_5>(system, {2 * gamma}, y, 0.25, 1e-8, regular, y_new) == 0);
        CHECK(regular.failure == step_failure::none);
        CHECK(regular.newton_iterations == 1);
        CHECK(regular.linear_iterations == 3);  // real and complex block, error filter
        CHECK(y_new[0] == 1);
    }
    SUBCASE("adaptive: rejected, then retried with a smaller step") {
        solve_settings<gustafsson_controller> settings;
        settings.t_end = 1;
        settings.dt = 0.5;
        settings.rtol = {1e-8};
        settings.atol = {1e-8};
        const auto result = solver<relaxation<double>, radau_iia_5, gustafsson_controller>{}.solve(
            inputs, settings, test_backend{});
        CHECK(result.statuses[0] == status::success);
        CHECK(result.rejected_steps[0] == 1);
        CHECK(result.final_state(0, 0) == 1);
        // Every regular attempt: one iteration, two block solves and the error filter's.
        CHECK(result.newton_iterations[0] == result.accepted_steps[0]);
        CHECK(result.linear_iterations[0] == 3 * result.accepted_steps[0]);
        CHECK(result.statuses[1] == status::success);
        CHECK(std::abs(result.final_state(0, 1) - exact_1) < 1e-7);
        CHECK(result.newton_iterations[1] >= result.accepted_steps[1] + result.rejected_steps[1]);
    }
    SUBCASE("adaptive, with no smaller step allowed: the trajectory ends with singular_matrix") {
        check_failure_without_smaller_step<relaxation<double>, radau_iia_5, gustafsson_controller>(
            inputs, status::singular_matrix);
    }
    SUBCASE("fixed steps: the trajectory ends with singular_matrix") {
        check_fixed_step_failure<relaxation<double>, radau_iia_5>(inputs, status::singular_matrix,
                                                                  exact_1, 1e-3);
    }
    SUBCASE("radau_iia_3's error filter 2 / h - p, a factorisation of its own, singular too") {
        // h p = 0.5 * 4 = 2 = 1 / gamma0: the complex block's matrix is regular, the
        // iteration would converge, but the step cannot be estimated.
        solve_settings<gustafsson_controller> settings;
        settings.t_end = 1;
        settings.dt = 0.5;
        settings.rtol = {1e-8};
        settings.atol = {1e-8};
        const std::vector<double> one{1}, four{4};
        const solver<relaxation<double>, radau_iia_3, gustafsson_controller> s;
        const auto result = s.solve({1, one, four}, settings, test_backend{});
        CHECK(result.statuses[0] == status::success);
        CHECK(result.rejected_steps[0] == 1);
        CHECK(result.final_state(0, 0) == 1);
        // Every regular attempt: one iteration, one complex solve and the error filter's.
        CHECK(result.newton_iterations[0] == result.accepted_steps[0]);
        CHECK(result.linear_iterations[0] == 2 * result.accepted_steps[0]);
        settings.dt_min = 0.4;
        CHECK(s.solve({1, one, four}, settings, test_backend{}).statuses[0] ==
              status::singular_matrix);
    }
}

TEST_CASE("a step whose Newton iteration fails is rejected, and only for that trajectory") {
    const std::vector<double> y0{1, 1}, p{1e4, 0.1};
    const batch_inputs<double> inputs{2, y0, p};

    SUBCASE("the failed step reports newton_divergence, an infinite error and leaves y") {
        const cubic_decay<double> system{};
        const state_t<cubic_decay<double>> y{1};
        state_t<cubic_decay<double>> y_new;
        implicit_step_report failed;
        CHECK(one_step<radau_iia_5>(system, {1e4}, y, 0.5, 1e-8, failed, y_new) ==
              std::numeric_limits<double>::infinity());
        CHECK(failed.failure == step_failure::newton_divergence);
        CHECK(failed.newton_iterations >= 2);  // a rate needs two iterations
        CHECK(failed.linear_iterations == 2 * failed.newton_iterations);
        CHECK(y_new[0] == 1);
        implicit_step_report converged;
        const double err = one_step<radau_iia_5>(system, {1e4}, y, 1e-6, 1e-8, converged, y_new);
        CHECK(std::isfinite(err));
        CHECK(converged.failure == step_failure::none);
        CHECK(converged.newton_iterations >= 1);
        // Two block solves per iteration, and one or two for the error estimate.
        CHECK(converged.linear_iterations >= 2 * converged.newton_iterations + 1);
        CHECK(converged.linear_iterations <= 2 * converged.newton_iterations + 2);
    }
    SUBCASE("adaptive: rejected, retried with smaller steps, other trajectory unchanged") {
        const auto result = check_divergence_recovered<radau_iia_5, gustafsson_controller>(inputs);
        CHECK(result.newton_iterations[1] >= result.accepted_steps[1]);
    }
    SUBCASE("adaptive, with no smaller step allowed: the trajectory ends with newton_divergence") {
        check_failure_without_smaller_step<cubic_decay<double>, radau_iia_5, gustafsson_controller>(
            inputs, status::newton_divergence);
    }
    SUBCASE("gauss_legendre_2, fixed steps: the trajectory ends with newton_divergence") {
        check_fixed_step_failure<cubic_decay<double>, gauss_legendre_2>(
            inputs, status::newton_divergence, cubic_decay_solution(0.1, 1), 1e-4);
    }
}
