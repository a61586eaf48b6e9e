// The DIRK methods with matrix-free Newton-Krylov solves (linear/newton_krylov.hpp) against
// the same methods with dense LU (direct_lu): the same convergence orders on the problems of
// dirk_convergence.cpp, the SciPy references of dirk_stiff.cpp within the same bound, the
// work they report (Newton iterations, Krylov iterations), and how their steps fail: a
// Krylov solve that breaks down on an exactly singular M, solves that run out of iterations,
// and a Newton iteration that fails with converged solves.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cubie/algorithms/dirk/backward_euler.hpp"
#include "cubie/algorithms/dirk/hairer_wanner_sdirk4.hpp"
#include "cubie/algorithms/dirk/kvaerno3.hpp"
#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/dirk/sdirk3.hpp"
#include "cubie/catalogue/harmonic_oscillator.hpp"
#include "cubie/catalogue/robertson.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/linear/newton_krylov.hpp"
#include "cubie/solver/solver.hpp"
#include "cubie/systems/right_hand_side.hpp"
#include "support/convergence.hpp"
#include "support/failing_steps.hpp"
#include "support/one_step.hpp"
#include "support/stiff_problems.hpp"
#include "support/stiff_reference.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::cubic_decay;
using cubie::testing::relaxation;
using namespace cubie::testing;

namespace {

using sdirk3_gmres = dirk<sdirk3_tableau, newton_krylov<gmres_method<>, jacobi_preconditioning>>;
using sdirk3_bicgstab =
    dirk<sdirk3_tableau, newton_krylov<bicgstab_method<>, neumann_preconditioning<2>>>;

static_assert(std::string_view(kvaerno5::name) == "kvaerno5");
static_assert(std::string_view(kvaerno5_gmres::name) == "kvaerno5_gmres_jacobi");
static_assert(std::string_view(kvaerno5_bicgstab::name) == "kvaerno5_bicgstab_neumann");
static_assert(std::is_same_v<kvaerno5::linear_solver, direct_lu>);

struct work {
    std::uint32_t accepted, rejected, newton, linear;
};

/// The work of one adaptive solve at rtol 1e-6 (pi_controller).
template <class Method, class System>
work work_of(const std::vector<double>& y0, const std::vector<double>& p, double t_end,
             double atol) {
    solve_settings<pi_controller> settings;
    settings.t_end = t_end;
    settings.dt = 1e-6;
    settings.rtol = {1e-6};
    settings.atol = {atol};
    const auto r =
        solver<System, Method, pi_controller>{}.solve({1, y0, p}, settings, test_backend{});
    REQUIRE(r.statuses[0] == status::success);
    return {r.accepted_steps[0], r.rejected_steps[0], r.newton_iterations[0],
            r.linear_iterations[0]};
}

}  // namespace

// As dirk_convergence.cpp, with the same step counts: solves to working precision leave the
// methods' own errors, down to 4e-13 (Kvaerno5 on the stiff pair at 128 steps).
TEST_CASE("Newton-Krylov DIRK methods keep their convergence orders") {
    check_convergence_order<kvaerno5_gmres>(prothero_robinson_problem{}, 64, 3);
    check_convergence_order<kvaerno5_gmres>(stiff_pair_problem{}, 16, 4);
    check_convergence_order<kvaerno5_bicgstab>(prothero_robinson_problem{}, 64, 3);
    check_convergence_order<kvaerno5_bicgstab>(stiff_pair_problem{}, 16, 4);
    check_convergence_order<sdirk3_gmres>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<sdirk3_gmres>(stiff_pair_problem{}, 64, 4);
    check_convergence_order<sdirk3_bicgstab>(prothero_robinson_problem{}, 256, 4);
    check_convergence_order<sdirk3_bicgstab>(stiff_pair_problem{}, 64, 4);
}

TEST_CASE("fixed steps with Krylov solves end where the direct solves end") {
    // Both methods solve each stage to working precision; the 2-state stiff pair's solves
    // differ from LU's by rounding only.
    const double direct = stiff_pair_problem{}.error<sdirk3>(256);
    CHECK(std::abs(stiff_pair_problem{}.error<sdirk3_gmres>(256) - direct) <= 1e-3 * direct);
    CHECK(std::abs(stiff_pair_problem{}.error<sdirk3_bicgstab>(256) - direct) <= 1e-3 * direct);
}

