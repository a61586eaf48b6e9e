// Explicit methods with the state dealt out over lanes (loop/lane_system.hpp) against one
// thread. On the host, teams of host threads stand in for a tile's lanes
// (support/host_team.hpp): fixed steps give one thread's bits (the lanes' derivatives are
// rhs's, component by component, and a step's arithmetic is per component); adaptive steps
// differ only through the error norm's order of summation. Lorenz 96 (32 sites) on 4 and
// 32 lanes, and Pleiades (28 states) on 8 lanes, 4 slots of them past the last state. On
// the device, the solver's tiles against one thread per trajectory, both against a double
// reference: ptxas fuses multiply-adds by the code around them, so the two kernels round a
// step's arithmetic differently too, and float solutions then part at the tolerance's level.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/dormand_prince_853.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/catalogue/lorenz96.hpp"
#include "cubie/catalogue/pleiades.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/loop/integrate.hpp"
#include "cubie/loop/lane_system.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "support/host_team.hpp"

using namespace cubie;
using namespace cubie::testing;

namespace {

template <class S>
struct outcome {
    state_t<S> y{};
    status result = status::success;
    step_counters counters{};
};

/// Lorenz 96 from its equilibrium, one site pushed; Pleiades from its Bari start.
template <class S>
state_t<S> start() {
    state_t<S> y = S::default_state;
    if constexpr (S::n_states == catalogue::lorenz96<typename S::value_type>::n_states &&
                  S::n_parameters == 1)
        y[3] += typename S::value_type(1);
    return y;
}

template <class Algorithm, class Controller, class S>
integration_settings<Algorithm, Controller, S> settings_for(double t_end, double tol) {
    solve_settings<Controller> s;
    s.t_end = t_end;
    s.dt = t_end / 256;
    s.atol = s.rtol = {tol};
    return make_integration_settings<Algorithm, Controller, S>(s);
}

template <class Algorithm, class Controller, class S>
outcome<S> alone(const integration_settings<Algorithm, Controller, S>& s, state_t<S> y,
                 const parameters_t<S>& p) {
    outcome<S> o;
    o.result = integrate<Algorithm, Controller>(S{}, s, y, p, o.counters);
    o.y = y;
    return o;
}

#if !defined(__CUDACC__)
/// The same integration with the state dealt out over a team of G host threads: the
/// components each lane ends with, and every lane's status and counts.
template <int G, class Algorithm, class Controller, class S>
std::vector<outcome<S>> on_team(const integration_settings<Algorithm, Controller, S>& s,
                                const state_t<S>& y0, const parameters_t<S>& p) {
    using shared = lane_system<S, host_team<G>>;
    std::vector<outcome<S>> lanes(G);
    std::vector<typename S::value_type> whole(shared::slots * G);
    run_team<G>([&](host_team<G> team) {
        const int lane = team.lane();
        const shared sys{S{}, whole.data()};
        state_t<shared> y{};
        for (int m = 0; m < shared::slots; ++m)
            if (shared::component(lane, m) < S::n_states) y[m] = y0[shared::component(lane, m)];
        outcome<S>& mine = lanes[static_cast<std::size_t>(lane)];
        mine.result = integrate<Algorithm, Controller>(
            sys, lane_settings<host_team<G>, Algorithm>(s, lane), y, p, mine.counters);
        for (int m = 0; m < shared::slots; ++m)
            if (shared::component(lane, m) < S::n_states) mine.y[shared::component(lane, m)] = y[m];
    });
    return lanes;
}

/// Every lane's status and counts are one thread's, and its components are within
/// `tolerance` of one thread's relative to their size (0: the same bits).
template <int G, class Algorithm, class Controller, class S>
void check_team(const integration_settings<Algorithm, Controller, S>& s, const parameters_t<S>& p,
                double tolerance) {
    const outcome<S> one = alone(s, start<S>(), p);
    REQUIRE(one.result == status::success);
    REQUIRE(one.counters.accepted > 10);
    const std::vector<outcome<S>> lanes = on_team<G>(s, start<S>(), p);
    using shared = lane_system<S, host_team<G>>;
    for (int lane = 0; lane < G; ++lane) {
        CAPTURE(lane);
        const outcome<S>& o = lanes[static_cast<std::size_t>(lane)];
        CHECK(o.result == one.result);
        CHECK(o.counters.accepted == one.counters.accepted);
        CHECK(o.counters.rejected == one.counters.rejected);
        for (int m = 0; m < shared::slots; ++m) {
            const int v = shared::component(lane, m);
            if (v >= S::n_states) continue;
            CAPTURE(v);
            if (tolerance == 0)
                CHECK(std::memcmp(&o.y[v], &one.y[v], sizeof(one.y[v])) == 0);
            else
                CHECK(std::fabs(double(o.y[v]) - double(one.y[v])) <=
                      tolerance * (1 + std::fabs(double(one.y[v]))));
        }
    }
}
#endif

}  // namespace

