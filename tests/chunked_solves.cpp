// Solves in chunks: bit for bit the results of one pass, progress reported once per chunk
// up to the total, and cancellation that leaves finished chunks whole and marks the rest;
// results reused across solves of other shapes.

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/algorithms/rosenbrock/ros3p.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "support/recording_sweep.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::recording_solver;
using cubie::testing::same_bits;
using cubie::testing::test_backend;

namespace {

constexpr std::size_t n = 100;
using sweep = cubie::testing::recording_sweep;
solve_settings<pi_controller> settings() {
    return sweep::settings();
}

}  // namespace

TEST_CASE("a solve in many chunks equals the one-pass solve bit for bit") {
    const sweep s;
    const recording_solver solver;
    const auto whole = solver.solve(s.inputs(), settings(), test_backend{});
    solve_control control;
    control.chunk_trajectories = 7;  // 15 chunks, the last one short
    const auto chunked = solver.solve(s.inputs(), settings(), test_backend{}, control);
    CHECK(whole.statuses[37] == status::nonfinite_input);
    CHECK(cubie::testing::same_results(whole, chunked));
    if (chunked.kernel) CHECK(chunked.kernel->chunks == 15);
}

TEST_CASE("an implicit method's Newton and linear iteration counts come back from every chunk") {
    const sweep s;
    const solver<catalogue::lorenz<double>, ros3p, pi_controller, save_counters> implicit;
    auto counted = settings();
    counted.summarise_every = counted.sample_summaries_every = 0;
    const auto whole = implicit.solve(s.inputs(), counted, test_backend{});
    solve_control control;
    control.chunk_trajectories = 7;
    const auto chunked = implicit.solve(s.inputs(), counted, test_backend{}, control);
    REQUIRE(whole.linear_iterations.size() == n);
    CHECK(whole.linear_iterations[0] ==
          ros3p::stages * (whole.accepted_steps[0] + whole.rejected_steps[0]));
    CHECK(whole.linear_iterations[37] == 0);  // NaN input: never stepped
    CHECK(cubie::testing::same_results(whole, chunked));
    // Explicit methods have no iteration counts.
    const auto explicit_result = recording_solver{}.solve(s.inputs(), settings(), test_backend{});
    CHECK(explicit_result.newton_iterations.empty());
    CHECK(explicit_result.linear_iterations.empty());
}

TEST_CASE("progress reaches the total exactly once, a chunk at a time") {
    const sweep s;
    std::vector<solve_progress> reports;
    solve_control control;
    control.chunk_trajectories = 30;
    control.progress = [&](const solve_progress& p) {
        reports.push_back(p);
        return true;
    };
    const auto r = recording_solver{}.solve(s.inputs(), settings(), test_backend{}, control);
    REQUIRE(reports.size() == 4);
    const std::size_t expected_done[] = {30, 60, 90, 100};
    for (std::size_t k = 0; k < reports.size(); ++k) {
        CHECK(reports[k].done == expected_done[k]);
        CHECK(reports[k].total == n);
        CHECK(reports[k].chunks_done == k + 1);
        CHECK(reports[k].chunks == 4);
        CHECK(reports[k].elapsed_seconds >= (k > 0 ? reports[k - 1].elapsed_seconds : 0.0));
    }
    CHECK(reports.back().seconds_left() == 0);
    CHECK(r.failures() == 1);  // the NaN parameter only

    // Without a chunk size, progress comes in about 100 chunks.
    reports.clear();
    control.chunk_trajectories = 0;
    static_cast<void>(recording_solver{}.solve(s.inputs(), settings(), test_backend{}, control));
    CHECK(reports.size() == 100);
    CHECK(reports.back().done == n);
}

