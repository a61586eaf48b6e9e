// Balanced scheduling (batch/scheduling.hpp) gives every trajectory the results of the static
// mapping bit for bit, failures included, each in its own place: on a divergent Lorenz sweep
// (rho over [0, 200], shuffled so that a warp holds fixed points and chaos) with a NaN
// parameter, an infinite initial state and a max_steps that stops the chaotic trajectories;
// on bouncing balls whose events affect, record and terminate; and streamed into files. On
// the host, where the backend's balanced schedule is OpenMP's, one thread's
// trajectory_task::run_passes is checked against the static mapping directly, on these and
// on trajectories whose step size underflows.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/rosenbrock/ros3p.hpp"
#include "cubie/batch/lane_use.hpp"
#include "cubie/catalogue/pleiades.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/io/npy_result.hpp"
#include "cubie/io/npy_stream.hpp"
#include "support/event_systems.hpp"
#include "support/failing_steps.hpp"
#include "support/file_bytes.hpp"
#include "support/kepler.hpp"
#include "support/recording_sweep.hpp"
#include "support/scratch_directory.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::recording_solver;
using cubie::testing::same_results;
using cubie::testing::test_backend;

namespace {

constexpr std::size_t n = 1000;
constexpr std::size_t nan_rho = 123, infinite_x = 456;

/// rho over [0, 200] in a shuffled order (golden-ratio steps), x0 = (1, 0, 0).
struct divergent_sweep {
    std::vector<double> y0 = std::vector<double>(3 * n, 0.0), rho = std::vector<double>(n);
    divergent_sweep() {
        for (std::size_t i = 0; i < n; ++i) {
            y0[i] = 1;
            const double golden = 0.6180339887498949 * double(i);
            rho[i] = 200 * (golden - std::floor(golden));
        }
        rho[nan_rho] = std::nan("");
        y0[infinite_x] = std::numeric_limits<double>::infinity();
    }
    batch_inputs<double> inputs() const { return {n, y0, rho}; }
};

/// The recording sweep's outputs over [0, 2]; chaotic trajectories need more than max_steps.
solve_settings<pi_controller> settings() {
    auto s = cubie::testing::recording_sweep::settings();
    s.t_end = 2;
    s.atol = s.rtol = {1e-7};
    s.max_steps = 380;  // of 240 to 470 attempts (quartiles 240, 320, 400)
    return s;
}

using ball = cubie::testing::falling_ball<double>;
using bouncing_solver = solver<ball, tsit5, pi_controller, save_state, summaries<metrics::extrema>,
                               events<ball::ground, ball::below, ball::apex>>;

/// Balls dropped from heights over [1, 3] with restitutions over [0.5, 0.95] (golden-ratio
/// steps: their bounces, and so their steps, differ from neighbour to neighbour); every
/// seventh falls through a floor at 0.4 (terminate), every eleventh starts under a floor at
/// 4, which it never crosses (its side of zero taken at t0), one has a NaN restitution.
struct dropped_balls {
    static constexpr std::size_t n = 200, nan_restitution = 57;
    std::vector<double> y0 = std::vector<double>(2 * n, 0.0), p = std::vector<double>(2 * n);
    dropped_balls() {
        for (std::size_t i = 0; i < n; ++i) {
            const double golden = 0.6180339887498949 * double(i);
            const double u = golden - std::floor(golden);
            y0[i] = 1 + 2 * u;
            p[i] = 0.5 + 0.45 * (1 - u);
            p[n + i] = i % 7 == 3 ? 0.4 : i % 11 == 5 ? 4 : -1;
        }
        p[nan_restitution] = std::nan("");
    }
    batch_inputs<double> inputs() const { return {n, y0, p}; }

