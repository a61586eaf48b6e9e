// Scaling over the GPUs of one host. The Lorenz sweep of lorenz_bench (float32, rho =
// linspace(0, 21, N)) with classical_rk4 at dt = 2^-10, t in [0, 1000 dt], saving x, y, z
// every 10 steps (100 saved points per trajectory), solved on 1, 2, 4, ... devices in one
// process. Prints for each: the kernel time (CUDA events; with several devices, the
// slowest device's), the solve() time from std::vector inputs to the host result, both
// fastest of --repeat after a warm-up, the speed-up over one device, and whether the
// result equals the one-device result bit for bit. Then where the one-device solve()'s time
// goes: filling host arrays of the result's size (as the solver does before the kernel:
// host_array.hpp, from every OpenMP thread),
// and solve_on_device (the result kept in device memory: the kernel, no copies).
//
//   multi_gpu_scaling [--log2n 24] [--repeat 3]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/host_array.hpp"
#include "cubie/solver/solver.hpp"
#include "sweep_options.hpp"

namespace {

using lorenz = cubie::catalogue::lorenz<float>;
using saving_solver =
    cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step, cubie::save_state>;
constexpr double dt = 1.0 / 1024;

struct timing {
    double solve_ms = std::numeric_limits<double>::infinity();
    double kernel_ms = std::numeric_limits<double>::infinity();
    std::size_t chunks = 0;
};

template <class T>
bool same_bits(const cubie::host_array<T>& a, const cubie::host_array<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

/// Fastest of `repeat` solves after a warm-up; the last result stays in `result`.
timing measure(const cubie::batch_inputs<float>& inputs,
               const cubie::solve_settings<cubie::fixed_step>& settings,
               const cubie::backends::cuda& backend, int repeat,
               cubie::batch_result<float>& result) {
    timing t;
    for (int r = 0; r <= repeat; ++r) {
        result = {};  // the previous result's memory goes back before the next is allocated
        const double start = bench::now_ms();
        result = saving_solver{}.solve(inputs, settings, backend);
        const double ms = bench::now_ms() - start;
        if (result.failures() != 0) throw std::runtime_error("trajectories failed");
        if (r == 0) continue;
        t.solve_ms = std::min(t.solve_ms, ms);
        t.kernel_ms = std::min(t.kernel_ms, double(result.kernel->milliseconds));
        t.chunks = result.kernel->chunks;
    }
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    const auto options = bench::parse_sweep_options(argc, argv, {24, 3}, "multi_gpu_scaling");
    if (!options) return 2;
    const int log2n = options->log2n, repeat = options->repeat;
    try {
        const std::vector<int> all = cubie::backends::cuda::all_devices();
        cudaDeviceProp p{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
        const char* commit = std::getenv("CUBIE_COMMIT");
        const std::size_t n = std::size_t{1} << log2n;
        std::printf("%zu x %s, %d SMs each; commit %s\n", all.size(), p.name, p.multiProcessorCount,
                    commit ? commit : "unknown");

        std::vector<float> y0(3 * n, 0.0f), rho(n);
        std::fill_n(y0.begin(), n, 1.0f);
        for (std::size_t i = 0; i < n; ++i) rho[i] = float(21.0 * double(i) / double(n - 1));
        const cubie::batch_inputs<float> inputs{n, y0, rho};
        cubie::solve_settings<cubie::fixed_step> settings;
        settings.dt = dt;
        settings.t_end = 1000 * dt;
        settings.save_every = 10 * dt;
        const auto plan = saving_solver{}.plan(settings);
        std::printf(
            "Lorenz float32, N = 2^%d, classical_rk4 dt = 2^-10, t in [0, 1000 dt], %zu saves "
            "of x, y, z (%.1f GB of results); fastest of %d after a warm-up\n\n",
            log2n, plan.save_times.size(), plan.result_bytes(n) / 1e9, repeat);

        std::printf("%-8s %10s %12s %10s %14s %12s %10s\n", "devices", "chunks", "kernel ms",
                    "solve ms", "kernel speedup", "solve speedup", "same bits");
        cubie::batch_result<float> one_device, result;
        timing base;
        for (std::size_t count = 1; count <= all.size(); count *= 2) {
            const cubie::backends::cuda backend{
                .devices = std::vector<int>(all.begin(), all.begin() + long(count))};
            const timing t = measure(inputs, settings, backend, repeat, result);
            if (count == 1) {
                base = t;
                one_device = std::move(result);
            }
            const cubie::batch_result<float>& r = count == 1 ? one_device : result;
            const bool same = same_bits(r.saved, one_device.saved) &&
                              same_bits(r.final_states, one_device.final_states);
            std::printf("%-8zu %10zu %12.2f %10.1f %14.2f %12.2f %10s\n", count, t.chunks,
                        t.kernel_ms, t.solve_ms, base.kernel_ms / t.kernel_ms,
                        base.solve_ms / t.solve_ms, same ? "yes" : "NO");
        }
        result = {};
        one_device = {};

        double fill_ms = std::numeric_limits<double>::infinity();
        double on_device_ms = std::numeric_limits<double>::infinity();
        cubie::device_result<float> kept;
        for (int r = 0; r <= repeat; ++r) {
            double start = bench::now_ms();
            {
                cubie::host_array<float> host(std::size_t(plan.result_bytes(n) / sizeof(float)));
                cubie::fill_in_parallel(host, std::numeric_limits<float>::quiet_NaN());
                fill_ms = std::min(fill_ms, bench::now_ms() - start);
            }
            start = bench::now_ms();
            saving_solver{}.solve_on_device(inputs, settings, kept,
                                            cubie::backends::cuda{.devices = {0}});
            if (r > 0) on_device_ms = std::min(on_device_ms, bench::now_ms() - start);
        }
        std::printf(
            "\none device: %.1f ms to allocate and fill host arrays of the result's size; "
            "%.1f ms for solve_on_device (result kept on the device)\n",
            fill_ms, on_device_ms);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "multi_gpu_scaling: %s\n", e.what());
        return 1;
    }
    return 0;
}
