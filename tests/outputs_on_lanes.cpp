// Saves and summaries of an explicit method with the state dealt out over lanes
// (loop/lane_system.hpp): each lane saves and summarises its own components and its share of
// the observables, which every lane evaluates from the whole state. A Lorenz 96 ring of 32
// sites with three observables that read across lanes (the energy, a product of the first
// and last sites, the forcing times one site), on 4, 8 and 32 lanes: on 8 and 32 lanes most
// lanes hold no observable. On the host, teams of host threads stand in for a tile's lanes
// (support/host_team.hpp): with fixed steps every saved and summarised value is one thread's
// bit for bit; adaptive steps differ only through the error norm's order of summation. On
// the device, the solver's tiles against one thread per trajectory, both against a double
// reference (explicit_on_lanes.cpp says why float kernels part at the tolerance's level).

#include <doctest/doctest.h>

#include <cuda/std/array>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/batch/output_plan.hpp"
#include "cubie/catalogue/lorenz96.hpp"
#include "cubie/catalogue/pleiades.hpp"
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

/// Lorenz 96 (32 sites) with observables that read sites other lanes hold.
template <class T>
struct watched_ring : catalogue::lorenz96<T> {
    static constexpr int n_observables = 3;
    static constexpr cuda::std::array<const char*, 3> observable_names{"energy", "x0_x31",
                                                                       "forced_x5"};
    CUBIE_HD void observables(T, const state_t<watched_ring>& y,
                              const parameters_t<watched_ring>& p, const drivers_t<watched_ring>&,
                              observables_t<watched_ring>& out) const {
        T energy(0);
        for (int i = 0; i < 32; ++i) energy += y[i] * y[i];
        out[0] = energy / 2;
        out[1] = y[0] * y[31];
        out[2] = p[0] * y[5];
    }
};

using ring_metrics = summaries<metrics::mean, metrics::extrema, metrics::dxdt_extrema>;
template <class Controller>
solve_settings<Controller> ring_settings(double tol) {
    solve_settings<Controller> s;
    s.t_end = 2;
    s.dt = 1.0 / 128;
    s.atol = s.rtol = {tol};
    s.save_every = 0.125;
    s.sample_summaries_every = 1.0 / 32;
    s.summarise_every = 0.5;
    return s;
}

/// The ring from its equilibrium, one site pushed (and forcing 8: chaotic in time).
template <class S>
state_t<S> pushed() {
    state_t<S> y = S::default_state;
    y[3] += typename S::value_type(1);
    return y;
}

}  // namespace