#if !defined(__CUDACC__)
TEST_CASE_TEMPLATE("rk4 with fixed steps on 4 and 32 lanes: Lorenz 96 bit for bit", T, float,
                   double) {
    using S = catalogue::lorenz96<T>;
    const auto s = settings_for<classical_rk4, fixed_step, S>(2.0, 0);
    check_team<4>(s, {T(8)}, 0);
    check_team<32>(s, {T(8)}, 0);
}

TEST_CASE_TEMPLATE("tsit5 and dop853 on lanes: adaptive, within a tenth of the tolerance", T, float,
                   double) {
    const double tol = sizeof(T) == 4 ? 1e-5 : 1e-9;
    // Forcing 4, short of chaos: at 8, float's rounding of two step sequences that differ in
    // their last bits grows to 1.6e-4 by t = 1 (tsit5 at 1e-5, 40 steps alike).
    using L = catalogue::lorenz96<T>;
    check_team<4>(settings_for<tsit5, pi_controller, L>(1.0, tol), {T(4)}, tol / 10);
    check_team<32>(settings_for<dormand_prince_853, pi_controller, L>(1.0, tol), {T(4)}, tol / 10);
    // Pleiades' 28 states on 8 lanes: the last 4 slots hold no state.
    using P = catalogue::pleiades<T>;
    check_team<8>(settings_for<tsit5, pi_controller, P>(1.0, tol), P::default_parameters, tol / 10);
}

TEST_CASE("a trajectory that fails on lanes ends alike on every lane") {
    using S = catalogue::lorenz96<double>;
    const auto s = settings_for<tsit5, pi_controller, S>(2.0, 1e-8);
    state_t<S> nan_start = start<S>();
    nan_start[17] = std::nan("");  // one lane's component
    for (const outcome<S>& o : on_team<8>(s, nan_start, {8.0}))
        CHECK(o.result == status::nonfinite_input);
    // Too few steps allowed: the lanes end with the same failure, at the same step.
    auto few = s;
    few.max_steps = 10;
    const outcome<S> one = alone(few, start<S>(), {8.0});
    REQUIRE(one.result == status::max_steps_exceeded);
    for (const outcome<S>& o : on_team<8>(few, start<S>(), {8.0})) {
        CHECK(o.result == one.result);
        CHECK(o.counters.accepted + o.counters.rejected == 10);
    }
}
#endif

namespace {
/// 64 states decaying on their own, with a component form: large enough for the automatic
/// mapping to deal Tsit5's state out.
template <class T>
struct decay64 {
    using value_type = T;
    static constexpr int n_states = 64, n_parameters = 0, n_observables = 0, n_drivers = 0;
    void rhs(T, const state_t<decay64>& y, const parameters_t<decay64>&, const drivers_t<decay64>&,
             state_t<decay64>& dydt) const {
        for (int i = 0; i < n_states; ++i) dydt[i] = -y[i];
    }
    template <class State>
    T rhs_at(int i, T, const State& y, const parameters_t<decay64>&,
             const drivers_t<decay64>&) const {
        return -y[i];
    }
};
}  // namespace