    static solve_settings<pi_controller> settings() {
        auto s = cubie::testing::event_settings(3, 1e-9, 0.05);
        s.save_every = 0.25;
        s.summarise_every = 1;
        s.sample_summaries_every = 0.05;
        return s;
    }
};

template <class Solver, class Settings>
batch_result<double> solve_with(const Solver& solver, const Settings& settings,
                                scheduling schedule) {
    if constexpr (std::is_same_v<Solver, bouncing_solver>)
        return solver.solve(dropped_balls{}.inputs(), settings,
                            test_backend{.scheduling = schedule});
    else
        return solver.solve(divergent_sweep{}.inputs(), settings,
                            test_backend{.scheduling = schedule});
}

/// automatic and balanced scheduling against static_mapping, bit for bit; the cuda kernel
/// reports name the schedule each went by.
template <class Solver, class Settings>
batch_result<double> check_schedules(const Solver& solver, const Settings& settings,
                                     const char* automatic, const char* balanced) {
    const auto fixed = solve_with(solver, settings, scheduling::static_mapping);
    for (const scheduling s : {scheduling::automatic, scheduling::balanced}) {
        CAPTURE(scheduling_name(s));
        const auto r = solve_with(solver, settings, s);
        CHECK(same_results(fixed, r));
        if (r.kernel)
            CHECK(r.kernel->scheduling ==
                  std::string(s == scheduling::automatic ? automatic : balanced));
    }
    if (fixed.kernel) CHECK(fixed.kernel->scheduling == std::string("static"));
    return fixed;
}

}  // namespace

TEST_CASE("balanced scheduling: a divergent sweep's outputs and failures, bit for bit") {
    const auto r = check_schedules(recording_solver{}, settings(), "static", "balanced");
    CHECK(r.statuses[nan_rho] == status::nonfinite_input);
    CHECK(r.statuses[infinite_x] == status::nonfinite_input);
    std::size_t stopped = 0, solved = 0;
    for (std::size_t i = 0; i < n; ++i) {
        stopped += r.statuses[i] == status::max_steps_exceeded;
        solved += r.statuses[i] == status::success;
    }
    CHECK(stopped > n / 10);  // divergent: both kinds in numbers
    CHECK(solved > n / 2);
    CHECK(stopped + solved == n - 2);
    // Each trajectory as alone in its batch.
    for (const std::size_t i : {std::size_t{0}, std::size_t{1}, nan_rho + 1}) {
        const divergent_sweep s;
        const std::vector<double> y0{s.y0[i], s.y0[n + i], s.y0[2 * n + i]}, rho{s.rho[i]};
        const auto alone = recording_solver{}.solve(
            {1, y0, rho}, settings(), test_backend{.scheduling = scheduling::balanced});
        CAPTURE(i);
        CHECK(alone.statuses[0] == r.statuses[i]);
        CHECK(alone.accepted_steps[0] == r.accepted_steps[i]);
        CHECK(alone.final_state(2, 0) == r.final_state(2, i));
    }
}

TEST_CASE("balanced scheduling: an implicit method's iteration counts, and fixed steps") {
    auto implicit = settings();
    implicit.save_every = implicit.summarise_every = implicit.sample_summaries_every = 0;
    implicit.t_end = 0.5;
    implicit.atol = implicit.rtol = {1e-5};
    const auto r = check_schedules(solver<catalogue::lorenz<double>, ros3p, pi_controller>{},
                                   implicit, "static", "balanced");
    CHECK(r.linear_iterations[0] > 0);

    solve_settings<fixed_step> fixed;
    fixed.t_end = 0.5;
    fixed.dt = 1.0 / 256;
    // Fixed steps, their trajectories all alike, go one per thread whatever is asked.
    check_schedules(solver<catalogue::lorenz<double>, classical_rk4, fixed_step>{}, fixed, "static",
                    "static");
}

