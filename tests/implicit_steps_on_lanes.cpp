// Rosenbrock and DIRK steps taken by several lanes together (algorithms/on_lanes.hpp)
// against the one-thread step, bit for bit: teams of 2 to 32 host threads stand in for a tile's
// lanes (support/host_team.hpp), on Pollution (20 states: lanes holding 1 to 10 rows, and lanes
// holding none) in float and double: whole integrations, adaptive and with fixed steps, whose
// every step and decision the lanes share.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/dirk/sdirk3.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/catalogue/pollution.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/loop/integrate.hpp"
#include "cubie/solver/solver.hpp"
#include "support/host_team.hpp"

using namespace cubie;
using cubie::testing::host_team;
using cubie::testing::run_team;

namespace {

template <class T>
using pollution = catalogue::pollution<T>;

template <class T>
bool same_bits(const T& a, const T& b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T, class Controller>
solve_settings<Controller> pollution_settings(double tol) {
    solve_settings<Controller> s;
    s.t_end = 60;
    s.dt = 60.0 / 1024;
    s.atol = s.rtol = {tol};
    return s;
}

}  // namespace

// Host threads meet at std::barrier, which device code cannot call: the cuda variant of
// this suite compiles these tests out.
#if !defined(__CUDACC__)
namespace {

/// Algorithm's steps taken by the team of the calling host thread (host_team<G>), which
/// each thread sets before it integrates: a stepper as integrate() takes it.
template <class Algorithm, int G>
struct on_team : Algorithm {
    static thread_local host_team<G> team;

    template <class F, class State, class T = typename F::value_type>
    static void step(const F& f, T t, T dt, const State& y, const State& dydt, State& y_new,
                     State& dydt_new, implicit_step_report& report) {
        Algorithm::step(team, f, t, dt, y, dydt, y_new, dydt_new, report);
    }
    template <class F, class State, int N, class T = typename F::value_type>
    static T step_with_error(const F& f, T t, T dt, const State& y, const State& dydt, State& y_new,
                             State& dydt_new, const tolerances<T, N>& tol,
                             implicit_step_report& report) {
        return Algorithm::step_with_error(team, f, t, dt, y, dydt, y_new, dydt_new, tol, report);
    }
};
template <class Algorithm, int G>
thread_local host_team<G> on_team<Algorithm, G>::team{0, nullptr};

/// What one integration gives: the state, the status and the work counted.
template <class T>
struct outcome {
    state_t<pollution<T>> y{};
    status result = status::success;
    step_counters counters{};

    bool operator==(const outcome& other) const {
        return same_bits(y, other.y) && result == other.result &&
               counters.accepted == other.counters.accepted &&
               counters.rejected == other.counters.rejected &&
               counters.newton_iterations == other.counters.newton_iterations &&
               counters.linear_iterations == other.counters.linear_iterations;
    }
};

template <class Algorithm, class Controller, class T>
outcome<T> integrate_pollution(const solve_settings<Controller>& user, T k1) {
    const auto s = make_integration_settings<Algorithm, Controller, pollution<T>>(user);
    outcome<T> o;
    for (int v = 0; v < pollution<T>::n_states; ++v)
        o.y[v] = T(pollution<double>::default_state[v]);
    const parameters_t<pollution<T>> p{k1};
    o.result = integrate<Algorithm, Controller>(pollution<T>{}, s, o.y, p, o.counters);
    return o;
}

/// Every lane of a G-thread team integrates the trajectory; each lane's outcome must be the
/// one thread's.
template <class Algorithm, int G, class Controller, class T>
void check_team_integration(const solve_settings<Controller>& user, T k1) {
    const outcome<T> alone = integrate_pollution<Algorithm, Controller>(user, k1);
    std::vector<outcome<T>> lanes(G);
    run_team<G>([&](host_team<G> team) {
        on_team<Algorithm, G>::team = team;
        lanes[team.lane()] = integrate_pollution<on_team<Algorithm, G>, Controller>(user, k1);
    });
    for (int lane = 0; lane < G; ++lane) {
        CAPTURE(lane);
        CHECK(lanes[lane] == alone);
    }
}

}  // namespace

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

TEST_CASE_TEMPLATE("kvaerno5 on 4 and 8 lanes, sdirk3 on 8: Newton iterations bit for bit", T,
                   float, double) {
    const auto s = pollution_settings<T, pi_controller>(sizeof(T) == 4 ? 1e-5 : 1e-8);
    for (const double k1 : {0.035, 3.5}) {
        CAPTURE(k1);
        const outcome<T> alone = integrate_pollution<kvaerno5, pi_controller>(s, T(k1));
        REQUIRE(alone.result == status::success);
        REQUIRE(alone.counters.newton_iterations > alone.counters.accepted);
        check_team_integration<kvaerno5, 4>(s, T(k1));
        check_team_integration<kvaerno5, 8>(s, T(k1));
    }
    auto fixed = pollution_settings<T, fixed_step>(0);
    fixed.dt = 60.0 / 128;
    check_team_integration<sdirk3, 8>(fixed, T(0.35));
}

TEST_CASE_TEMPLATE("rosenbrock23 on 4 and 16 lanes: adaptive and fixed steps bit for bit", T, float,
                   double) {
    check_team_integration<rosenbrock23, 4>(pollution_settings<T, pi_controller>(1e-4), T(0.35));
    check_team_integration<rosenbrock23, 16>(pollution_settings<T, pi_controller>(1e-4), T(3.5));
    auto fixed = pollution_settings<T, fixed_step>(0);
    fixed.dt = 60.0 / 256;
    check_team_integration<rosenbrock23, 4>(fixed, T(0.35));
}

#endif

TEST_CASE("mapped_algorithm: cooperative methods on lanes for larger systems, as named") {
    CHECK(automatic_lanes(3) == 1);
    CHECK(automatic_lanes(8) == 1);
    CHECK(automatic_lanes(9) == 4);
    CHECK(automatic_lanes(20) == 4);
    CHECK(automatic_lanes(21) == 8);
    CHECK(automatic_lanes(40) == 8);
    CHECK(automatic_lanes(41) == 16);
    CHECK(automatic_lanes(200) == 32);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, rodas5p>> == 4);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, on_lanes<rodas5p, 1>>> == 1);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, on_lanes<rodas5p, 32>>> == 32);
    // DIRK methods take lanes only when named; methods whose steps one thread takes never.
    CHECK(std::is_same_v<mapped_algorithm<pollution<float>, kvaerno5>, kvaerno5>);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, on_lanes<kvaerno5, 4>>> == 4);
    CHECK(std::is_same_v<mapped_algorithm<pollution<float>, kvaerno5_gmres>, kvaerno5_gmres>);
}