#if !defined(__CUDACC__)
namespace {

/// One trajectory's saved and summarised values, [row] each.
struct recorded {
    std::vector<double> saved, summaries;
    status result = status::success;
};

/// The outputs' plan for settings s, bound to a new recorded's arrays (NaN-free -1 at first).
template <class S, class Controller, class... Outputs>
recorded arrays_for(output_plan<S, Controller, Outputs...>& plan) {
    using layout = output_layout<S, Outputs...>;
    recorded r;
    r.saved.assign(plan.targets.saves.count() * std::size_t(plan.targets.rows_per_save), -1.0);
    if constexpr (layout::summarises)
        r.summaries.assign(
            std::size_t(plan.targets.n_windows) * std::size_t(layout::windows_type::rows), -1.0);
    plan.targets.bind({r.saved.data(), nullptr, r.summaries.data()}, 1, 1);
    return r;
}

/// The recorder of Controller's schedule over `targets`.
template <class Controller, class S, class... Outputs>
auto recorder_for(const output_targets<S, Outputs...>& targets, std::uint32_t fixed_steps) {
    if constexpr (Controller::adaptive)
        return output_recorder<output_schedule::by_time, S, Outputs...>(targets, 0);
    else
        return output_recorder<output_schedule::by_step, S, Outputs...>(targets, 0, fixed_steps);
}

/// One trajectory of S from y0 with parameters p, recording Outputs, on one thread.
template <class Algorithm, class Controller, class S, class... Outputs>
recorded on_one_thread(const solve_settings<Controller>& s, state_t<S> y,
                       const parameters_t<S>& p) {
    auto plan = make_output_plan<S, Controller, Outputs...>(s);
    recorded r = arrays_for(plan);
    const auto settings = make_integration_settings<Algorithm, Controller, S>(s);
    step_counters counters{};
    auto recorder = recorder_for<Controller>(plan.targets, settings.fixed_steps);
    r.result = integrate<Algorithm, Controller>(S{}, settings, y, p, counters, recorder);
    return r;
}

/// The same trajectory with the state dealt out over a team of G host threads, every lane
/// recording into the same arrays through its own targets.
template <int G, class Algorithm, class Controller, class S, class... Outputs>
recorded on_team(const solve_settings<Controller>& s, const state_t<S>& y0,
                 const parameters_t<S>& p) {
    using shared = lane_system<S, host_team<G>>;
    auto plan = make_output_plan<S, Controller, Outputs...>(s);
    recorded r = arrays_for(plan);
    const auto settings = make_integration_settings<Algorithm, Controller, S>(s);
    std::vector<double> whole(shared::slots * G);
    std::vector<status> results(G);
    run_team<G>([&](host_team<G> team) {
        const int lane = team.lane();
        const shared sys{S{}, whole.data()};
        state_t<shared> y{};
        for (int m = 0; m < shared::slots; ++m) {
            const int v = shared::component(lane, m);
            if (v < S::n_states) y[m] = y0[v];
        }
        const auto targets = lane_targets<shared>(plan.targets, lane);
        auto recorder = recorder_for<Controller>(targets, settings.fixed_steps);
        step_counters counters{};
        results[std::size_t(lane)] = integrate<Algorithm, Controller>(
            sys, lane_settings<host_team<G>, Algorithm>(settings, lane), y, p, counters, recorder);
    });
    r.result = results[0];
    for (status lane_result : results) CHECK(lane_result == r.result);
    return r;
}

/// The ring with every output, on one thread and on G lanes.
template <class Algorithm, class Controller>
recorded ring_on_one_thread(const solve_settings<Controller>& s) {
    using S = watched_ring<double>;
    return on_one_thread<Algorithm, Controller, S, save_state, save_observables, ring_metrics>(
        s, pushed<S>(), {8.0});
}
template <int G, class Algorithm, class Controller>
recorded ring_on_team(const solve_settings<Controller>& s) {
    using S = watched_ring<double>;
    return on_team<G, Algorithm, Controller, S, save_state, save_observables, ring_metrics>(
        s, pushed<S>(), {8.0});
}

/// Every value recorded within `tolerance` of `one`'s relative to its size (0: the same
/// bits), and none left unwritten.
void check_same(const std::vector<double>& lanes, const std::vector<double>& one,
                double tolerance) {
    REQUIRE(lanes.size() == one.size());
    for (std::size_t k = 0; k < one.size(); ++k) {
        CAPTURE(k);
        REQUIRE(std::isfinite(one[k]));
        if (tolerance == 0)
            CHECK(std::memcmp(&lanes[k], &one[k], sizeof(double)) == 0);
        else
            CHECK(std::fabs(lanes[k] - one[k]) <= tolerance * (1 + std::fabs(one[k])));
    }
}

}  // namespace

TEST_CASE("saves and summaries on 4, 8 and 32 lanes: one thread's bits with fixed steps") {
    const auto s = ring_settings<fixed_step>(0);
    const recorded one = ring_on_one_thread<classical_rk4>(s);
    REQUIRE(one.result == status::success);
    REQUIRE(one.saved.size() == 16 * 35);      // 16 saves of 32 states and 3 observables
    REQUIRE(one.summaries.size() == 4 * 175);  // 4 windows of 5 outputs of 35 variables
    const auto check = [&](const recorded& lanes) {
        CHECK(lanes.result == status::success);
        check_same(lanes.saved, one.saved, 0);
        check_same(lanes.summaries, one.summaries, 0);
    };
    check(ring_on_team<4, classical_rk4>(s));
    check(ring_on_team<8, classical_rk4>(s));
    check(ring_on_team<32, classical_rk4>(s));
}

