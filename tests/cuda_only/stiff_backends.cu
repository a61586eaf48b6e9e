// The stiff methods give the same trajectories on the host and on the device: Pollution over
// a k1 sweep (the benchmark's problem) in double, every trajectory's status, final state
// and work compared between backends::host and backends::cuda. The two differ only in
// rounding (nvcc contracts to FMA, the host compiler need not), which an adaptive solve may
// amplify into a different step sequence, so final states are compared in units of the
// tolerance and step counts within a few steps, not bit for bit; kvaerno5 in float too. And
// the kernels' memory: rodas5p's Pollution kernels in float hold everything in registers; the
// variants that keep values in shared memory (core/thread_shared.hpp: kvaerno5's and
// radau_iia_5's on Pollution, rodas5p's on Lorenz 96, in float), which the backend takes for
// larger batches than these 64, give the same bits as the methods in registers.

#include <cuda_runtime_api.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/algorithms/rosenbrock/rodas4.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/backends/host.hpp"
#include "cubie/catalogue/lorenz96.hpp"
#include "cubie/catalogue/pollution.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "cubie/systems/right_hand_side.hpp"

using namespace cubie;

namespace {

constexpr std::size_t n = 64;

/// A system's default state for each of `count` trajectories.
template <class System>
std::vector<typename System::value_type> default_states(std::size_t count) {
    std::vector<typename System::value_type> y0(System::n_states * count);
    for (int s = 0; s < System::n_states; ++s)
        for (std::size_t i = 0; i < count; ++i) y0[s * count + i] = System::default_state[s];
    return y0;
}

/// Pollution's initial state for each of `count` trajectories, and its settings to t = 60.
template <class T>
std::vector<T> pollution_states(std::size_t count = n) {
    return default_states<catalogue::pollution<T>>(count);
}

/// `count` values log-spaced over [low, high].
template <class T>
std::vector<T> log_spaced(std::size_t count, double low, double high) {
    std::vector<T> values(count);
    for (std::size_t i = 0; i < count; ++i)
        values[i] = T(low * std::pow(high / low, double(i) / double(count - 1)));
    return values;
}

/// The fewest trajectories for which the cuda backend takes a method's variant that keeps
/// values in shared memory (backends/cuda.hpp): half of thread_shared_block on every
/// multiprocessor of the current device.
std::size_t filled_batch() {
    int device = 0, multiprocessors = 0;
    REQUIRE(cudaGetDevice(&device) == cudaSuccess);
    REQUIRE(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device) ==
            cudaSuccess);
    return std::size_t(multiprocessors) * std::size_t(thread_shared_block / 2);
}

/// Whether the current device lets a block take `bytes` of shared memory.
bool device_holds(std::size_t bytes) {
    int device = 0, most = 0;
    REQUIRE(cudaGetDevice(&device) == cudaSuccess);
    REQUIRE(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) ==
            cudaSuccess);
    return std::size_t(most) >= bytes;
}

/// The same statuses, steps and final states, bit for bit.
template <class T>
void check_same_bits(const batch_result<T>& a, const batch_result<T>& b, int states) {
    REQUIRE(a.statuses.size() == b.statuses.size());
    for (std::size_t i = 0; i < a.statuses.size(); ++i) {
        CAPTURE(i);
        CHECK(a.statuses[i] == b.statuses[i]);
        CHECK(a.accepted_steps[i] == b.accepted_steps[i]);
        CHECK(a.rejected_steps[i] == b.rejected_steps[i]);
        for (int v = 0; v < states; ++v) CHECK(a.final_state(v, i) == b.final_state(v, i));
    }
}

