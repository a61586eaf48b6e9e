// Inputs in device memory are read in place, page-locked and managed ones are read as
// well, and a result kept in device memory holds what the host result holds: bit for bit,
// in one chunk or several, with buffers reused across solves. A host result the caller
// page-locked is written by the copies themselves; a large batch goes in chunks on its own;
// a solve that throws leaves nothing half-written. Misuse is refused.

#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <span>
#include <stdexcept>
#include <vector>

#include "cubie/backends/cuda.hpp"
#include "cubie/backends/host.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/core/pinned_buffer.hpp"
#include "cubie/cubie.hpp"
#include "support/recording_sweep.hpp"

using namespace cubie;
using cubie::testing::check_never_started;
using cubie::testing::recording_solver;
using cubie::testing::recording_sweep;
using cubie::testing::same_bits;
using cubie::testing::same_results;

namespace {

/// Managed memory, freed on scope exit.
template <class T>
struct managed_array {
    T* data = nullptr;
    std::size_t size;
    explicit managed_array(const std::vector<T>& from) : size(from.size()) {
        REQUIRE(cudaMallocManaged(reinterpret_cast<void**>(&data), size * sizeof(T)) ==
                cudaSuccess);
        std::copy(from.begin(), from.end(), data);
    }
    managed_array(const managed_array&) = delete;
    managed_array& operator=(const managed_array&) = delete;
    ~managed_array() { static_cast<void>(cudaFree(data)); }
    std::span<const T> view() const { return {data, size}; }
};

template <class T>
pinned_buffer<T> page_locked_copy(const std::vector<T>& from) {
    pinned_buffer<T> b(from.size());
    std::copy(from.begin(), from.end(), b.data());
    return b;
}

/// Page-locks `bytes` of host memory from `data` for as long as it lives (cudaHostRegister).
class registration {
public:
    registration(void* data, std::size_t bytes) : data_(data) {
        REQUIRE(cudaHostRegister(data_, bytes, 0) == cudaSuccess);
    }
    registration(const registration&) = delete;
    registration& operator=(const registration&) = delete;
    ~registration() { static_cast<void>(cudaHostUnregister(data_)); }

private:
    void* data_;
};

memory_location::kind where(const void* p) {
    return memory_location::of(p).where;
}

/// Every non-empty array of r is in memory of kind k.
void check_arrays_are(batch_result<double>& r, memory_location::kind k) {
    for_each_result_field(
        [&](const result_field&, const auto& a) {
            if (!a.empty()) CHECK(where(a.data()) == k);
        },
        r);
}

/// Reads a [save][trajectory] device view element by element, as a kernel would.
__global__ void read_view(result_view<double> view, double* out) {
    const std::size_t save = blockIdx.x, trajectory = threadIdx.x;
    if (save < view.extent(0) && trajectory < view.extent(1))
        out[save * view.extent(1) + trajectory] = view(save, trajectory);
}

}  // namespace

TEST_CASE("inputs in device, managed or page-locked memory give the host inputs' result") {
    const recording_sweep s;
    const recording_solver solver;
    const auto reference = solver.solve(s.inputs(), s.settings(), backends::cuda{});
    REQUIRE(reference.statuses[s.failing] == status::nonfinite_input);

    const auto d_y0 = device_buffer<double>::copy_of(s.y0);
    const auto d_rho = device_buffer<double>::copy_of(s.rho);
    const batch_inputs<double> on_device{
        s.n, {d_y0.data(), d_y0.size()}, {d_rho.data(), d_rho.size()}};
    const managed_array<double> m_y0(s.y0), m_rho(s.rho);
    const auto p_y0 = page_locked_copy(s.y0);
    const auto p_rho = page_locked_copy(s.rho);
    const batch_inputs<double> page_locked{
        s.n, {p_y0.data(), s.y0.size()}, {p_rho.data(), s.rho.size()}};

    for (const std::size_t chunk : {std::size_t{0}, std::size_t{7}}) {
        INFO("chunk_trajectories = " << chunk);
        solve_control control;
        control.chunk_trajectories = chunk;
        CHECK(same_results(reference,
                           solver.solve(on_device, s.settings(), backends::cuda{}, control)));
        CHECK(same_results(reference, solver.solve({s.n, m_y0.view(), m_rho.view()}, s.settings(),
                                                   backends::cuda{}, control)));
        CHECK(same_results(reference,
                           solver.solve(page_locked, s.settings(), backends::cuda{}, control)));
    }
    // A mix: states on the device, parameters on the host.
    CHECK(same_results(reference, solver.solve({s.n, {d_y0.data(), d_y0.size()}, s.rho},
                                               s.settings(), backends::cuda{})));
}