TEST_CASE("saves and summaries on 8 lanes, adaptive: within a tenth of the tolerance") {
    // Forcing 8 is chaotic, but to t = 2 the two norms' orders of summation stay close.
    const double tol = 1e-9;
    const auto s = ring_settings<pi_controller>(tol);
    const recorded one = ring_on_one_thread<tsit5>(s);
    REQUIRE(one.result == status::success);
    const recorded lanes = ring_on_team<8, tsit5>(s);
    CHECK(lanes.result == status::success);
    check_same(lanes.saved, one.saved, tol / 10);
    check_same(lanes.summaries, one.summaries, tol / 10);
}

TEST_CASE("fixed steps in runs on 8 lanes, slots past the last state: one thread's bits") {
    // Pleiades' 28 states on 8 lanes leave the last 4 slots empty. Without observables,
    // summary samples a step apart are taken in runs, in pairs.
    using P = catalogue::pleiades<double>;
    solve_settings<fixed_step> s;
    s.t_end = 1;
    s.dt = 1.0 / 256;
    s.save_every = 1.0 / 16;
    s.sample_summaries_every = 1.0 / 256;
    s.summarise_every = 0.25;
    using mean_extrema = summaries<metrics::mean, metrics::extrema>;
    static_assert(output_recorder<output_schedule::by_step, lane_system<P, host_team<8>>,
                                  save_state, mean_extrema>::samples_in_runs);
    const recorded one = on_one_thread<classical_rk4, fixed_step, P, save_state, mean_extrema>(
        s, P::default_state, P::default_parameters);
    REQUIRE(one.result == status::success);
    REQUIRE(one.saved.size() == 16 * 28);
    REQUIRE(one.summaries.size() == 4 * 3 * 28);
    const recorded lanes = on_team<8, classical_rk4, fixed_step, P, save_state, mean_extrema>(
        s, P::default_state, P::default_parameters);
    CHECK(lanes.result == status::success);
    check_same(lanes.saved, one.saved, 0);
    check_same(lanes.summaries, one.summaries, 0);
}

TEST_CASE("states saved alone on lanes from a system with observables") {
    // The lane's share of the observables is there, but nothing summarises or saves them;
    // the saves are taken in runs.
    using S = watched_ring<double>;
    static_assert(output_recorder<output_schedule::by_step, lane_system<S, host_team<8>>,
                                  save_state>::saves_in_runs);
    solve_settings<fixed_step> s = ring_settings<fixed_step>(0);
    s.sample_summaries_every = s.summarise_every = 0;
    const recorded one =
        on_one_thread<classical_rk4, fixed_step, S, save_state>(s, pushed<S>(), {8.0});
    REQUIRE(one.saved.size() == 16 * 32);
    check_same(on_team<8, classical_rk4, fixed_step, S, save_state>(s, pushed<S>(), {8.0}).saved,
               one.saved, 0);
}

TEST_CASE("a lane's summary rows: its states, then its observables, none past the last") {
    using rows = dealt_out_rows<28, 3, host_team<8>>;
    static_assert(rows::state_slots == 4 && rows::observable_slots == 1 && rows::held == 5);
    static_assert(rows::variables == 31);
    std::vector<std::vector<int>> of(8);
    run_team<8>([&](host_team<8> team) {
        for (int v = 0; v < rows::held; ++v) of[std::size_t(team.lane())].push_back(rows::of(v));
    });
    CHECK(of[0] == std::vector<int>{0, 8, 16, 24, 28});
    CHECK(of[2] == std::vector<int>{2, 10, 18, 26, 30});
    CHECK(of[3] == std::vector<int>{3, 11, 19, 27, -1});
    CHECK(of[4] == std::vector<int>{4, 12, 20, -1, -1});
    CHECK(of[7] == std::vector<int>{7, 15, 23, -1, -1});
}
#endif