/// The cuda backend's choice for a batch of filled_batch(), static and balanced, against the
/// same method in registers (blocks of 128 threads, which a variant is not taken for):
/// `shared` bytes of shared memory a block where the device holds them, less local memory
/// than in registers one trajectory per thread, and the same bits. Returns the static and the
/// balanced solve.
template <class Solver, class Settings>
std::vector<batch_result<float>> check_variant_against_registers(const Solver& s,
                                                                 const batch_inputs<float>& inputs,
                                                                 const Settings& settings,
                                                                 std::size_t shared, int states) {
    const bool held = device_holds(shared);
    const auto in_registers =
        s.solve(inputs, settings,
                backends::cuda{.block_size = 128, .scheduling = scheduling::static_mapping});
    REQUIRE(in_registers.kernel.has_value());
    CHECK(in_registers.failures() == 0);
    CHECK(in_registers.kernel->shared_bytes == 0);
    std::vector<batch_result<float>> variants;
    for (const scheduling mapping : {scheduling::static_mapping, scheduling::balanced}) {
        const std::string name = scheduling_name(mapping);
        CAPTURE(name);
        auto variant = s.solve(inputs, settings, backends::cuda{.scheduling = mapping});
        REQUIRE(variant.kernel.has_value());
        CHECK(variant.kernel->shared_bytes == (held ? shared : 0));
        if (held && mapping == scheduling::static_mapping)
            CHECK(variant.kernel->local_bytes < in_registers.kernel->local_bytes);
        check_same_bits(variant, in_registers, states);
        variants.push_back(std::move(variant));
    }
    return variants;
}
template <class Controller>
solve_settings<Controller> pollution_settings(double tol) {
    solve_settings<Controller> settings;
    settings.t_end = 60;
    settings.dt = 60.0 / 1024;
    settings.atol = settings.rtol = {tol};
    return settings;
}

template <class T, class Method, class Controller = pi_controller>
void check_backends_agree(double tol) {
    using pollution = catalogue::pollution<T>;
    INFO(Method::name);
    const std::vector<T> k1 = log_spaced<T>(n, 3.5e-2, 3.5);
    const auto settings = pollution_settings<Controller>(tol);
    const solver<pollution, Method, Controller> s;
    const std::vector<T> y0 = pollution_states<T>();
    const batch_inputs<T> inputs{n, y0, k1};
    const auto host = s.solve(inputs, settings, backends::host{});
    const auto device = s.solve(inputs, settings, backends::cuda{});
    REQUIRE(host.failures() == 0);
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        CHECK(device.statuses[i] == host.statuses[i]);
        double worst = 0;
        for (int v = 0; v < pollution::n_states; ++v) {
            const double h = host.final_state(v, i), d = device.final_state(v, i);
            worst = std::max(worst, std::abs(h - d) / (tol + tol * std::abs(h)));
        }
        CHECK(worst <= 1.0);
        const auto steps = [](const batch_result<T>& r, std::size_t j) {
            return double(r.accepted_steps[j] + r.rejected_steps[j]);
        };
        CHECK(std::abs(steps(device, i) - steps(host, i)) <= 0.05 * steps(host, i) + 2);
        CHECK(std::abs(double(device.linear_iterations[i]) - double(host.linear_iterations[i])) <=
              0.1 * double(host.linear_iterations[i]) + 20);
    }
}

}  // namespace

TEST_CASE("stiff methods: host and cuda backends agree on a Pollution sweep") {
    check_backends_agree<double, rosenbrock23>(1e-8);
    check_backends_agree<double, rodas5p>(1e-8);
    check_backends_agree<double, kvaerno5>(1e-8);
    check_backends_agree<double, radau_iia_5, gustafsson_controller>(1e-8);
    check_backends_agree<float, kvaerno5>(1e-5);
}

// No local memory for float systems of a few tens of states: rodas5p's Pollution kernels
// spilled 288 bytes a thread (CUDA 13.0, sm_90) before its late stages kept sums over c in
// place of the early increments (rosenbrock.hpp, sums_from) and the adaptive loop stopped
// keeping f(t, y) through its stages (keeps_dydt_across_rejections). How ptxas allocates is
// the compiler's: another nvcc may need this looked at again.
TEST_CASE("rodas5p: the Pollution kernels in float use no local memory") {
    const solver<catalogue::pollution<float>, rodas5p, pi_controller> s;
    const std::vector<float> y0 = pollution_states<float>(), k1(n, 0.35f);
    const batch_inputs<float> inputs{n, y0, k1};
    const auto settings = pollution_settings<pi_controller>(1e-5);
    for (const scheduling mapping : {scheduling::static_mapping, scheduling::balanced}) {
        const std::string name = scheduling_name(mapping);
        CAPTURE(name);
        const auto device = s.solve(inputs, settings, backends::cuda{.scheduling = mapping});
        CHECK(device.failures() == 0);
        REQUIRE(device.kernel.has_value());
        CHECK(device.kernel->scheduling == name);
        CHECK(device.kernel->local_bytes == 0);
    }
}