TEST_CASE("a result kept in device memory equals the host result and reuses its buffers") {
    const recording_sweep s;
    const recording_solver solver;
    const auto reference = solver.solve(s.inputs(), s.settings(), backends::cuda{});

    device_result<double> kept = solver.solve_on_device(s.inputs(), s.settings());
    int current = -1;
    REQUIRE(cudaGetDevice(&current) == cudaSuccess);
    CHECK(kept.device == current);
    CHECK(kept.backend == reference.backend);
    REQUIRE(kept.kernel);
    CHECK(kept.kernel->chunks == 1);
    const batch_result<double> back = kept.to_host();
    CHECK(same_results(reference, back));
    CHECK(back.saved_variables == reference.saved_variables);
    CHECK(back.summary_legend == reference.summary_legend);
    CHECK(same_bits(back.save_times, reference.save_times));

    // The device view of a series, read by a kernel, is the host view's values.
    const result_view<double> x = kept.series("x");
    device_buffer<double> read(x.extent(0) * x.extent(1));
    read_view<<<static_cast<unsigned>(x.extent(0)), static_cast<unsigned>(x.extent(1))>>>(
        x, read.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<double> values(read.size());
    read.copy_to(values);
    const result_view<double> host_x = reference.series("x");
    std::vector<double> expected;
    for (std::size_t k = 0; k < host_x.extent(0); ++k)
        for (std::size_t i = 0; i < host_x.extent(1); ++i) expected.push_back(host_x(k, i));
    CHECK(same_bits(values, expected));

    // Again, from device inputs and in chunks, into the same buffers.
    const double* saved_before = kept.saved.data();
    const auto d_y0 = device_buffer<double>::copy_of(s.y0);
    const auto d_rho = device_buffer<double>::copy_of(s.rho);
    solve_control control;
    control.chunk_trajectories = 30;
    solver.solve_on_device({s.n, {d_y0.data(), d_y0.size()}, {d_rho.data(), d_rho.size()}},
                           s.settings(), kept, backends::cuda{}, control);
    CHECK(kept.saved.data() == saved_before);
    CHECK(kept.kernel->chunks == 4);
    CHECK(same_results(reference, kept.to_host()));

    // Another shape: fewer saves (0.25, 0.5, 0.75, 1), the buffers are resized to it.
    auto sparser = s.settings();
    sparser.save_every = 0.25;
    solver.solve_on_device(s.inputs(), sparser, kept);
    CHECK(kept.n_saves() == 4);
    CHECK(kept.saved.size() == 4 * 3 * s.n);
    CHECK(same_results(solver.solve(s.inputs(), sparser, backends::cuda{}), kept.to_host()));
}

TEST_CASE("a cancelled solve into device memory marks what it never started") {
    const recording_sweep s;
    solve_control control;
    control.chunk_trajectories = 10;
    control.progress = [](const solve_progress& p) { return p.chunks_done < 2; };
    const auto r =
        recording_solver{}.solve_on_device(s.inputs(), s.settings(), {}, control).to_host();
    std::size_t kept = 0;
    while (kept < s.n && r.statuses[kept] != status::cancelled) ++kept;
    CHECK(kept == 50);  // two chunks reported, the next three already in flight
    for (std::size_t i = kept; i < s.n; ++i) check_never_started(r, i);
}

TEST_CASE("device memory misused is refused before any work") {
    const recording_sweep s;
    const recording_solver solver;
    const auto d_rho = device_buffer<double>::copy_of(s.rho);
    CHECK_THROWS_WITH_AS(
        solver.solve({s.n, s.y0, {d_rho.data(), d_rho.size()}}, s.settings(), backends::host{}),
        doctest::Contains("inputs are in device memory, which backends::host cannot read"),
        std::invalid_argument);
    CHECK_THROWS_WITH_AS(
        solver.solve_on_device(s.inputs(), s.settings(), backends::cuda{.devices = {0, 0}}),
        doctest::Contains("a result kept in device memory lives on one device"),
        std::invalid_argument);
    CHECK_THROWS_WITH_AS(
        solver.solve_on_device(s.inputs(), s.settings(), backends::cuda{.memory_fraction = 1e-9}),
        doctest::Contains("MiB of device memory, more than the budget of"), std::invalid_argument);
    // The wrong number of values is the same error wherever they are.
    CHECK_THROWS_WITH_AS(solver.solve_on_device({s.n + 1, s.y0, s.rho}, s.settings()),
                         doctest::Contains("input initial_states has 300 values"),
                         std::invalid_argument);
}

TEST_CASE("a host result solved into again is page-locked in place, until its arrays go") {
    using kind = memory_location::kind;
    const recording_sweep s;
    const recording_solver solver;
    const auto reference = solver.solve(s.inputs(), s.settings(), backends::cuda{});
    solve_control control;
    control.chunk_trajectories = 7;  // 15 chunks, four in flight at a time
    const auto solve_into = [&](batch_result<double>& r) {
        r.mark_unsolved(0, r.n_trajectories);  // every value checked is written by the solve
        solver.solve(s.inputs(), s.settings(), r, backends::cuda{}, control);
        CHECK(same_results(reference, r));
    };

    // The first solve stages the outputs: a result solved into once is never locked.
    batch_result<double> r;
    solver.solve(s.inputs(), s.settings(), r, backends::cuda{}, control);
    CHECK(same_results(reference, r));
    const auto& kept = r.workspace.get<backends::cuda_workspace<double>>();
    REQUIRE(kept.shares.size() == 1);
    REQUIRE(kept.shares[0].slots.size() == backends::cuda::chunks_in_flight);
    CHECK(kept.shares[0].staging.outputs);
    check_arrays_are(r, kind::pageable);

    // The second finds the same arrays and locks them; the copies then go straight in.
    solve_into(r);
    CHECK_FALSE(kept.shares[0].staging.outputs);
    check_arrays_are(r, kind::page_locked);
    const double* buffer = kept.shares[0].slots[0]->final_states.device();
    solve_into(r);
    CHECK(kept.shares[0].slots[0]->final_states.device() == buffer);  // nothing reallocated

    // A copy has arrays of its own, pageable.
    batch_result<double> copy = r;
    check_arrays_are(copy, kind::pageable);
    solve_into(copy);
    check_arrays_are(copy, kind::pageable);

    // An array freed is unlocked first; its replacement is locked on the solve after next.
    const void* freed = r.final_states.data();
    r.final_states = host_array<double>();
    CHECK(where(freed) == kind::pageable);
    solve_into(r);  // final_states allocated anew
    CHECK(where(r.final_states.data()) == kind::pageable);
    CHECK(where(r.statuses.data()) == kind::page_locked);
    solve_into(r);
    check_arrays_are(r, kind::page_locked);
    CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("a host result the caller page-locked is written by the copies themselves") {
    const recording_sweep s;
    const recording_solver solver;
    const auto reference = solver.solve(s.inputs(), s.settings(), backends::cuda{});
    batch_result<double> r = reference;
    const auto& kept = r.workspace.get<backends::cuda_workspace<double>>();
    {
        // One array: page-locked statuses send every output straight from the device.
        const registration locked(r.statuses.data(), r.statuses.size() * sizeof(status));
        r.mark_unsolved(0, s.n);
        solver.solve(s.inputs(), s.settings(), r, backends::cuda{});
        CHECK_FALSE(kept.shares[0].staging.outputs);
        CHECK(same_results(reference, r));
    }
    {
        // Part of one array: the driver refuses to lock the whole, and none is locked.
        const registration part(r.final_states.data() + 1, sizeof(double));
        for (int solve = 0; solve < 3; ++solve) {
            r.mark_unsolved(0, s.n);
            solver.solve(s.inputs(), s.settings(), r, backends::cuda{});
            CHECK(kept.shares[0].staging.outputs);
            CHECK(where(r.statuses.data()) == memory_location::kind::pageable);
            CHECK(same_results(reference, r));
        }
        CHECK(cudaGetLastError() == cudaSuccess);  // the refusal left no error behind
    }
}

TEST_CASE("a batch of several waves goes in chunks on its own, bit for bit") {
    int multiprocessors = 0, threads = 0;
    REQUIRE(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0) ==
            cudaSuccess);
    REQUIRE(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, 0) ==
            cudaSuccess);
    const std::size_t wave = std::size_t(multiprocessors) * std::size_t(threads);
    const std::size_t n = 3 * wave + 5;
    std::vector<float> y0(3 * n, 0.0f), rho(n);
    std::fill_n(y0.begin(), n, 1.0f);
    for (std::size_t i = 0; i < n; ++i) rho[i] = 28.0f * float(i) / float(n);
    const solver<catalogue::lorenz<float>, classical_rk4, fixed_step> rk4;
    solve_settings<fixed_step> settings;
    settings.t_end = 0.25;
    settings.dt = 1.0 / 256;

    const auto pipelined = rk4.solve({n, y0, rho}, settings, backends::cuda{.devices = {0}});
    REQUIRE(pipelined.kernel);
    CHECK(pipelined.kernel->chunks == 4);  // chunks of a wave: 3 and the 5 left over
    CHECK(pipelined.failures() == 0);
    solve_control control;
    control.chunk_trajectories = 100'003;  // other chunk boundaries, the same values
    const auto other = rk4.solve({n, y0, rho}, settings, backends::cuda{.devices = {0}}, control);
    CHECK(same_bits(pipelined.final_states, other.final_states));
    CHECK(same_bits(pipelined.accepted_steps, other.accepted_steps));
}

TEST_CASE("a solve that throws once under way leaves every trajectory unsolved") {
    const recording_sweep s;
    const recording_solver solver;
    batch_result<double> r;
    solver.solve(s.inputs(), s.settings(), r, backends::cuda{});
    REQUIRE(r.failures() == 1);
    // The backend's own setting is checked once the solve is under way.
    CHECK_THROWS_AS(solver.solve(s.inputs(), s.settings(), r, backends::cuda{.memory_fraction = 0}),
                    std::invalid_argument);
    for (std::size_t i = 0; i < s.n; ++i) check_never_started(r, i);
}