#if defined(__CUDACC__)
namespace {

/// Pollution over k1 in [0.035, 3.5] on the cuda backend with Algorithm, as the solver maps it.
template <class T, class Algorithm>
batch_result<T> pollution_sweep(double tol, int block_size = 0) {
    constexpr std::size_t n = 200;
    std::vector<T> y0, k1;
    for (int v = 0; v < pollution<T>::n_states; ++v)
        for (std::size_t i = 0; i < n; ++i) y0.push_back(T(pollution<double>::default_state[v]));
    for (std::size_t i = 0; i < n; ++i)
        k1.push_back(T(0.035 * std::pow(100.0, double(i) / (n - 1))));
    const solver<pollution<T>, Algorithm, pi_controller> s;
    return s.solve({n, y0, k1}, pollution_settings<T, pi_controller>(tol),
                   backends::cuda{.block_size = block_size});
}

/// The lanes' final states against one thread's: the GPU fuses multiplies and adds as
/// ptxas chooses in each kernel, so the step sizes part after a few steps, and the states
/// agree within the tolerance the controller holds them to.
template <class T, class Lanes, class OneThread = on_lanes<rodas5p, 1>>
void check_against_one_thread(double tol) {
    const batch_result<T> lanes = pollution_sweep<T, Lanes>(tol);
    const batch_result<T> thread = pollution_sweep<T, OneThread>(tol);
    REQUIRE(lanes.kernel.has_value());
    REQUIRE(thread.kernel.has_value());
    CHECK(lanes.kernel->lanes_per_trajectory ==
          lanes_per_trajectory<mapped_algorithm<pollution<T>, Lanes>>);
    CHECK(thread.kernel->lanes_per_trajectory == 1);
    for (std::size_t i = 0; i < lanes.n_trajectories; ++i) {
        CAPTURE(i);
        REQUIRE(lanes.statuses[i] == status::success);
        REQUIRE(thread.statuses[i] == status::success);
        for (int v = 0; v < pollution<T>::n_states; ++v) {
            const double a = lanes.final_state(v, i), b = thread.final_state(v, i);
            CHECK(std::abs(a - b) <= 2 * tol * (1 + std::abs(b)));
        }
    }
}

}  // namespace

TEST_CASE("cuda: rodas5p on 4, 8 and 32 lanes against one thread, within the tolerance") {
    check_against_one_thread<float, rodas5p>(1e-5);               // mapped to 4 lanes
    check_against_one_thread<float, on_lanes<rodas5p, 8>>(1e-5);  // 20 rows: 3, 3, 2, ...
    check_against_one_thread<double, on_lanes<rodas5p, 32>>(1e-8);
}

TEST_CASE("cuda: kvaerno5 on 4 and 8 lanes against one thread, within the tolerance") {
    check_against_one_thread<float, on_lanes<kvaerno5, 4>, on_lanes<kvaerno5, 1>>(1e-5);
    check_against_one_thread<double, on_lanes<kvaerno5, 8>, on_lanes<kvaerno5, 1>>(1e-8);
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
