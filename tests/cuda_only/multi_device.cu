// A batch split over several devices gives the one-device result bit for bit (fresh,
// reused pageable and page-locked results, streamed files), reports progress up to the
// total once and cancels cleanly. On a machine with one GPU, the split
// runs as two shares of the same device; with more, over every device.

#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/backends/cuda.hpp"
#include "cubie/core/device_properties.hpp"
#include "cubie/core/memory_location.hpp"
#include "cubie/io/npy_result.hpp"
#include "cubie/io/npy_stream.hpp"
#include "support/file_bytes.hpp"
#include "support/recording_sweep.hpp"
#include "support/scratch_directory.hpp"

using namespace cubie;
using cubie::testing::file_bytes;
using cubie::testing::recording_solver;
using cubie::testing::recording_sweep;
using cubie::testing::same_results;
using cubie::testing::scratch_directory;

namespace {

/// Several devices: every visible one, or device 0 twice on a machine with one.
std::vector<int> several_devices() {
    const std::vector<int> all = backends::cuda::all_devices();
    return all.size() > 1 ? all : std::vector<int>{0, 0};
}

/// Every byte of every array of r set to one value that no solve writes everywhere.
void poison(batch_result<double>& r) {
    for_each_result_field(
        [](const result_field&, auto& a) {
            if (!a.empty()) std::memset(a.data(), 0x5A, a.size() * sizeof(a[0]));
        },
        r);
}

/// Whether every non-empty array of r is page-locked.
bool page_locked(const batch_result<double>& r) {
    bool locked = true;
    for_each_result_field(
        [&](const result_field&, const auto& a) {
            locked = locked && (a.empty() || memory_location::of(a.data()).where ==
                                                 memory_location::kind::page_locked);
        },
        r);
    return locked;
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

TEST_CASE("each device's properties are queried once, as the runtime gives them") {
    for (const int d : backends::cuda::all_devices()) {
        INFO("device " << d);
        cudaDeviceProp expected{};
        REQUIRE(cudaGetDeviceProperties(&expected, d) == cudaSuccess);
        const cudaDeviceProp& p = device_properties(d);
        CHECK(std::string(p.name) == expected.name);
        CHECK(p.multiProcessorCount == expected.multiProcessorCount);
        CHECK(p.maxThreadsPerMultiProcessor == expected.maxThreadsPerMultiProcessor);
        CHECK(&device_properties(d) == &p);  // kept, not queried again
    }
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

TEST_CASE("a split solve overwrites every output of a reused result, pageable and page-locked") {
    const recording_sweep s(1001, 500);
    const recording_solver solver;
    const auto one = solver.solve(s.inputs(), s.settings(), backends::cuda{.devices = {0}});
    const backends::cuda split{.devices = several_devices()};
    // Arrays of the result's sizes holding a poison: the first solve into them finds them
    // pageable and copies through staging, the later ones page-lock them and copy straight
    // into them from every device.
    batch_result<double> r;
    for_each_result_field(
        [](const result_field&, const auto& from, auto& to) { to.resize(from.size()); }, one, r);
    for (int solve = 0; solve < 3; ++solve) {
        INFO("solve " << solve << " into the same arrays");
        poison(r);
        solver.solve(s.inputs(), s.settings(), r, split);
        CHECK(same_results(one, r));
        CHECK(page_locked(r) == (solve > 0));
    }
    // In chunks, into the page-locked arrays.
    solve_control control;
    control.chunk_trajectories = 97;
    poison(r);
    solver.solve(s.inputs(), s.settings(), r, split, control);
    CHECK(same_results(one, r));
}

TEST_CASE("a solve streamed to .npy files over several devices writes the one-device files") {
    const recording_sweep s(1001, 500);
    const recording_solver solver;
    const scratch_directory scratch("multi-device-stream");
    const auto budget =
        static_cast<std::size_t>(solver.plan(s.inputs(), s.settings()).result_bytes(s.n) / 3);
    const stream_settings stream{budget, true};
    solve_to_npy(solver, s.inputs(), s.settings(), scratch.path() / "one", stream,
                 backends::cuda{.devices = {0}});
    const stream_report report =
        solve_to_npy(solver, s.inputs(), s.settings(), scratch.path() / "several", stream,
                     backends::cuda{.devices = several_devices()});
    CHECK(report.chunks >= 3);
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(scratch.path() / "one")) {
        const std::filesystem::path name = entry.path().filename();
        INFO(name.string());
        const std::filesystem::path other = scratch.path() / "several" / name;
        REQUIRE(std::filesystem::exists(other));
        CHECK(file_bytes(entry.path()) == file_bytes(other));
        ++files;
    }
    CHECK(files > 10);
}