TEST_CASE("the automatic mapping deals the state out for larger systems, over the fewest lanes") {
    static_assert(has_rhs_at<decay64<float>> && has_rhs_at<catalogue::lorenz96<float>>);
    // 64 states of Tsit5 keep 704 values: dealt out over 4 lanes of 16 slots (176 values each).
    static_assert(std::is_same_v<mapped_algorithm<decay64<float>, tsit5>, on_lanes<tsit5, 4>>);
    static_assert(std::is_same_v<mapped_algorithm<decay64<float>, tsit5, false>, tsit5>);
    static_assert(std::is_same_v<mapped_algorithm<decay64<float>, on_lanes<tsit5, 8>, false>,
                                 on_lanes<tsit5, 8>>);
    static_assert(std::is_same_v<mapped_algorithm<catalogue::lorenz96<float>, tsit5>, tsit5>);
    // 64 states of RK4 (4 stages) keep 512 values, where one thread ran faster.
    static_assert(state_vectors_of<classical_rk4>() == 8 && state_vectors_of<tsit5>() == 11);
    static_assert(std::is_same_v<mapped_algorithm<decay64<float>, classical_rk4>, classical_rk4>);
    // In double each value counts twice: 8 lanes of 8 slots (176 values), where 4 lanes of 16
    // would keep 352.
    static_assert(std::is_same_v<mapped_algorithm<decay64<double>, tsit5>, on_lanes<tsit5, 8>>);
    CHECK(dealt_out_past_values == 640);
    CHECK(dealt_out_lane_values == 320);
    // The tile: the fewest lanes from 4 whose slots keep at most 320 values, else 32.
    CHECK(dealt_out_lanes(64, 10) == 1);
    CHECK(dealt_out_lanes(65, 10) == 4);
    CHECK(dealt_out_lanes(128, 10) == 4);
    CHECK(dealt_out_lanes(129, 10) == 8);
    CHECK(dealt_out_lanes(128, 48) == 32);
    CHECK(dealt_out_lanes(1024, 48) == 32);  // more than a lane keeps: a warp all the same
}

TEST_CASE("a solver counts what its recording keeps in its mapping") {
    using L = catalogue::lorenz96<float>;  // 32 sites
    using mean_extrema = summaries<metrics::mean, metrics::extrema>;
    // Final states alone: 32 x 11 = 352 values, one thread.
    using alone = solver<L, tsit5, pi_controller>;
    static_assert(alone::recorded_values == 0 && std::is_same_v<alone::mapped_method, tsit5>);
    // Saves interpolated from Tsit5's 7 dense stages: 32 x 18 = 576, still one thread.
    using saving = solver<L, tsit5, pi_controller, save_state>;
    static_assert(saving::recorded_values == 7 && std::is_same_v<saving::mapped_method, tsit5>);
    // Summaries add their running states (a mean's compensated sum, pending sample and count;
    // the extrema's two): 32 x 24 = 768, dealt out over 4 lanes of 8 slots.
    using summarising = solver<L, tsit5, pi_controller, mean_extrema>;
    static_assert(summarising::recorded_values == 13);
    static_assert(std::is_same_v<summarising::mapped_method, on_lanes<tsit5, 4>>);
    // With fixed steps nothing is interpolated: RK4 keeps 32 x 14 = 448, one thread.
    using fixed = solver<L, classical_rk4, fixed_step, mean_extrema>;
    static_assert(fixed::recorded_values == 6 &&
                  std::is_same_v<fixed::mapped_method, classical_rk4>);
    // A mapping named is taken as it is.
    using by_name = solver<L, on_lanes<tsit5, 8>, pi_controller, mean_extrema>;
    static_assert(std::is_same_v<by_name::mapped_method, on_lanes<tsit5, 8>>);
    CHECK(summarising::recorded_values == 13);
}

TEST_CASE("on_lanes<Method, 1> is the method itself, saving from dense output included") {
    // Radau IIA 5 and Tsit5 hand their dense stages back through on_lanes' steps.
    using S = catalogue::van_der_pol<double>;
    solve_settings<pi_controller> s;
    s.t_end = 2;
    s.dt = 0.01;
    s.atol = s.rtol = {1e-7};
    s.save_every = 0.25;
    const std::vector<double> y0{2, 2, 0, 0}, mu{1, 10};
    const auto same = [&](auto plain, auto one_lane) {
        const batch_result<double> a = plain.solve({2, y0, mu}, s, backends::host{});
        const batch_result<double> b = one_lane.solve({2, y0, mu}, s, backends::host{});
        REQUIRE(a.n_saves() >= 8);
        CHECK(a.saved == b.saved);
        CHECK(a.final_states == b.final_states);
    };
    same(solver<S, radau_iia_5, pi_controller, save_state>{},
         solver<S, on_lanes<radau_iia_5, 1>, pi_controller, save_state>{});
    same(solver<S, tsit5, pi_controller, save_state>{},
         solver<S, on_lanes<tsit5, 1>, pi_controller, save_state>{});
}

