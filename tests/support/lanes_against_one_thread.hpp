#pragma once
// Pollution integrated by several lanes together (algorithms/on_lanes.hpp) against one
// thread: on the host, teams of host threads standing in for a tile's lanes
// (host_team.hpp), every lane's outcome the one thread's bit for bit; on the device, a
// sweep on the cuda backend, within the tolerance. Pollution's pattern is hidden
// (dense_jacobian), so that one thread factors with row exchanges as the lanes do. The host's
// comparison takes any system's integration too (check_team_against_one_thread).

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/catalogue/pollution.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/loop/integrate.hpp"
#include "cubie/solver/solver.hpp"
#include "cubie/systems/dense_jacobian.hpp"
#include "support/host_team.hpp"

namespace cubie::testing {

template <class T>
using pollution = dense_jacobian<catalogue::pollution<T>>;

template <class T, class Controller>
solve_settings<Controller> pollution_settings(double tol) {
    solve_settings<Controller> s;
    s.t_end = 60;
    s.dt = 60.0 / 1024;
    s.atol = s.rtol = {tol};
    return s;
}

// Host threads meet at std::barrier, which device code cannot call: the cuda variants of
// the suites compile the team tests out.
#if !defined(__CUDACC__)
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

/// What one integration of System gives: the state, the status and the work counted.
template <class System>
struct system_outcome {
    state_t<System> y{};
    status result = status::success;
    step_counters counters{};

    bool operator==(const system_outcome& other) const {
        return std::memcmp(&y, &other.y, sizeof y) == 0 && result == other.result &&
               counters.accepted == other.counters.accepted &&
               counters.rejected == other.counters.rejected &&
               counters.newton_iterations == other.counters.newton_iterations &&
               counters.linear_iterations == other.counters.linear_iterations;
    }
};

template <class T>
using outcome = system_outcome<pollution<T>>;

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

/// One thread's outcome of integrate_with(Algorithm{}) (any system: a system_outcome), which
/// every lane of a G-thread team, calling integrate_with(on_team<Algorithm, G>{}), must give
/// too.
template <class Algorithm, int G, class IntegrateWith>
auto check_team_against_one_thread(const IntegrateWith& integrate_with) {
    using outcome_type = decltype(integrate_with(Algorithm{}));
    const outcome_type alone = integrate_with(Algorithm{});
    std::vector<outcome_type> lanes(G);
    run_team<G>([&](host_team<G> team) {
        on_team<Algorithm, G>::team = team;
        lanes[team.lane()] = integrate_with(on_team<Algorithm, G>{});
    });
    for (int lane = 0; lane < G; ++lane) {
        CAPTURE(lane);
        CHECK(lanes[lane] == alone);
    }
    return alone;
}

/// Every lane of a G-thread team integrates Pollution at k1; each lane's outcome must be the
/// one thread's.
template <class Algorithm, int G, class Controller, class T>
void check_team_integration(const solve_settings<Controller>& user, T k1) {
    check_team_against_one_thread<Algorithm, G>(
        [&]<class Method>(Method) { return integrate_pollution<Method, Controller>(user, k1); });
}

#else
/// Pollution over k1 in [0.035, 3.5] on the cuda backend with Algorithm, as the solver maps it.
template <class T, class Algorithm>
batch_result<T> pollution_sweep(double tol, int block_size = 0,
                                scheduling schedule = scheduling::automatic) {
    constexpr std::size_t n = 200;
    std::vector<T> y0, k1;
    for (int v = 0; v < pollution<T>::n_states; ++v)
        for (std::size_t i = 0; i < n; ++i) y0.push_back(T(pollution<double>::default_state[v]));
    for (std::size_t i = 0; i < n; ++i)
        k1.push_back(T(0.035 * std::pow(100.0, double(i) / (n - 1))));
    const solver<pollution<T>, Algorithm, pi_controller> s;
    return s.solve({n, y0, k1}, pollution_settings<T, pi_controller>(tol),
                   backends::cuda{.block_size = block_size, .scheduling = schedule});
}

/// The lanes' final states against one thread's: the GPU fuses multiplies and adds as
/// ptxas chooses in each kernel, so the step sizes part after a few steps, and the states
/// agree within the tolerance the controller holds them to.
template <class T, class Lanes, class OneThread>
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

#endif

}  // namespace cubie::testing
