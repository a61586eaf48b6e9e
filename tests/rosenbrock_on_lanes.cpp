// Rosenbrock steps taken by several lanes together (algorithms/on_lanes.hpp) against the
// one-thread step (support/lanes_against_one_thread.hpp): on the host bit for bit, with teams
// of 2 to 32 host threads on Pollution (20 states: lanes holding 1 to 10 rows, and lanes
// holding none) in float and double, whole integrations, adaptive and with fixed steps; on
// the device within the tolerance. A singular iteration matrix fails the step on every lane
// (the team's outcome is one thread's), and on the device only its own trajectory. The
// solver's mapping, and the block sizes it takes.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/algorithms/rosenbrock/rodas4.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "support/lanes_against_one_thread.hpp"

using namespace cubie;
using namespace cubie::testing;

namespace {

/// y_i' = p (y_i - 1) for 10 states, whose Jacobian p I the system gives densely (no
/// pattern): W = (1 / (h gamma) - p) I, singular exactly where h gamma p = 1 (rodas4's gamma
/// is 1/4), and y = 1 stays put whatever the steps.
struct relaxations {
    using value_type = double;
    static constexpr int n_states = 10;
    static constexpr int n_parameters = 1;  // p
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;

    CUBIE_HD void rhs(double, const state_t<relaxations>& y, const parameters_t<relaxations>& p,
                      const drivers_t<relaxations>&, state_t<relaxations>& dydt) const {
        for (int i = 0; i < n_states; ++i) dydt[i] = p[0] * (y[i] - 1);
    }
    CUBIE_HD void jacobian(double, const state_t<relaxations>&, const parameters_t<relaxations>& p,
                           const drivers_t<relaxations>&, jacobian_t<relaxations>& J) const {
        for (int i = 0; i < n_states; ++i)
            for (int j = 0; j < n_states; ++j) J[i][j] = i == j ? p[0] : 0.0;
    }
    CUBIE_HD void time_derivative(double, const state_t<relaxations>&,
                                  const parameters_t<relaxations>&, const drivers_t<relaxations>&,
                                  state_t<relaxations>& dfdt) const {
        for (int i = 0; i < n_states; ++i) dfdt[i] = 0;
    }
};

/// h gamma p = 0.5 * 0.25 * 8 = 1: the first step's W is 0. A dt_min of 0.4 leaves no
/// smaller step to retry.
template <class Controller>
solve_settings<Controller> singular_first_step() {
    solve_settings<Controller> s;
    s.t_end = 1;
    s.dt = 0.5;
    s.atol = s.rtol = {1e-8};
    return s;
}

}  // namespace

#if !defined(__CUDACC__)
TEST_CASE_TEMPLATE("rodas5p on 2 to 32 lanes: adaptive Pollution bit for bit", T, float, double) {
    const auto s = pollution_settings<T, pi_controller>(sizeof(T) == 4 ? 1e-5 : 1e-8);
    for (const double k1 : {0.035, 0.35, 3.5}) {
        CAPTURE(k1);
        const outcome<T> alone = integrate_pollution<rodas5p, pi_controller>(s, T(k1));
        REQUIRE(alone.result == status::success);
        REQUIRE(alone.counters.accepted > 10);
        check_team_integration<rodas5p, 2>(s, T(k1));
        check_team_integration<rodas5p, 4>(s, T(k1));
        check_team_integration<rodas5p, 8>(s, T(k1));
    }
    // Lanes that hold no row (20 rows over 32 lanes), on one trajectory.
    check_team_integration<rodas5p, 32>(s, T(0.35));
}

TEST_CASE_TEMPLATE("rosenbrock23 on 4 and 16 lanes: adaptive and fixed steps bit for bit", T, float,
                   double) {
    check_team_integration<rosenbrock23, 4>(pollution_settings<T, pi_controller>(1e-4), T(0.35));
    check_team_integration<rosenbrock23, 16>(pollution_settings<T, pi_controller>(1e-4), T(3.5));
    auto fixed = pollution_settings<T, fixed_step>(0);
    fixed.dt = 60.0 / 256;
    check_team_integration<rosenbrock23, 4>(fixed, T(0.35));
}

/// Trajectory p of relaxations integrated by Algorithm on one thread, and on every lane of a
/// G-thread team: the same state bits, status and counts. Returns one thread's counts.
template <class Algorithm, int G, class Controller>
step_counters check_team_relaxation(const solve_settings<Controller>& user, double p,
                                    status expected) {
    const auto alone = check_team_against_one_thread<Algorithm, G>([&]<class Method>(Method) {
        const auto s = make_integration_settings<Method, Controller, relaxations>(user);
        system_outcome<relaxations> o;
        for (auto& v : o.y) v = 1;
        o.result = integrate<Method, Controller>(relaxations{}, s, o.y, {p}, o.counters);
        return o;
    });
    CHECK(alone.result == expected);
    return alone.counters;
}

TEST_CASE("rodas4 on 4 and 16 lanes: a singular W fails the step on every lane") {
    // Adaptive: the first step is rejected on every lane and retried smaller.
    CHECK(check_team_relaxation<rodas4, 4>(singular_first_step<pi_controller>(), 8, status::success)
              .rejected == 1);
    // No smaller step allowed: the trajectory ends with singular_matrix (lanes 10 to 15 of
    // 16 hold no row).
    auto pinned = singular_first_step<pi_controller>();
    pinned.dt_min = 0.4;
    check_team_relaxation<rodas4, 16>(pinned, 8, status::singular_matrix);
    // Fixed steps: the same, at the first step.
    check_team_relaxation<rodas4, 4>(singular_first_step<fixed_step>(), 8, status::singular_matrix);
}

