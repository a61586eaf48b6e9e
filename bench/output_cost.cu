// What outputs cost on the GPU. The Lorenz sweep of lorenz_bench (float32, rho =
// linspace(0, 21, N), t in [0, 1]) with classical_rk4 at dt = 2^-10, solved three ways in
// one process:
//   final      final states only
//   saves      states saved every 10 steps (102 saves of 3 states per trajectory)
//   summaries  mean and extrema of every state over windows of 0.25, sampled every step
// Each prints the kernel time (CUDA events) and e2e time (solve() from std::vector inputs
// to host results), fastest of --repeat after a warm-up, its ratio to `final`, and for
// `saves` the device-memory bandwidth the kernel achieves writing the series.
//
//   output_cost [--log2n 20] [--repeat 5]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "sweep_options.hpp"

namespace {

using lorenz = cubie::catalogue::lorenz<float>;
constexpr double dt = 1.0 / 1024;

struct timing {
    double e2e_ms = std::numeric_limits<double>::infinity();
    double kernel_ms = std::numeric_limits<double>::infinity();
    std::size_t output_bytes = 0;  ///< bytes of saved series or summaries the kernel wrote
    int registers = 0;
};

template <class Solver>
timing measure(const Solver& solver, const cubie::batch_inputs<float>& inputs,
               const cubie::solve_settings<cubie::fixed_step>& settings, int repeat) {
    timing t;
    for (int r = 0; r <= repeat; ++r) {  // r == 0: warm-up
        const double start = bench::now_ms();
        const auto result = solver.solve(inputs, settings, cubie::backends::cuda{});
        const double e2e = bench::now_ms() - start;
        if (result.failures() != 0) throw std::runtime_error("trajectories failed");
        if (r == 0) continue;
        t.e2e_ms = std::min(t.e2e_ms, e2e);
        t.kernel_ms = std::min(t.kernel_ms, double(result.kernel->milliseconds));
        t.output_bytes = (result.saved.size() + result.summaries.size()) * sizeof(float);
        t.registers = result.kernel->registers;
    }
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    const auto options = bench::parse_sweep_options(argc, argv, {20, 5}, "output_cost");
    if (!options) return 2;
    const int log2n = options->log2n, repeat = options->repeat;
    try {
        cudaDeviceProp p{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
        const char* commit = std::getenv("CUBIE_COMMIT");
        const std::size_t n = std::size_t{1} << log2n;
        std::printf("device %s, %d SMs; commit %s\n", p.name, p.multiProcessorCount,
                    commit ? commit : "unknown");
        std::printf(
            "Lorenz float32, N = 2^%d, classical_rk4 dt = 2^-10, t in [0, 1]; fastest of "
            "%d after a warm-up\n\n",
            log2n, repeat);

        std::vector<float> y0(3 * n, 0.0f), rho(n);
        std::fill_n(y0.begin(), n, 1.0f);
        for (std::size_t i = 0; i < n; ++i) rho[i] = float(21.0 * double(i) / double(n - 1));
        const cubie::batch_inputs<float> inputs{n, y0, rho};

        cubie::solve_settings<cubie::fixed_step> s;
        s.dt = dt;
        const timing final_only = measure(
            cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step>{}, inputs, s, repeat);

        auto saving = s;
        saving.save_every = 10 * dt;
        const timing saves = measure(
            cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step, cubie::save_state>{},
            inputs, saving, repeat);

        auto summarising = s;
        summarising.summarise_every = 0.25;
        summarising.sample_summaries_every = dt;
        const timing summaries = measure(
            cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step,
                          cubie::summaries<cubie::metrics::mean, cubie::metrics::extrema>>{},
            inputs, summarising, repeat);

        std::printf("%-10s %12s %12s %14s %12s %14s %10s\n", "outputs", "kernel ms", "e2e ms",
                    "kernel ratio", "e2e ratio", "output MB", "registers");
        const auto line = [&](const char* name, const timing& t) {
            std::printf("%-10s %12.3f %12.3f %14.2f %12.2f %14.1f %10d\n", name, t.kernel_ms,
                        t.e2e_ms, t.kernel_ms / final_only.kernel_ms, t.e2e_ms / final_only.e2e_ms,
                        double(t.output_bytes) / 1e6, t.registers);
        };
        line("final", final_only);
        line("saves", saves);
        line("summaries", summaries);
        // Bytes the saving kernel writes (series, final states, statuses, step counts) and
        // reads (initial states and parameters), over its time.
        const double bytes = double(saves.output_bytes) + double(n) * (3 * 4 + 1 + 8 + 4 * 4);
        std::printf("\nsaves: %.1f GB/s of device memory traffic over the kernel (%.0f MB)\n",
                    bytes / (saves.kernel_ms * 1e6), bytes / 1e6);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "output_cost: %s\n", e.what());
        return 1;
    }
    return 0;
}
