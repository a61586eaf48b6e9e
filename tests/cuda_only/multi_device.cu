// A batch split over several devices gives the one-device result bit for bit, reports
// progress up to the total once and cancels cleanly. On a machine with one GPU, the split
// runs as two shares of the same device; with more, over every device.

#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/backends/cuda.hpp"
#include "support/recording_sweep.hpp"

using namespace cubie;
using cubie::testing::recording_solver;
using cubie::testing::recording_sweep;
using cubie::testing::same_results;

namespace {

/// Several devices: every visible one, or device 0 twice on a machine with one.
std::vector<int> several_devices() {
    const std::vector<int> all = backends::cuda::all_devices();
    return all.size() > 1 ? all : std::vector<int>{0, 0};
}

}  // namespace

TEST_CASE("a batch split over devices equals the one-device solve bit for bit") {
    const recording_sweep s(1001, 500);  // uneven shares; the failing one near the split
    const recording_solver solver;
    const auto one = solver.solve(s.inputs(), s.settings(), backends::cuda{.devices = {0}});
    const backends::cuda split{.devices = several_devices()};
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{97}}) {
        INFO("chunk_trajectories = " << chunk);
        solve_control control;
        control.chunk_trajectories = chunk;
        const auto several = solver.solve(s.inputs(), s.settings(), split, control);
        CHECK(same_results(one, several));
        REQUIRE(several.kernel);
        CHECK(several.kernel->devices == int(split.devices.size()));
        // Every device's share goes in its own chunks of up to 97.
        const std::size_t devices = split.devices.size();
        if (chunk == 0) CHECK(several.kernel->chunks == devices);
        if (chunk > 0) CHECK(several.kernel->chunks >= (s.n + chunk - 1) / chunk);
        if (chunk > 0) CHECK(several.kernel->chunks <= (s.n + chunk - 1) / chunk + devices - 1);
    }
    // Inputs in the first device's memory: the others copy their share from it.
    const auto d_y0 = device_buffer<double>::copy_of(s.y0);
    const auto d_rho = device_buffer<double>::copy_of(s.rho);
    CHECK(same_results(one,
                       solver.solve({s.n, {d_y0.data(), d_y0.size()}, {d_rho.data(), d_rho.size()}},
                                    s.settings(), split)));
}

TEST_CASE("progress over several devices reaches the total exactly once") {
    const recording_sweep s(1000);
    std::vector<solve_progress> reports;
    std::mutex serialised;  // must never be contended: calls come one at a time
    solve_control control;
    control.chunk_trajectories = 50;
    control.progress = [&](const solve_progress& p) {
        const std::unique_lock<std::mutex> lock(serialised, std::try_to_lock);
        CHECK(lock.owns_lock());
        reports.push_back(p);
        return true;
    };
    const auto r = recording_solver{}.solve(s.inputs(), s.settings(),
                                            backends::cuda{.devices = several_devices()}, control);
    REQUIRE(reports.size() == 20);
    for (std::size_t k = 0; k < reports.size(); ++k) {
        CHECK(reports[k].chunks_done == k + 1);
        CHECK(reports[k].done > (k > 0 ? reports[k - 1].done : 0));
    }
    CHECK(reports.back().done == s.n);
    CHECK(r.failures() == 1);
}

TEST_CASE("a cancelled split solve keeps whole chunks and marks the rest") {
    const recording_sweep s(1000);
    solve_control control;
    control.chunk_trajectories = 50;
    control.progress = [](const solve_progress& p) { return p.chunks_done < 3; };
    const auto r = recording_solver{}.solve(s.inputs(), s.settings(),
                                            backends::cuda{.devices = several_devices()}, control);
    const auto whole = recording_solver{}.solve(s.inputs(), s.settings(), backends::cuda{});
    std::size_t cancelled = 0;
    for (std::size_t first = 0; first < s.n; first += 50) {
        // A chunk is either solved whole or not started at all.
        const bool started = r.statuses[first] != status::cancelled;
        for (std::size_t i = first; i < first + 50; ++i) {
            INFO("trajectory " << i);
            if (started) {
                CHECK(r.statuses[i] == whole.statuses[i]);
                CHECK(r.final_state(0, i) == whole.final_state(0, i));
            } else {
                CHECK(r.statuses[i] == status::cancelled);
                CHECK(std::isnan(r.final_state(1, i)));
                CHECK(std::isnan(r.saved_value(4, 2, i)));
                ++cancelled;
            }
        }
    }
    CHECK(cancelled > 0);
    CHECK(cancelled <= s.n - 3 * 50);
}

TEST_CASE("devices that do not exist are refused before any work") {
    const recording_sweep s;
    int count = 0;
    REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
    const std::string expected = "setting backends::cuda::devices = " + std::to_string(count) +
                                 " is invalid: names no device";
    CHECK_THROWS_WITH_AS(
        recording_solver{}.solve(s.inputs(), s.settings(), backends::cuda{.devices = {0, count}}),
        doctest::Contains(expected.c_str()), std::invalid_argument);
    CHECK_THROWS_WITH_AS(
        recording_solver{}.solve(s.inputs(), s.settings(), backends::cuda{.devices = {-1}}),
        doctest::Contains("backends::cuda::devices = -1"), std::invalid_argument);
}