// Kvaerno5's 7 stage derivatives of Pollution's 20 states in float, 560 bytes a thread:
// the cuda backend's kernels take the variant that keeps them in shared memory
// (core/thread_shared.hpp), where in registers its kernel one trajectory per thread spilled
// 304 bytes; balanced, the kernel keeps more registers for its claims and spills 72 bytes
// (bench/RESULTS.md). kvaerno5 itself, as a user's own kernel would call it, keeps them in
// registers, and so would a solve asked for blocks larger than 256 threads (none of this
// kernel fits: its 255 registers a thread leave room for 256), or of fewer trajectories
// than filled_batch().
using kvaerno5_shared = thread_shared_variant_t<kvaerno5, catalogue::pollution<float>>;
static_assert(kvaerno5::thread_shared_bytes<catalogue::pollution<float>> == 0);
static_assert(kvaerno5_shared::thread_shared_bytes<catalogue::pollution<float>> == 7 * 20 * 4);
static_assert(
    std::is_same_v<thread_shared_variant_t<kvaerno5, catalogue::pollution<double>>, kvaerno5>);

TEST_CASE("kvaerno5: the Pollution kernels in float keep their stages in shared memory") {
    const solver<catalogue::pollution<float>, kvaerno5, pi_controller> s;
    const std::size_t count = filled_batch();
    const std::vector<float> y0 = pollution_states<float>(count), k1(count, 0.35f);
    const batch_inputs<float> inputs{count, y0, k1};
    const auto settings = pollution_settings<pi_controller>(1e-5);
    // A device that lets a block take less keeps the derivatives in registers.
    const std::size_t shared = 7 * 20 * 4 * thread_shared_block;
    const bool held = device_holds(shared);
    const auto one_per_thread =
        s.solve(inputs, settings, backends::cuda{.scheduling = scheduling::static_mapping});
    CHECK(one_per_thread.failures() == 0);
    REQUIRE(one_per_thread.kernel.has_value());
    CHECK(one_per_thread.kernel->shared_bytes == (held ? shared : 0));
    if (held) {
        CHECK(one_per_thread.kernel->local_bytes == 0);
        CHECK(one_per_thread.kernel->block_size <= thread_shared_block);
    }

    // Balanced: the same bits, from the same variant.
    const auto balanced =
        s.solve(inputs, settings, backends::cuda{.scheduling = scheduling::balanced});
    REQUIRE(balanced.kernel.has_value());
    CHECK(balanced.kernel->scheduling == "balanced");
    CHECK(balanced.kernel->shared_bytes == one_per_thread.kernel->shared_bytes);
    check_same_bits(balanced, one_per_thread, 20);

    // A smaller batch keeps them in registers.
    const std::vector<float> few_y0 = pollution_states<float>(), few_k1(n, 0.35f);
    const auto few = s.solve({n, few_y0, few_k1}, settings, backends::cuda{});
    REQUIRE(few.kernel.has_value());
    CHECK(few.kernel->shared_bytes == 0);

    // Named in its variant, the method is held to blocks of 256 threads, before any work.
    const solver<catalogue::pollution<float>, kvaerno5_shared, pi_controller> named;
    CHECK_THROWS_WITH_AS(named.solve(inputs, settings, backends::cuda{.block_size = 512}),
                         doctest::Contains("up to 256 threads"), std::invalid_argument);
}

// Radau IIA 5 on Pollution in float keeps 442 values through its Newton iteration
// (implicit_runge_kutta.hpp, iteration_values): the cuda backend's kernels take the variant
// that keeps the complex iteration matrix's factors (94 entries, 752 bytes a thread) in shared
// memory, and spill less (1,032 bytes a thread in registers, 376 with the variant, CUDA 13.0).
// In blocks of another size than 256 threads the solve keeps them in registers. The
// arithmetic is the same; ptxas fuses multiplies with adds by the code around them, and
// CUDA 13.0 gave these two kernels the same bits.
using radau_iia_5_shared = thread_shared_variant_t<radau_iia_5, catalogue::pollution<float>>;
static_assert(radau_iia_5::iteration_values<catalogue::pollution<float>>() == 442);
static_assert(radau_iia_5_shared::thread_shared_bytes<catalogue::pollution<float>> == 94 * 8);
static_assert(std::is_same_v<thread_shared_variant_t<radau_iia_5, catalogue::pollution<double>>,
                             radau_iia_5>);

