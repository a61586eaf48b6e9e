// The per-sample cost of each summary metric on the GPU. The Lorenz sweep of output_cost
// (float32, classical_rk4 at dt = 2^-10, 1024 steps), its states summarised over windows of
// 0.25 from a sample after every step, one metric (or set) at a time, into a device_result:
// kernel ms, the ratio to the final-states-only kernel, and the cost of one sample of the
// three states in nanoseconds of the whole device per trajectory-sample, (kernel - final)
// / (N x 1024). Metrics that share an accumulator share its work: std and rms, with the
// mean where it is asked for with them, cost one running state (Welford's moments); the
// mean alone keeps a compensated sum; max, min and extrema one pair.
//
//   summary_metric_cost [--log2n 20] [--repeat 5]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "device_banner.cuh"
#include "lorenz_sweep_inputs.cuh"
#include "sweep_options.hpp"

namespace {

using lorenz = cubie::catalogue::lorenz<float>;
using settings_type = cubie::solve_settings<cubie::fixed_step>;
constexpr int steps = 1024;
constexpr double dt = 1.0 / steps;

/// Kernel ms of the fastest of `repeat` solves after a warm-up, into one device_result.
template <class... Outputs>
double kernel_ms(const cubie::batch_inputs<float>& inputs, const settings_type& settings,
                 int repeat) {
    const cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step, Outputs...> solver;
    cubie::device_result<float> result;
    double best = std::numeric_limits<double>::infinity();
    for (int r = 0; r <= repeat; ++r) {
        solver.solve_on_device(inputs, settings, result);
        if (r > 0) best = std::min(best, double(result.kernel->milliseconds));
    }
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    const auto options = bench::parse_sweep_options(argc, argv, {20, 5}, "summary_metric_cost");
    if (!options) return 2;
    try {
        bench::print_device_banner();
        const std::size_t n = std::size_t{1} << options->log2n;
        const int repeat = options->repeat;
        std::printf(
            "Lorenz float32, N = 2^%d, classical_rk4 dt = 2^-10, 1024 steps; summaries of x, y, z "
            "over windows of 0.25 sampled every step; into a device_result, fastest of %d\n\n",
            options->log2n, repeat);
        const bench::lorenz_sweep_inputs sweep(n);
        const cubie::batch_inputs<float> inputs = sweep.on_device();

        settings_type s;
        s.dt = dt;
        const double final_ms = kernel_ms<>(inputs, s, repeat);
        auto summarising = s;
        summarising.summarise_every = 256 * dt;
        summarising.sample_summaries_every = dt;

        std::printf("%-26s %10s %9s %14s\n", "metrics", "kernel ms", "x final", "ns per sample");
        const auto line = [&](const char* name, double ms) {
            std::printf("%-26s %10.3f %9.2f %14.4f\n", name, ms, ms / final_ms,
                        (ms - final_ms) * 1e6 / (double(n) * steps));
        };
        line("(final states only)", final_ms);
        namespace m = cubie::metrics;
        line("mean", kernel_ms<cubie::summaries<m::mean>>(inputs, summarising, repeat));
        line("std", kernel_ms<cubie::summaries<m::std_dev>>(inputs, summarising, repeat));
        line("rms", kernel_ms<cubie::summaries<m::rms>>(inputs, summarising, repeat));
        line("mean_std_rms",
             kernel_ms<cubie::summaries<m::mean_std_rms>>(inputs, summarising, repeat));
        line("max", kernel_ms<cubie::summaries<m::max>>(inputs, summarising, repeat));
        line("min", kernel_ms<cubie::summaries<m::min>>(inputs, summarising, repeat));
        line("extrema", kernel_ms<cubie::summaries<m::extrema>>(inputs, summarising, repeat));
        line("max_magnitude",
             kernel_ms<cubie::summaries<m::max_magnitude>>(inputs, summarising, repeat));
        line("mean, extrema",
             kernel_ms<cubie::summaries<m::mean, m::extrema>>(inputs, summarising, repeat));
        line("mean_std_rms, extrema",
             kernel_ms<cubie::summaries<m::mean_std_rms, m::extrema>>(inputs, summarising, repeat));
        line("peaks<3>", kernel_ms<cubie::summaries<m::peaks<3>>>(inputs, summarising, repeat));
        line("dxdt_extrema",
             kernel_ms<cubie::summaries<m::dxdt_extrema>>(inputs, summarising, repeat));
        line("d2xdt2_extrema",
             kernel_ms<cubie::summaries<m::d2xdt2_extrema>>(inputs, summarising, repeat));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "summary_metric_cost: %s\n", e.what());
        return 1;
    }
    return 0;
}