TEST_CASE("balanced scheduling: events that affect, record and terminate, bit for bit") {
    const auto r =
        check_schedules(bouncing_solver{}, dropped_balls::settings(), "static", "balanced");
    CHECK(r.statuses[dropped_balls::nan_restitution] == status::nonfinite_input);
    // Those with a floor at 0.4 end there; of the others, those whose bounces accumulate
    // before t = 3 fall through the ground after, and end at -1.
    std::size_t terminated = 0, solved = 0;
    std::uint32_t fewest = ~0u, most = 0;
    for (std::size_t i = 0; i < dropped_balls::n; ++i) {
        if (i % 7 == 3) CHECK(r.statuses[i] == status::terminated_by_event);
        if (i % 11 == 5 && i % 7 != 3) CHECK(r.event_count("below", i) == 0);
        terminated += r.statuses[i] == status::terminated_by_event;
        solved += r.statuses[i] == status::success;
        if (r.statuses[i] != status::success) continue;
        fewest = std::min(fewest, r.event_count("ground", i));
        most = std::max(most, r.event_count("ground", i));
    }
    CHECK(terminated > dropped_balls::n / 7 + 1);
    CHECK(solved > dropped_balls::n / 4);
    CHECK(solved + terminated + 1 == dropped_balls::n);
    CHECK(most >= 2 * fewest);  // divergent: some bounce at least twice as often as others
}

TEST_CASE("balanced scheduling: a streamed solve writes the files of the static one") {
    const cubie::testing::scratch_directory scratch("balanced_streams");
    const recording_solver s;
    const divergent_sweep sweep;
    const auto settings_ = settings();
    write_result_npy(
        s.solve(sweep.inputs(), settings_, test_backend{.scheduling = scheduling::static_mapping}),
        scratch.path() / "static");
    const stream_settings stream{
        static_cast<std::size_t>(s.plan(sweep.inputs(), settings_).result_bytes(n) / 4), false};
    const stream_report report =
        solve_to_npy(s, sweep.inputs(), settings_, scratch.path() / "balanced", stream,
                     test_backend{.scheduling = scheduling::balanced});
    CHECK(report.chunks >= 8);
    for (const auto& entry : std::filesystem::directory_iterator(scratch.path() / "static")) {
        const std::string name = entry.path().filename().string();
        INFO(name);
        CHECK(cubie::testing::file_bytes(entry.path()) ==
              cubie::testing::file_bytes(scratch.path() / "balanced" / name));
    }
}

TEST_CASE("lane use: steps attempted over the lane-steps each warp's busiest lane holds") {
    // Two warps: 32 lanes of 10 steps but one of 40 (accepted and rejected summed), then 8
    // lanes of a last warp cut short, of 1 to 8 steps.
    std::vector<std::uint32_t> accepted(40, 10), rejected(40, 0);
    accepted[7] = 30;
    rejected[7] = 10;
    for (std::size_t i = 32; i < 40; ++i) accepted[i] = std::uint32_t(i - 31);
    const warp_steps s = warps_of(accepted.data(), rejected.data(), accepted.size());
    CHECK(s.attempted == 31 * 10 + 40 + 36);
    CHECK(s.held == 32 * 40 + 8 * 8);
    CHECK(lane_use(s) == doctest::Approx(386.0 / 1344.0));
    CHECK(lane_use(warps_of(accepted.data(), rejected.data(), 0)) == 1.0);
    // Counters near 2^32 add up in 64 bits.
    const std::vector<std::uint32_t> most(2, ~0u);
    CHECK(warps_of(most.data(), most.data(), 2).attempted == 4ull * ~0u);
}

TEST_CASE("lane use: warps start again at every block") {
    // Blocks of 40 threads: warps of 32 and 8 lanes. Each block's first 32 take 10 steps
    // and its last 8 take 20, so every warp's lanes agree; warps of 32 across the blocks
    // would mix them.
    std::vector<std::uint32_t> accepted(120), rejected(120, 0);
    for (std::size_t i = 0; i < accepted.size(); ++i) accepted[i] = i % 40 < 32 ? 10 : 20;
    CHECK(lane_use(warps_of(accepted.data(), rejected.data(), 120, 40)) == 1.0);
    CHECK(lane_use(warps_of(accepted.data(), rejected.data(), 120)) < 0.9);
    // A last block cut short: 100 trajectories are two blocks and 20 threads of a third.
    const warp_steps s = warps_of(accepted.data(), rejected.data(), 100, 40);
    CHECK(s.attempted == 2 * (32 * 10 + 8 * 20) + 20 * 10);
    CHECK(s.held == s.attempted);
}