#endif

TEST_CASE("mapped_algorithm: cooperative methods on lanes for larger dense systems, as named") {
    CHECK(automatic_lanes(3) == 1);
    CHECK(automatic_lanes(8) == 1);
    CHECK(automatic_lanes(9) == 4);
    CHECK(automatic_lanes(20) == 4);
    CHECK(automatic_lanes(21) == 8);
    CHECK(automatic_lanes(40) == 8);
    CHECK(automatic_lanes(41) == 16);
    CHECK(automatic_lanes(200) == 32);
    // pollution<T> here hides the pattern (dense_jacobian); the catalogue's own declares it,
    // and its factors in the pattern fit one thread.
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, rodas5p>> == 4);
    CHECK(std::is_same_v<mapped_algorithm<catalogue::pollution<float>, rodas5p>, rodas5p>);
    CHECK(
        lanes_per_trajectory<mapped_algorithm<catalogue::pollution<float>, on_lanes<rodas5p, 4>>> ==
        4);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, on_lanes<rodas5p, 1>>> == 1);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, on_lanes<rodas5p, 32>>> == 32);
    // DIRK methods take lanes only when named; methods whose steps one thread takes never.
    CHECK(std::is_same_v<mapped_algorithm<pollution<float>, kvaerno5>, kvaerno5>);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, on_lanes<kvaerno5, 4>>> == 4);
    CHECK(std::is_same_v<mapped_algorithm<pollution<float>, kvaerno5_gmres>, kvaerno5_gmres>);
}

#if defined(__CUDACC__)
TEST_CASE("cuda: rodas5p on 4, 8 and 32 lanes against one thread, within the tolerance") {
    using one_thread = on_lanes<rodas5p, 1>;
    check_against_one_thread<float, rodas5p, one_thread>(1e-5);               // mapped to 4 lanes
    check_against_one_thread<float, on_lanes<rodas5p, 8>, one_thread>(1e-5);  // rows: 3, 3, 2
    check_against_one_thread<double, on_lanes<rodas5p, 32>, one_thread>(1e-8);
}

TEST_CASE("cuda: blocks of any whole number of tiles give the same bits") {
    // Blocks of 48 threads (12 tiles of 4; the second warp of each block half full) against
    // the block size the occupancy chooses: the same kernel, the same arithmetic.
    const batch_result<float> chosen = pollution_sweep<float, on_lanes<rodas5p, 4>>(1e-5);
    const batch_result<float> small = pollution_sweep<float, on_lanes<rodas5p, 4>>(1e-5, 48);
    REQUIRE(small.kernel.has_value());
    CHECK(small.kernel->block_size == 48);
    CHECK(std::memcmp(chosen.final_states.data(), small.final_states.data(),
                      chosen.final_states.size() * sizeof(float)) == 0);
    CHECK(chosen.accepted_steps == small.accepted_steps);
}

TEST_CASE("cuda: lanes asked for balanced scheduling go one trajectory per group of lanes") {
    const batch_result<float> chosen = pollution_sweep<float, on_lanes<rodas5p, 4>>(1e-5);
    const batch_result<float> asked =
        pollution_sweep<float, on_lanes<rodas5p, 4>>(1e-5, 0, scheduling::balanced);
    REQUIRE(asked.kernel.has_value());
    CHECK(asked.kernel->scheduling == "static");
    CHECK(asked.kernel->lanes_per_trajectory == 4);
    CHECK(std::memcmp(chosen.final_states.data(), asked.final_states.data(),
                      chosen.final_states.size() * sizeof(float)) == 0);
    CHECK(chosen.accepted_steps == asked.accepted_steps);
}

TEST_CASE("cuda: a singular W on lanes ends its own trajectory only") {
    const solver<relaxations, on_lanes<rodas4, 4>, pi_controller> s;
    constexpr std::size_t n = 100;  // 400 threads: several blocks of several tiles
    std::vector<double> y0(relaxations::n_states * n, 1.0), p(n);
    for (std::size_t i = 0; i < n; ++i) p[i] = i % 7 == 3 ? 8 : -1;
    auto settings = singular_first_step<pi_controller>();
    settings.dt_min = 0.4;
    const batch_result<double> r = s.solve({n, y0, p}, settings, backends::cuda{});
    REQUIRE(r.kernel.has_value());
    CHECK(r.kernel->lanes_per_trajectory == 4);
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        CHECK(r.statuses[i] == (p[i] == 8 ? status::singular_matrix : status::success));
        for (int v = 0; v < relaxations::n_states; ++v) CHECK(r.final_state(v, i) == 1);
    }
}

TEST_CASE("cuda: a block size that splits a trajectory's lanes is refused before any work") {
    const solver<pollution<float>, on_lanes<rodas5p, 32>, pi_controller> s;
    std::vector<float> y0(pollution<float>::n_states, 1.f), k1{0.35f};
    const auto settings = pollution_settings<float, pi_controller>(1e-5);
    batch_result<float> kept = s.solve({1, y0, k1}, settings, backends::cuda{});
    const std::vector<float> before(kept.final_states.begin(), kept.final_states.end());
    for (const int block_size : {48, -32, 2048}) {
        CAPTURE(block_size);
        CHECK_THROWS_WITH_AS(
            s.solve({1, y0, k1}, settings, kept, backends::cuda{.block_size = block_size}),
            doctest::Contains("backends::cuda::block_size"), std::invalid_argument);
        CHECK(std::equal(before.begin(), before.end(), kept.final_states.begin()));
    }
}
#endif