// Within twice the tolerance of SciPy's Radau at rtol 1e-12 (stiff_reference.hpp), as the
// direct methods in dirk_stiff.cpp.
TEST_CASE("kvaerno5 with GMRES + Jacobi and BiCGSTAB + Neumann: Robertson and Van der Pol") {
    check_stiff_references<kvaerno5_gmres>();
    check_stiff_references<kvaerno5_bicgstab>();
}
TEST_CASE("kvaerno3 with GMRES + Jacobi and BiCGSTAB + Neumann: Robertson and Van der Pol") {
    check_stiff_references<kvaerno3_gmres>();
    check_stiff_references<kvaerno3_bicgstab>();
}
// Pollution's 20 species are the size Krylov solves are meant for (GMRES restarts there);
// against the Bari values, both take kvaerno5's steps and end 0.025 (rtol 1e-6) and 0.062
// (rtol 1e-8) tolerances away, as kvaerno5 with LU does.
TEST_CASE("kvaerno5 with GMRES + Jacobi and BiCGSTAB + Neumann: Bari test set pollution") {
    check_pollution_reference<kvaerno5_gmres>();
    check_pollution_reference<kvaerno5_bicgstab>();
}

TEST_CASE(
    "iteration counts: one LU solve per Newton iteration and predictor, Krylov iterations "
    "otherwise") {
    SUBCASE("one state, Jacobi-preconditioned: one Krylov iteration per solve, or none") {
        // M is 1 x 1 and Jacobi preconditioning its inverse: a solve takes one GMRES step,
        // as exact as an LU solve, and the Newton iterations match.
        const prothero_robinson<double> system{};
        const state_t<prothero_robinson<double>> y{0.3};
        implicit_step_report direct, krylov;
        state_t<prothero_robinson<double>> y_direct, y_krylov;
        const double e_direct = one_step<kvaerno5>(system, {10}, y, 0.1, 1e-8, direct, y_direct);
        const double e_krylov =
            one_step<kvaerno5_gmres>(system, {10}, y, 0.1, 1e-8, krylov, y_krylov);
        REQUIRE(std::isfinite(e_direct));
        REQUIRE(std::isfinite(e_krylov));
        // An LU solve per Newton iteration and one per implicit stage's predictor.
        CHECK(direct.linear_iterations == direct.newton_iterations + 6);
        CHECK(krylov.newton_iterations == direct.newton_iterations);
        // At most one GMRES step per solve; none where the right-hand side is within the
        // tolerance already.
        CHECK(krylov.linear_iterations <= direct.linear_iterations);
        CHECK(std::abs(y_krylov[0] - y_direct[0]) <= 1e-14);
    }
    SUBCASE("Robertson and Van der Pol: direct 1 per solve, Krylov up to the budget") {
        using robertson = catalogue::robertson<double>;
        using van_der_pol = catalogue::van_der_pol<double>;
        const std::vector<double> rob_y0{1, 0, 0}, vdp_y0{2, 0}, mu{1000};
        const work rob[3] = {work_of<kvaerno5, robertson>(rob_y0, {}, 1e5, 1e-14),
                             work_of<kvaerno5_gmres, robertson>(rob_y0, {}, 1e5, 1e-14),
                             work_of<kvaerno5_bicgstab, robertson>(rob_y0, {}, 1e5, 1e-14)};
        const work vdp[3] = {work_of<kvaerno5, van_der_pol>(vdp_y0, mu, 2000, 1e-8),
                             work_of<kvaerno5_gmres, van_der_pol>(vdp_y0, mu, 2000, 1e-8),
                             work_of<kvaerno5_bicgstab, van_der_pol>(vdp_y0, mu, 2000, 1e-8)};
        for (const work* c : {rob, vdp}) {
            INFO("direct " << c[0].accepted << " steps, " << c[0].newton << " Newton, "
                           << c[0].linear << " linear; gmres " << c[1].accepted << ", "
                           << c[1].newton << ", " << c[1].linear << "; bicgstab " << c[2].accepted
                           << ", " << c[2].newton << ", " << c[2].linear);
            // One LU solve per Newton iteration, and one per predictor of the implicit stages
            // of every attempted step (a failed stage ends its step's attempt).
            CHECK(c[0].linear >= c[0].newton + 6 * c[0].accepted);
            CHECK(c[0].linear <= c[0].newton + 6 * (c[0].accepted + c[0].rejected));
            // At least one Newton iteration per implicit stage of every accepted step.
            for (int m = 0; m < 3; ++m) CHECK(c[m].newton >= 6 * c[m].accepted);
            // At most GMRES(min(10, N)) with 4 restarts, or 50 BiCGSTAB iterations, per solve.
            const std::uint32_t n = c == rob ? 3 : 2;
            CHECK(c[1].linear <= 5 * n * c[1].newton);
            CHECK(c[2].linear <= 50 * c[2].newton);
            // The coupled states need more than one Krylov iteration per solve on average
            // (Jacobi preconditioning inverts M's diagonal only).
            CHECK(c[1].linear > c[1].newton);
            CHECK(c[2].linear > c[2].newton);
        }
        // On Robertson's transient GMRES leaves the Newton iteration and the step sizes
        // where LU leaves them (its tolerance is 1e-6 of the step's).
        CHECK(rob[1].accepted == rob[0].accepted);
        CHECK(rob[1].newton == rob[0].newton);
    }
}