#if !defined(__CUDACC__)
namespace {

/// One thread's run_passes over the whole batch, taking the trajectories in reverse order,
/// into a copy of the static result marked unsolved (as the solver marks a result before
/// the host backend runs): every array bit for bit as the static mapping wrote it. Returns
/// the static result.
template <class System, class Algorithm, class Controller, class... Outputs>
batch_result<double> check_passes(
    const solver<System, Algorithm, Controller, Outputs...>& s, const batch_inputs<double>& inputs,
    const typename solver<System, Algorithm, Controller, Outputs...>::settings_type& settings) {
    using task_type = trajectory_task<Algorithm, Controller, System, Outputs...>;
    const std::size_t count = inputs.n_trajectories;
    const auto expected =
        s.solve(inputs, settings, backends::host{.scheduling = scheduling::static_mapping});
    batch_result<double> r = expected;
    r.mark_unsolved(0, count);
    task_type task{{},
                   make_integration_settings<Algorithm, Controller, System>(settings),
                   count,
                   s.plan(settings).targets};
    task.bind({inputs.initial_states.data(), inputs.parameters.data(), pointers_into<double>(r, 0)},
              count, count);
    std::size_t asked = 0;
    task.run_passes([&] { return asked < count ? count - 1 - asked++ : count + asked++; },
                    [](bool working) { return working; }, [](bool working) { return working; });
    CHECK(asked == count + 1);  // once a trajectory, and once to hear that none is left
    for_each_result_field(
        [&](const result_field& f, const auto& a, const auto& b) {
            INFO(f.name);
            CHECK(cubie::testing::same_bits(a, b));
        },
        r, expected);
    return expected;
}

}  // namespace

TEST_CASE("trajectory_task::run_passes integrates as integrate() does, wherever it starts") {
    const divergent_sweep sweep;
    auto plain = settings();
    plain.save_every = plain.summarise_every = plain.sample_summaries_every = 0;
    SUBCASE("final states only") {
        check_passes(solver<catalogue::lorenz<double>, tsit5, pi_controller>{}, sweep.inputs(),
                     plain);
    }
    SUBCASE("saves, counters and summaries") {
        check_passes(recording_solver{}, sweep.inputs(), settings());
    }
    SUBCASE("events, saves and summaries") {
        const dropped_balls balls;
        check_passes(bouncing_solver{}, balls.inputs(), dropped_balls::settings());
    }
    SUBCASE("steps that fail: the step size underflows") {
        // y' = -p y^3 from y = 1, p over [-2, 2] in steps of 1/16: y = 1 / sqrt(1 + 2 p t)
        // blows up at t = 1 / (2 |p|) for p < 0, by t_end = 1 where p <= -1/2 (25 of them),
        // and the steps shrink below dt_min on the way.
        constexpr std::size_t count = 65;
        std::vector<double> y0(count, 1.0), p(count);
        for (std::size_t i = 0; i < count; ++i) p[i] = -2 + double(i) / 16;
        solve_settings<pi_controller> s;
        s.atol = s.rtol = {1e-8};
        s.dt = 1e-3;
        s.dt_min = 1e-6;
        const auto r = check_passes(solver<testing::cubic_decay<double>, tsit5, pi_controller>{},
                                    {count, y0, p}, s);
        const auto with = [&](status st) {
            return std::count(r.statuses.begin(), r.statuses.end(), st);
        };
        CHECK(with(status::step_size_underflow) == 25);
        CHECK(with(status::success) == 40);
    }
}
#endif