TEST_CASE("radau_iia_5: the Pollution kernels in float keep the complex factors in shared memory") {
    const solver<catalogue::pollution<float>, radau_iia_5, gustafsson_controller> s;
    const std::size_t count = filled_batch();
    const std::vector<float> y0 = pollution_states<float>(count);
    const std::vector<float> k1 = log_spaced<float>(count, 3.5e-2, 3.5);
    const batch_inputs<float> inputs{count, y0, k1};
    const auto settings = pollution_settings<gustafsson_controller>(1e-5);
    check_variant_against_registers(s, inputs, settings, 94 * 8 * thread_shared_block, 20);
}

// Rodas5P on Lorenz 96 at 32 sites in float keeps 468 values a step (rosenbrock.hpp,
// step_values): the cuda backend's kernels take the variant that keeps W's factors in the
// pattern (212 entries, 848 bytes a thread) in shared memory, and then keep nothing in local
// memory, where in registers they spilled 2,248 bytes a thread (CUDA 13.0). The same bits
// as in registers, as for radau_iia_5 above.
using rodas5p_shared = thread_shared_variant_t<rodas5p, catalogue::lorenz96<float>>;
static_assert(rodas5p::step_values<catalogue::lorenz96<float>>() == 468);
static_assert(rodas5p_shared::thread_shared_bytes<catalogue::lorenz96<float>> == 212 * 4);
static_assert(
    std::is_same_v<thread_shared_variant_t<rodas5p, catalogue::pollution<float>>, rodas5p>);
static_assert(std::is_same_v<thread_shared_variant_t<rodas4, catalogue::lorenz96<float>>, rodas4>);

// On lanes: dirk's variant keeps each lane's stage derivatives, the factor variants only a
// thread's factors, which lanes share in registers instead.
static_assert(
    std::is_same_v<thread_shared_variant_t<on_lanes<kvaerno5, 4>, catalogue::pollution<float>>,
                   on_lanes<kvaerno5_shared, 4>>);
static_assert(
    std::is_same_v<thread_shared_variant_t<on_lanes<radau_iia_5, 4>, catalogue::pollution<float>>,
                   on_lanes<radau_iia_5, 4>>);
static_assert(
    std::is_same_v<thread_shared_variant_t<on_lanes<radau_iia_5, 1>, catalogue::pollution<float>>,
                   on_lanes<radau_iia_5_shared, 1>>);
static_assert(on_lanes<rodas5p_shared, 4>::thread_shared_bytes<catalogue::lorenz96<float>> == 0);
static_assert(on_lanes<rodas5p_shared, 1>::thread_shared_bytes<catalogue::lorenz96<float>> == 848);

// A variant named for a system whose factors it does not keep in shared memory keeps them in
// registers, as it declares no bytes of it.
static_assert(rodas5p_shared::thread_shared_bytes<catalogue::pollution<float>> == 0);
static_assert(
    !keeps_thread_shared_for<rodas5p_shared, right_hand_side<catalogue::pollution<float>>>());
static_assert(
    keeps_thread_shared_for<rodas5p_shared, right_hand_side<catalogue::lorenz96<float>>>());

TEST_CASE(
    "rodas5p: the Lorenz 96 kernels in float keep W's factors in shared memory, and "
    "nothing in local memory") {
    using lorenz96 = catalogue::lorenz96<float>;
    const solver<lorenz96, rodas5p, pi_controller> s;
    const std::size_t count = filled_batch();
    const std::vector<float> y0 = default_states<lorenz96>(count);
    const std::vector<float> forcing = log_spaced<float>(count, 6, 10);
    const batch_inputs<float> inputs{count, y0, forcing};
    solve_settings<pi_controller> settings;
    settings.t_end = 2;
    settings.dt = 2.0 / 1024;
    settings.atol = settings.rtol = {1e-5};
    const std::size_t shared = 212 * 4 * thread_shared_block;
    const auto variants =
        check_variant_against_registers(s, inputs, settings, shared, lorenz96::n_states);
    if (device_holds(shared))
        for (const auto& variant : variants) CHECK(variant.kernel->local_bytes == 0);
}