#if defined(__CUDACC__)
namespace {
/// A sweep of the ring's forcing over [1, 4] (and one NaN), saved and summarised.
template <class T, class Algorithm, class Backend>
batch_result<T> ring_sweep(double tol, const Backend& backend) {
    using S = watched_ring<T>;
    const std::size_t n = 1000;
    std::vector<T> states(S::n_states * n), forcing(n);
    for (std::size_t k = 0; k < n; ++k) {
        forcing[k] = k == 500 ? T(std::nan("")) : T(1 + 3.0 * double(k) / double(n));
        const state_t<S> y = pushed<S>();
        for (int v = 0; v < S::n_states; ++v) states[std::size_t(v) * n + k] = y[v];
    }
    return solver<S, Algorithm, pi_controller, save_state, save_observables, ring_metrics>{}.solve(
        {n, states, forcing}, ring_settings<pi_controller>(tol), backend);
}

/// The largest difference from `exact` relative to its size, over its finite values.
double error(const host_array<float>& values, const host_array<double>& exact) {
    REQUIRE(values.size() == exact.size());
    double worst = 0;
    for (std::size_t k = 0; k < values.size(); ++k)
        if (std::isfinite(exact[k]))
            worst = std::max(worst, std::fabs(values[k] - exact[k]) / (1 + std::fabs(exact[k])));
    return worst;
}
}  // namespace

TEST_CASE("cuda: saves and summaries on 4, 8 and 32 lanes as accurate as one thread") {
    // Left to the automatic mapping, this solve keeps 29 values per state (Tsit5's 11, its 7
    // dense stages, 11 of the summaries' running states and history) over 32 states: 4
    // lanes of 8 slots.
    using automatic = solver<watched_ring<float>, tsit5, pi_controller, save_state,
                             save_observables, ring_metrics>;
    static_assert(automatic::recorded_values == 18);
    static_assert(std::is_same_v<automatic::mapped_method, on_lanes<tsit5, 4>>);
    const batch_result<float> one = ring_sweep<float, on_lanes<tsit5, 1>>(1e-5, backends::cuda{});
    const batch_result<double> reference = ring_sweep<double, tsit5>(1e-10, backends::host{});
    // From x = 8, far from these forcings' equilibria, float at 1e-5 parts from the double
    // solution by 4e-3 by t = 2 (saves), and the slopes' extrema, differences over two
    // sample intervals, by 1e-2 (on an H200 and on the host alike).
    const double saves_error = error(one.saved, reference.saved);
    const double summaries_error = error(one.summaries, reference.summaries);
    CHECK(saves_error < 1e-2);
    CHECK(summaries_error < 2e-2);
    const batch_result<float> automatic_lanes = ring_sweep<float, tsit5>(1e-5, backends::cuda{});
    REQUIRE(automatic_lanes.kernel.has_value());
    CHECK(automatic_lanes.kernel->lanes_per_trajectory == 4);
    for (const batch_result<float>& lanes :
         {automatic_lanes, ring_sweep<float, on_lanes<tsit5, 8>>(1e-5, backends::cuda{}),
          ring_sweep<float, on_lanes<tsit5, 32>>(1e-5, backends::cuda{.block_size = 64})}) {
        REQUIRE(lanes.kernel.has_value());
        // 4 lanes keep 8 slots of 29 values: 16 bytes of local memory on sm_90.
        if (lanes.kernel->lanes_per_trajectory >= 8) CHECK(lanes.kernel->local_bytes == 0);
        CHECK(lanes.statuses == one.statuses);
        CHECK(lanes.statuses[500] == status::nonfinite_input);
        CHECK(error(lanes.saved, reference.saved) <= 2 * saves_error);
        CHECK(error(lanes.summaries, reference.summaries) <= 2 * summaries_error);
        // The NaN trajectory: its saves never reached are NaN, its windows never complete.
        CHECK(std::isnan(lanes.saved[500]));
        CHECK(std::isnan(lanes.summaries[500]));
    }
}
#endif