#if defined(__CUDACC__)
namespace {

/// The current device's attribute `what`.
std::size_t device_attribute(cudaDeviceAttr what) {
    int device = 0, value = 0;
    REQUIRE(cudaGetDevice(&device) == cudaSuccess);
    REQUIRE(cudaDeviceGetAttribute(&value, what, device) == cudaSuccess);
    return std::size_t(value);
}

/// The threads the current device's multiprocessors hold at once, as
/// backends::cuda::chunk_capacity counts a wave.
std::size_t device_wave() {
    return device_attribute(cudaDevAttrMultiProcessorCount) *
           device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
}

/// A batch larger than the balanced kernel's persistent grid (the sweeps above are smaller,
/// and a thread then takes one trajectory), solved with each schedule: the balanced
/// solve's threads take two trajectories each at least, of different lengths, and every
/// array is the static mapping's, bit for bit. Returns the static result.
template <class Solver>
batch_result<double> check_several_per_thread(const Solver& solver,
                                              const batch_inputs<double>& inputs,
                                              const solve_settings<pi_controller>& s) {
    const auto fixed =
        solver.solve(inputs, s, backends::cuda{.scheduling = scheduling::static_mapping});
    const auto balanced =
        solver.solve(inputs, s, backends::cuda{.scheduling = scheduling::balanced});
    REQUIRE(balanced.kernel.has_value());
    CHECK(balanced.kernel->scheduling == std::string("balanced"));
    const std::size_t grid =
        balanced.kernel->blocks * static_cast<std::size_t>(balanced.kernel->block_size);
    CAPTURE(grid);
    CAPTURE(balanced.kernel->chunks);
    CHECK(2 * grid * balanced.kernel->chunks <= inputs.n_trajectories);
    CHECK(same_results(fixed, balanced));
    const auto [fewest, most] =
        std::minmax_element(fixed.accepted_steps.begin(), fixed.accepted_steps.end());
    CHECK(*most > *fewest + 2);  // trajectories of different lengths side by side
    return fixed;
}

}  // namespace

TEST_CASE("cuda: balanced threads that take several trajectories each give the static bits") {
    constexpr std::size_t many = std::size_t{1} << 20;
    std::vector<double> y0(3 * many, 0.0), rho(many);
    for (std::size_t i = 0; i < many; ++i) {
        y0[i] = 1;
        const double golden = 0.6180339887498949 * double(i);
        rho[i] = 200 * (golden - std::floor(golden));
    }
    solve_settings<pi_controller> s;
    s.t_end = 0.05;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-8};
    const solver<catalogue::lorenz<double>, tsit5, pi_controller> lorenz;
    const auto fixed = check_several_per_thread(lorenz, {many, y0, rho}, s);
    // Blocks of 100 threads: each block's last warp has 4 lanes, which meet on their own.
    const auto cut_short = lorenz.solve(
        {many, y0, rho}, s, backends::cuda{.block_size = 100, .scheduling = scheduling::balanced});
    CHECK(cut_short.kernel->block_size == 100);
    CHECK(same_results(fixed, cut_short));
}

// Blocks in lockstep (a barrier a pass, systems of balanced_lockstep_states or more): threads
// whose trajectories ended, or that have none left, still meet their block's barrier. 2^18
// trajectories are two per thread of a persistent grid or more while the kernel needs 66
// registers or more (132 multiprocessors of 65,536); one state of 28 doubles takes 56.
TEST_CASE("cuda: balanced blocks in lockstep give the static bits, a failure included") {
    using pleiades = catalogue::pleiades<double>;
    static_assert(pleiades::n_states >= backends::balanced_lockstep_states);
    constexpr std::size_t many = std::size_t{1} << 18;
    std::vector<double> y0(pleiades::n_states * many), m1(many);
    for (std::size_t i = 0; i < many; ++i) {
        for (int k = 0; k < pleiades::n_states; ++k)
            y0[std::size_t(k) * many + i] = pleiades::default_state[std::size_t(k)];
        const double golden = 0.6180339887498949 * double(i);
        m1[i] = 0.5 + 1.5 * (golden - std::floor(golden));
    }
    m1[many / 3] = std::nan("");
    solve_settings<pi_controller> s;
    s.t_end = 0.5;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-8};
    const solver<pleiades, tsit5, pi_controller> stars;
    const auto fixed = check_several_per_thread(stars, {many, y0, m1}, s);
    CHECK(fixed.statuses[many / 3] == status::nonfinite_input);
    // Blocks of 100 threads in lockstep: the last warp's 4 lanes meet the barrier too.
    const auto cut_short = stars.solve(
        {many, y0, m1}, s, backends::cuda{.block_size = 100, .scheduling = scheduling::balanced});
    CHECK(cut_short.kernel->block_size == 100);
    CHECK(same_results(fixed, cut_short));
}