TEST_CASE("on_lanes takes explicit methods: the state dealt out, the host unchanged") {
    static_assert(deals_out_state<on_lanes<tsit5, 32>>);
    static_assert(!deals_out_state<on_lanes<tsit5, 1>> && !deals_out_state<tsit5>);
    static_assert(has_rhs_at<catalogue::lorenz96<float>>);
    using task = trajectory_task<on_lanes<tsit5, 8>, pi_controller, catalogue::pleiades<float>>;
    static_assert(task::shared_values == 32 && task::lanes == 8);
    // The host backend integrates each trajectory on one thread whatever the mapping.
    using S = catalogue::lorenz96<double>;
    solve_settings<pi_controller> s;
    s.t_end = 1;
    s.dt = 1.0 / 256;
    s.atol = s.rtol = {1e-8};
    std::vector<double> y0, forcing;
    for (int k = 0; k < 5; ++k) {
        const state_t<S> y = start<S>();
        y0.insert(y0.end(), y.begin(), y.end());
        forcing.push_back(6 + k);
    }
    std::vector<double> states(y0.size());  // [state][trajectory]
    for (int k = 0; k < 5; ++k)
        for (int v = 0; v < S::n_states; ++v)
            states[std::size_t(v) * 5 + k] = y0[std::size_t(k) * S::n_states + v];
    const batch_result<double> lanes = solver<S, on_lanes<tsit5, 32>, pi_controller>{}.solve(
        {5, states, forcing}, s, backends::host{});
    const batch_result<double> one =
        solver<S, tsit5, pi_controller>{}.solve({5, states, forcing}, s, backends::host{});
    CHECK(lanes.final_states == one.final_states);
    CHECK(lanes.accepted_steps == one.accepted_steps);
}

#if defined(__CUDACC__)
namespace {
/// A sweep of Lorenz 96's forcing over [1, 4], short of chaos (and one NaN), solved with
/// Algorithm at tolerance `tol`, saving the states and counters every 0.1.
template <class T, class Algorithm, class Backend>
batch_result<T> lorenz96_sweep(double tol, const Backend& backend) {
    using S = catalogue::lorenz96<T>;
    const std::size_t n = 1000;
    std::vector<T> states(S::n_states * n), forcing(n);
    for (std::size_t k = 0; k < n; ++k) {
        forcing[k] = k == 500 ? T(std::nan("")) : T(1 + 3.0 * double(k) / double(n));
        const state_t<S> y = start<S>();
        for (int v = 0; v < S::n_states; ++v) states[std::size_t(v) * n + k] = y[v];
    }
    solve_settings<pi_controller> s;
    s.t_end = 1;
    s.dt = 1.0 / 256;
    s.atol = s.rtol = {tol};
    s.save_every = 0.1;
    return solver<S, Algorithm, pi_controller, save_state, save_counters>{}.solve(
        {n, states, forcing}, s, backend);
}

template <class Algorithm>
batch_result<float> on_device(int block_size = 0) {
    return lorenz96_sweep<float, Algorithm>(1e-5, backends::cuda{.block_size = block_size});
}
}  // namespace