TEST_CASE("a cancelled solve returns the finished chunks and marks the rest") {
    const sweep s;
    solve_control control;
    control.chunk_trajectories = 10;
    control.progress = [](const solve_progress& p) { return p.chunks_done < 2; };
    const auto r = recording_solver{}.solve(s.inputs(), settings(), test_backend{}, control);
    const auto whole = recording_solver{}.solve(s.inputs(), settings(), test_backend{});
    // Two chunks were reported; the cuda backend's next three chunks were already in
    // flight and are kept too.
    std::size_t kept = 0;
    while (kept < n && r.statuses[kept] != status::cancelled) ++kept;
    CHECK(kept == (std::string(cubie::testing::test_backend_name) == "host" ? 20 : 50));
    for (std::size_t i = 0; i < n; ++i) {
        INFO("trajectory " << i);
        if (i < kept) {
            CHECK(r.statuses[i] == whole.statuses[i]);
            CHECK(same_bits(
                std::vector<double>{r.final_state(0, i), r.saved_value(3, 1, i)},
                std::vector<double>{whole.final_state(0, i), whole.saved_value(3, 1, i)}));
            CHECK(r.saved_counter(3, 0, i) == whole.saved_counter(3, 0, i));
        } else {
            cubie::testing::check_never_started(r, i);
        }
    }
}

TEST_CASE("a result reused across solves holds what fresh results hold") {
    const sweep s;
    const recording_solver solver;
    const auto fresh = solver.solve(s.inputs(), settings(), test_backend{});
    auto shorter = settings();
    shorter.t_end = 0.5;  // half the saves and summary windows
    const auto fresh_shorter = solver.solve(s.inputs(), shorter, test_backend{});

    batch_result<double> reused;
    solver.solve(s.inputs(), settings(), reused, test_backend{});
    CHECK(cubie::testing::same_results(reused, fresh));
    CHECK(reused.save_times == fresh.save_times);
    CHECK(reused.backend == fresh.backend);
    const double* storage = reused.saved.data();
    solver.solve(s.inputs(), shorter, reused, test_backend{});  // smaller: no allocation
    CHECK(cubie::testing::same_results(reused, fresh_shorter));
    CHECK(reused.save_times == fresh_shorter.save_times);
    CHECK(reused.saved.data() == storage);
    solver.solve(s.inputs(), settings(), reused, test_backend{});
    CHECK(cubie::testing::same_results(reused, fresh));

    SUBCASE("bad settings throw before the result is touched") {
        auto bad = settings();
        bad.dt = -1;
        CHECK_THROWS_AS(solver.solve(s.inputs(), bad, reused, test_backend{}),
                        std::invalid_argument);
        CHECK(cubie::testing::same_results(reused, fresh));
    }
    SUBCASE("a cancelled solve marks the rest, holding nothing of the previous solve") {
        solve_control control;
        control.chunk_trajectories = 10;
        control.progress = [](const solve_progress& p) { return p.chunks_done < 2; };
        solver.solve(s.inputs(), settings(), reused, test_backend{}, control);
        cubie::testing::check_never_started(reused, n - 1);  // on either backend
    }
}

TEST_CASE("the cuda backend's memory budget is a fraction of free memory") {
#if !defined(__CUDACC__)
    CHECK(test_backend{}.chunk_capacity(123, 1e12) == 123);  // host memory is the solver's
#else
    {
        const sweep s;
        CHECK_THROWS_WITH_AS(
            recording_solver{}.solve(s.inputs(), settings(), test_backend{.memory_fraction = 0}),
            doctest::Contains("setting backends::cuda::memory_fraction = 0 is invalid"),
            std::invalid_argument);
        // A budget for a handful of trajectories forces chunks; the results do not change.
        const double per_trajectory = recording_solver{}.plan(settings()).result_bytes(1);
        std::size_t free_bytes = 0, total_bytes = 0;
        REQUIRE(cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess);
        const double fraction = 30 * per_trajectory / double(free_bytes);
        const auto budgeted = recording_solver{}.solve(s.inputs(), settings(),
                                                       test_backend{.memory_fraction = fraction});
        const auto whole = recording_solver{}.solve(s.inputs(), settings(), test_backend{});
        REQUIRE(budgeted.kernel);
        CHECK(budgeted.kernel->chunks > 1);
        CHECK(same_bits(whole.saved, budgeted.saved));
        CHECK(same_bits(whole.summaries, budgeted.summaries));
    }
#endif
}