TEST_CASE("cuda: automatic balances below a lane use of 0.7 only where one was measured") {
    using backends::cuda;
    CHECK(cuda::balances(0.43));
    CHECK(cuda::balances(0.65));
    CHECK_FALSE(cuda::balances(0.7));
    CHECK_FALSE(cuda::balances(0.91));
    CHECK_FALSE(cuda::balances(-1));  // nothing measured
}

// Automatic scheduling integrates a first sample (a block on every multiprocessor) one
// trajectory per thread and balances the rest where the sample's lane use is low, where
// nothing goes through page-locked staging: inputs in device memory, results in device
// memory or in host arrays already page-locked.
// Lorenz at rho = 200 (chaos) on one lane in 8 and rho = 0 (a decay) on the others gives
// every warp the same lane use, which the kernel report's must equal; rho = 200 on whole
// warps, every other one, gives 1 (warps of 32 lanes, not 64); rho = 28 everywhere gives 1.
// 2^21 trajectories are more than 4 waves of a device of 132 multiprocessors of 2,048
// threads.
TEST_CASE("cuda: automatic scheduling balances after a first sample of low lane use only") {
    constexpr std::size_t many = std::size_t{1} << 21;
    solve_settings<pi_controller> s;
    s.t_end = 1;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-8};
    const solver<catalogue::lorenz<double>, tsit5, pi_controller> lorenz;
    std::vector<double> y0(3 * many, 0.0), rho(many);
    std::fill_n(y0.begin(), many, 1.0);
    std::optional<device_buffer<double>> y0_device, rho_device;
    const auto on_device = [&]() -> batch_inputs<double> {
        y0_device = device_buffer<double>::copy_of(y0);
        rho_device = device_buffer<double>::copy_of(rho);
        return {many, {y0_device->data(), y0_device->size()}, {rho_device->data(), many}};
    };
    const auto solve = [&](scheduling schedule, int block_size = 0) {
        device_result<double> r;
        lorenz.solve_on_device(on_device(), s, r,
                               backends::cuda{.block_size = block_size, .scheduling = schedule});
        return r.to_host();
    };
    for (std::size_t i = 0; i < many; ++i) rho[i] = i % 8 == 3 ? 200 : 0;
    const auto fixed = solve(scheduling::static_mapping);
    const double expected =
        lane_use(warps_of(fixed.accepted_steps.data(), fixed.rejected_steps.data(), many));
    CAPTURE(expected);
    // 56 steps at rho = 0 beside 401 at rho = 200.
    REQUIRE(backends::cuda::balances(expected));
    CHECK(fixed.kernel->lane_use == -1);  // asked for: nothing measured
    const auto chosen = solve(scheduling::automatic);
    REQUIRE(chosen.kernel.has_value());
    CHECK(chosen.kernel->scheduling == std::string("balanced"));
    CHECK(chosen.kernel->lane_use == doctest::Approx(expected).epsilon(1e-12));
    CHECK(same_results(fixed, chosen));
    // The rest goes in a balanced solve's chunks: the sample is one launch more.
    const auto balanced = solve(scheduling::balanced);
    CHECK(chosen.kernel->chunks == balanced.kernel->chunks + 1);
    // Into a host result: its first solve stages its outputs and goes one trajectory per
    // thread; solved into again, its arrays are page-locked, and the solve measures and
    // balances, the slots refitted to the balanced chunks, then kept: the same launches on
    // the third solve as on the second. (Its outputs are copied: its balanced chunks are
    // those of chunk_capacity, one or several as the device's waves hold 2^21.)
    batch_result<double> again;
    const batch_inputs<double> inputs = on_device();
    std::size_t launches = 0;
    for (int round = 0; round < 3; ++round) {
        CAPTURE(round);
        lorenz.solve(inputs, s, again, backends::cuda{});
        CHECK(again.kernel->scheduling == std::string(round == 0 ? "static" : "balanced"));
        if (round == 1) {
            launches = again.kernel->chunks;
            CHECK(launches >= 2);  // the sample, then the rest
        }
        if (round == 2) CHECK(again.kernel->chunks == launches);
        CHECK(same_results(fixed, again));
    }
    // From pageable inputs, staged: one trajectory per thread, nothing measured.
    const auto staged = lorenz.solve({many, y0, rho}, s, backends::cuda{});
    CHECK(staged.kernel->scheduling == std::string("static"));
    CHECK(staged.kernel->lane_use == -1);
    CHECK(same_results(fixed, staged));
    // A progress callback asks for chunks of a hundredth, smaller than a wave: one
    // trajectory per thread, nothing measured, and the launches are the ones planned.
    solve_control control;
    solve_progress last;
    control.progress = [&](const solve_progress& p) {
        last = p;
        return true;
    };
    device_result<double> reported;
    lorenz.solve_on_device(inputs, s, reported, backends::cuda{}, control);
    CHECK(reported.kernel->scheduling == std::string("static"));
    CHECK(reported.kernel->lane_use == -1);
    CHECK(last.chunks_done == last.chunks);
    CHECK(last.done == many);
    CHECK(same_results(fixed, reported.to_host()));
    // Blocks of 100 threads: warps start again at each block (their last has 4 lanes). The
    // sample, as many blocks as the device has multiprocessors, has rho = 200 where a
    // thread is 3 modulo 8; the rest has rho = 0 (lane use 1). The report gives the sample's.
    const std::size_t sample = device_attribute(cudaDevAttrMultiProcessorCount) * 100;
    for (std::size_t i = 0; i < many; ++i) rho[i] = i < sample && i % 100 % 8 == 3 ? 200 : 0;
    const auto hundreds = solve(scheduling::static_mapping, 100);
    const auto in_hundreds = solve(scheduling::automatic, 100);
    CHECK(in_hundreds.kernel->block_size == 100);
    CHECK(in_hundreds.kernel->lane_use ==
          doctest::Approx(lane_use(warps_of(hundreds.accepted_steps.data(),
                                            hundreds.rejected_steps.data(), sample, 100)))
              .epsilon(1e-12));
    CHECK(in_hundreds.kernel->lane_use < 0.5);
    CHECK(same_results(hundreds, in_hundreds));

    for (std::size_t i = 0; i < many; ++i) rho[i] = i / 32 % 2 == 0 ? 200 : 0;
    const auto whole_warps = solve(scheduling::automatic);
    CHECK(whole_warps.kernel->scheduling == std::string("static"));
    CHECK(whole_warps.kernel->lane_use == 1.0);

    std::fill(rho.begin(), rho.end(), 28.0);
    const auto uniform = solve(scheduling::automatic);
    CHECK(uniform.kernel->scheduling == std::string("static"));
    CHECK(uniform.kernel->lane_use == 1.0);
    CHECK(same_results(solve(scheduling::balanced), uniform));

    // Fewer than measured_waves waves: one trajectory per thread, nothing measured.
    const auto few =
        lorenz.solve({1024, std::vector<double>(3 * 1024, 1.0), std::vector<double>(1024, 200.0)},
                     s, backends::cuda{});
    CHECK(few.kernel->scheduling == std::string("static"));
    CHECK(few.kernel->lane_use == -1);
}