// Trajectory 0 has h gamma p = 0.5 * 0.25 * 8 = 1 at its first step (Hairer and Wanner's
// SDIRK4 starts with an implicit stage, gamma = 1/4), so M = 0; trajectory 1 shares the
// batch with p = -1.
TEST_CASE("a Krylov solve that breaks down fails the step, and only that trajectory") {
    using gmres_method_t = hairer_wanner_sdirk4_gmres;
    using bicgstab_method_t = hairer_wanner_sdirk4_bicgstab;
    const std::vector<double> y0{2, 2}, p{8, -1};
    const batch_inputs<double> inputs{2, y0, p};
    const std::vector<double> two{2}, minus_one{-1};
    const batch_inputs<double> alone_inputs{1, two, minus_one};

    SUBCASE("the step reports linear_solver_failure, an infinite error and leaves y") {
        const relaxation<double> system{};
        const state_t<relaxation<double>> y{2};
        state_t<relaxation<double>> y_new;
        implicit_step_report direct, gmres, bicgstab;
        constexpr double inf = std::numeric_limits<double>::infinity();
        CHECK(one_step<hairer_wanner_sdirk4>(system, {8}, y, 0.5, 1e-8, direct, y_new) == inf);
        CHECK(direct.failure == step_failure::singular_matrix);
        CHECK(one_step<gmres_method_t>(system, {8}, y, 0.5, 1e-8, gmres, y_new) == inf);
        CHECK(gmres.failure == step_failure::linear_solver_failure);
        CHECK(y_new[0] == 2);
        // The first implicit stage's predictor solve breaks down, before any Newton iteration:
        // its first Arnoldi step finds A P v = 0.
        CHECK(gmres.newton_iterations == 0);
        CHECK(gmres.linear_iterations == 1);
        CHECK(one_step<bicgstab_method_t>(system, {8}, y, 0.5, 1e-8, bicgstab, y_new) == inf);
        CHECK(bicgstab.failure == step_failure::linear_solver_failure);
        CHECK(bicgstab.newton_iterations == 0);
        CHECK(bicgstab.linear_iterations == 1);
        // Half the step: M = 1/2, and the same solves converge.
        implicit_step_report half;
        CHECK(std::isfinite(one_step<gmres_method_t>(system, {8}, y, 0.25, 1e-8, half, y_new)));
        CHECK(half.failure == step_failure::none);
    }
    SUBCASE("adaptive, with no smaller step allowed: the trajectory ends there") {
        solve_settings<pi_controller> settings;
        settings.t_end = 1;
        settings.dt = 0.5;
        settings.dt_min = 0.4;
        settings.rtol = {1e-8};
        settings.atol = {1e-8};
        const solver<relaxation<double>, gmres_method_t, pi_controller> s;
        const auto result = s.solve(inputs, settings, test_backend{});
        CHECK(result.statuses[0] == status::linear_solver_failure);
        CHECK(result.status_message(0) == std::string("linear_solver_failure"));
        CHECK(result.final_state(0, 0) == 2);
        const auto alone = s.solve(alone_inputs, settings, test_backend{});
        CHECK(result.statuses[1] == alone.statuses[0]);
        CHECK(result.final_state(0, 1) == alone.final_state(0, 0));
        CHECK(result.rejected_steps[1] == alone.rejected_steps[0]);
        CHECK(result.accepted_steps[1] == alone.accepted_steps[0]);
        CHECK(result.newton_iterations[1] == alone.newton_iterations[0]);
        CHECK(result.linear_iterations[1] == alone.linear_iterations[0]);

        const solver<relaxation<double>, bicgstab_method_t, pi_controller> b;
        const auto bicgstab = b.solve(inputs, settings, test_backend{});
        CHECK(bicgstab.statuses[0] == status::linear_solver_failure);
        const auto bicgstab_alone = b.solve(alone_inputs, settings, test_backend{});
        CHECK(bicgstab.statuses[1] == bicgstab_alone.statuses[0]);
        CHECK(bicgstab.final_state(0, 1) == bicgstab_alone.final_state(0, 0));
    }
    SUBCASE("adaptive: rejected, then retried with a smaller step") {
        solve_settings<pi_controller> settings;
        settings.t_end = 1;
        settings.dt = 0.5;
        settings.rtol = {1e-8};
        settings.atol = {1e-8};
        const auto result = solver<relaxation<double>, gmres_method_t, pi_controller>{}.solve(
            inputs, settings, test_backend{});
        CHECK(result.statuses[0] == status::success);
        CHECK(result.rejected_steps[0] >= 1);
        // y - 1 = e^(p t) grows: each step's local error, within the tolerance of the
        // solution it is taken from, grows with the solution, so the global error stays
        // within the number of steps times the tolerance at t = 1.
        const double exact = 1 + std::exp(8.0);
        CHECK(std::abs(result.final_state(0, 0) - exact) <=
              result.accepted_steps[0] * (1e-8 + 1e-8 * exact));
    }
    SUBCASE("fixed steps: the trajectory ends with linear_solver_failure") {
        solve_settings<fixed_step> settings;
        settings.t_end = 1;
        settings.dt = 0.5;
        const auto result = solver<relaxation<double>, gmres_method_t, fixed_step>{}.solve(
            inputs, settings, test_backend{});
        CHECK(result.statuses[0] == status::linear_solver_failure);
        CHECK(result.final_state(0, 0) == 2);  // the last finite state
        CHECK(result.statuses[1] == status::success);
        // The other trajectory as the direct method takes it, but for rounding.
        const auto direct = solver<relaxation<double>, hairer_wanner_sdirk4, fixed_step>{}.solve(
            alone_inputs, settings, test_backend{});
        CHECK(std::abs(result.final_state(0, 1) - direct.final_state(0, 0)) <= 1e-14);
    }
}