TEST_CASE("cuda: tsit5 on 8 and 32 lanes as accurate as one thread, saves and counters too") {
    // The float solutions differ at the tolerance's level (float's rounding of two step
    // sequences), so each is measured against a double one-thread solve on the host at
    // 1e-10: the lanes' error is at most twice one thread's, at the end and at every save.
    const batch_result<float> one = on_device<tsit5>();
    const batch_result<double> reference = lorenz96_sweep<double, tsit5>(1e-10, backends::host{});
    const auto error = [&](const host_array<float>& values, const host_array<double>& exact) {
        REQUIRE(values.size() == exact.size());
        double worst = 0;
        for (std::size_t k = 0; k < values.size(); ++k)
            if (std::isfinite(exact[k]))
                worst =
                    std::max(worst, std::fabs(values[k] - exact[k]) / (1 + std::fabs(exact[k])));
        return worst;
    };
    const double one_error = error(one.final_states, reference.final_states);
    const double one_saves_error = error(one.saved, reference.saved);
    CHECK(one_error < 1e-3);
    CHECK(one_saves_error < 1e-3);
    const std::size_t n = one.statuses.size();
    for (const batch_result<float>& lanes :
         {on_device<on_lanes<tsit5, 8>>(), on_device<on_lanes<tsit5, 32>>(64)}) {
        REQUIRE(lanes.kernel.has_value());
        CHECK(lanes.kernel->local_bytes == 0);
        CHECK(lanes.statuses == one.statuses);
        CHECK(lanes.statuses[500] == status::nonfinite_input);
        CHECK(error(lanes.final_states, reference.final_states) <= 2 * one_error);
        CHECK(error(lanes.saved, reference.saved) <= 2 * one_saves_error);
        CHECK(std::isnan(lanes.saved[500]));  // never reached: NaN
        // The counters saved between saves add up to the trajectory's steps.
        for (std::size_t k = 0; k < n; k += 97) {
            std::uint32_t accepted = 0;
            for (std::size_t save = 0; save < lanes.n_saves(); ++save)
                accepted += lanes.saved_counters[save * 2 * n + k];
            CHECK(accepted == lanes.accepted_steps[k]);
        }
    }
}

namespace {
/// Pleiades (28 states: on 8 lanes, the last 4 slots hold none) from its Bari start, the
/// first star's mass over [0.9, 1.1] of its own, saving every 0.1 to t = 1.
template <class T, class Algorithm, class Backend>
batch_result<T> pleiades_sweep(double tol, const Backend& backend) {
    using S = catalogue::pleiades<T>;
    const std::size_t n = 512;
    std::vector<T> states(S::n_states * n), masses(S::n_parameters * n);
    for (std::size_t k = 0; k < n; ++k) {
        for (int v = 0; v < S::n_states; ++v) states[std::size_t(v) * n + k] = S::default_state[v];
        for (int v = 0; v < S::n_parameters; ++v)
            masses[std::size_t(v) * n + k] = S::default_parameters[v];
        masses[k] *= T(0.9 + 0.2 * double(k) / double(n - 1));
    }
    solve_settings<pi_controller> s;
    s.t_end = 1;
    s.dt = 1.0 / 256;
    s.atol = s.rtol = {tol};
    s.save_every = 0.1;
    return solver<S, Algorithm, pi_controller, save_state>{}.solve({n, states, masses}, s, backend);
}
}  // namespace

TEST_CASE("cuda: Pleiades on 8 lanes, 4 slots past the last state, saves as accurate") {
    const batch_result<float> one = pleiades_sweep<float, tsit5>(1e-6, backends::cuda{});
    const batch_result<float> lanes =
        pleiades_sweep<float, on_lanes<tsit5, 8>>(1e-6, backends::cuda{});
    const batch_result<double> reference = pleiades_sweep<double, tsit5>(1e-12, backends::host{});
    const auto error = [&](const host_array<float>& values, const host_array<double>& exact) {
        REQUIRE(values.size() == exact.size());
        double worst = 0;
        for (std::size_t k = 0; k < values.size(); ++k)
            worst = std::max(worst, std::fabs(values[k] - exact[k]) / (1 + std::fabs(exact[k])));
        return worst;
    };
    REQUIRE(lanes.kernel.has_value());
    CHECK(lanes.kernel->lanes_per_trajectory == 8);
    CHECK(lanes.statuses == one.statuses);
    CHECK(std::count(lanes.statuses.begin(), lanes.statuses.end(), status::success) ==
          std::ptrdiff_t(lanes.statuses.size()));
    CHECK(error(one.saved, reference.saved) < 1e-3);
    CHECK(error(lanes.saved, reference.saved) <= 2 * error(one.saved, reference.saved));
    CHECK(error(lanes.final_states, reference.final_states) <=
          2 * error(one.final_states, reference.final_states));
}

TEST_CASE("cuda: a block size past the dealt-out kernel's limit is refused before any work") {
    using tiles_of_32 = on_lanes<tsit5, 32>;
    CHECK_THROWS_WITH_AS(on_device<tiles_of_32>(512),
                         doctest::Contains("backends::cuda::block_size"), std::invalid_argument);
}
#endif