// Without a progress callback or chunks asked for, a batch goes in chunks so that copies
// overlap kernels: inputs read in place into a device_result copy nothing, and a balanced
// solve goes in one chunk, where its threads stay busy to the end of the batch. Into a host
// result, whose outputs are copied, the same batch goes in several.
TEST_CASE("cuda: a balanced solve that copies nothing goes in one chunk") {
    // Twice the balanced chunks a copying solve takes at most (backends::cuda::chunk_capacity).
    const std::size_t many = 2 * backends::cuda::balanced_waves * device_wave();
    solve_settings<pi_controller> s;
    s.t_end = 0.05;
    s.dt = 1e-3;
    const solver<catalogue::lorenz<double>, tsit5, pi_controller> lorenz;
    std::vector<double> y0(3 * many, 1.0), rho(many);
    for (std::size_t i = 0; i < many; ++i) rho[i] = i % 8 == 3 ? 200 : 0;
    const auto y0_device = device_buffer<double>::copy_of(y0);
    const auto rho_device = device_buffer<double>::copy_of(rho);
    const batch_inputs<double> inputs{
        many, {y0_device.data(), y0_device.size()}, {rho_device.data(), rho_device.size()}};
    const backends::cuda balanced{.scheduling = scheduling::balanced};
    device_result<double> in_place;
    lorenz.solve_on_device(inputs, s, in_place, balanced);
    CHECK(in_place.kernel->chunks == 1);
    const auto copied = lorenz.solve(inputs, s, balanced);
    CHECK(copied.kernel->chunks > 1);
    const auto fixed =
        lorenz.solve(inputs, s, backends::cuda{.scheduling = scheduling::static_mapping});
    CHECK(same_results(fixed, in_place.to_host()));
    CHECK(same_results(fixed, copied));
}