TEST_CASE("solves that run out of iterations make a failed Newton iteration the solver's") {
    // The harmonic oscillator (omega = 1) has M = [[1, -h gamma], [h gamma, 1]], h gamma = 1
    // here: Jacobi preconditioning is the identity, and one GMRES step per solve reduces the
    // residual only by h gamma / sqrt(1 + (h gamma)^2) = 0.71 (the best multiple of b that M
    // maps back towards b), too slowly for the Newton iteration to converge in its 7
    // iterations. Two steps span the whole space and solve it.
    using one_step_gmres =
        dirk<kvaerno3_tableau, newton_krylov<gmres_method<1, 0>, jacobi_preconditioning>>;
    using two_step_gmres =
        dirk<kvaerno3_tableau, newton_krylov<gmres_method<2, 0>, jacobi_preconditioning>>;
    using oscillator = catalogue::harmonic_oscillator<double>;
    const oscillator system{};
    const state_t<oscillator> y{1, 0};
    const double h = 1 / kvaerno3_tableau::gamma;
    state_t<oscillator> y_new;
    implicit_step_report short_budget, full_budget, direct;
    CHECK(one_step<one_step_gmres>(system, {1}, y, h, 1e-8, short_budget, y_new) ==
          std::numeric_limits<double>::infinity());
    CHECK(short_budget.failure == step_failure::linear_solver_failure);
    CHECK(short_budget.newton_iterations >= 2);  // a rate needs two iterations
    // One GMRES step per solve: the first implicit stage's predictor and its iterations.
    CHECK(short_budget.linear_iterations == short_budget.newton_iterations + 1);
    const double e_full = one_step<two_step_gmres>(system, {1}, y, h, 1e-8, full_budget, y_new);
    CHECK(full_budget.failure == step_failure::none);
    CHECK(
        e_full ==
        doctest::Approx(one_step<kvaerno3>(system, {1}, y, h, 1e-8, direct, y_new)).epsilon(1e-6));
    // The oscillator is linear, so the LU predictor is the stage's solution and each stage
    // converges in one iteration. The Krylov predictor takes J v by differences, which err
    // by sqrt(eps) of the predictor's size (far above the corrections'), so a stage may take
    // one iteration more.
    CHECK(full_budget.newton_iterations >= direct.newton_iterations);
    CHECK(full_budget.newton_iterations <= direct.newton_iterations + 3);
}

TEST_CASE("a Newton iteration that fails with converged solves is newton_divergence") {
    // As in dirk_stiff.cpp: at h gamma p >> 1 the iteration diverges. Without a Jacobian or
    // jvp the Krylov solves take J v by differences; every 1 x 1 solve converges.
    const cubic_decay<double> system{};
    const state_t<cubic_decay<double>> y{1};
    state_t<cubic_decay<double>> y_new;
    implicit_step_report direct, gmres, bicgstab;
    CHECK(!std::isfinite(one_step<kvaerno3>(system, {1e4}, y, 0.5, 1e-8, direct, y_new)));
    CHECK(direct.failure == step_failure::newton_divergence);
    CHECK(!std::isfinite(one_step<kvaerno3_gmres>(system, {1e4}, y, 0.5, 1e-8, gmres, y_new)));
    CHECK(gmres.failure == step_failure::newton_divergence);
    CHECK(
        !std::isfinite(one_step<kvaerno3_bicgstab>(system, {1e4}, y, 0.5, 1e-8, bicgstab, y_new)));
    CHECK(bicgstab.failure == step_failure::newton_divergence);
    CHECK(y_new[0] == 1);
}