// A system without parameters: its null parameter array is not an input to stage, so
// automatic measures a first sample of Kepler orbits from device inputs as it does with
// parameters (eccentricities from 0 to 0.9, shuffled: lane use well below 1).
TEST_CASE("cuda: automatic measures a system without parameters") {
    const std::size_t many = 2 * backends::cuda::measured_waves * device_wave();
    std::vector<double> y0(4 * many);
    for (std::size_t i = 0; i < many; ++i) {
        const auto start = testing::kepler_initial_state(0.9 * double((i * 7919) % 1000) / 1000);
        for (int v = 0; v < 4; ++v) y0[v * many + i] = start[v];
    }
    const auto y0_device = device_buffer<double>::copy_of(y0);
    solve_settings<pi_controller> s;
    s.t_end = 1;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-8};
    const solver<testing::kepler<double>, tsit5, pi_controller> orbits;
    const batch_inputs<double> inputs{many, {y0_device.data(), y0_device.size()}, {}};
    device_result<double> chosen;
    orbits.solve_on_device(inputs, s, chosen, backends::cuda{});
    CHECK(chosen.kernel->lane_use > 0);
    CHECK(chosen.kernel->lane_use < 1);
    const auto fixed =
        orbits.solve(inputs, s, backends::cuda{.scheduling = scheduling::static_mapping});
    CHECK(same_results(fixed, chosen.to_host()));
}

TEST_CASE("cuda: a block size that leaves no block resident is refused with its name") {
    const solver<catalogue::lorenz<double>, ros3p, pi_controller> implicit;
    auto s = settings();
    s.save_every = s.summarise_every = s.sample_summaries_every = 0;
    s.t_end = 0.01;
    const divergent_sweep sweep;
    const auto r = implicit.solve(sweep.inputs(), s, backends::cuda{});
    REQUIRE(r.kernel.has_value());
    if (r.kernel->registers <= 64) {  // 1024 threads of 64 registers fill one multiprocessor
        MESSAGE("the kernel's " << r.kernel->registers << " registers fit 1024 threads");
        return;
    }
    CHECK_THROWS_WITH_AS(implicit.solve(sweep.inputs(), s, backends::cuda{.block_size = 1024}),
                         doctest::Contains("backends::cuda::block_size"), std::invalid_argument);
}
#endif
