// What outputs cost on the GPU, against the hardware. The Lorenz sweep of lorenz_bench
// (float32, rho = linspace(0, 21, N), t in [0, 1]) with classical_rk4 at dt = 2^-10, solved
// three ways in one process:
//   final      final states only
//   saves      states saved every 10 steps (102 saves of 3 states per trajectory)
//   summaries  mean and extrema of every state over windows of 0.25, sampled every step
// each by hand-written kernels (output_reference_kernels.cuh: the speed of light), by the
// library into a device_result (solve_on_device: the kernels alone) and into a host result
// (solve(): kernel time and e2e, from std::vector inputs to host results). Fastest of
// --repeat after a warm-up. The device's copy bandwidths are measured in the same run, and
// each figure is printed as a ratio to the references and against the goals:
//   saving kernel    <= 1.15 x max(final kernel, bytes written / device-to-device bandwidth)
//   summaries kernel <= 1.5 x final kernel
// The library's outputs are checked against the references' on a slice of the batch.
//
//   output_cost [--log2n 20] [--repeat 5]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "copy_bandwidth.cuh"
#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "device_banner.cuh"
#include "lorenz_sweep_inputs.cuh"
#include "output_reference_kernels.cuh"
#include "sweep_options.hpp"

namespace {

using lorenz = cubie::catalogue::lorenz<float>;
using settings_type = cubie::solve_settings<cubie::fixed_step>;
constexpr int steps = 1024;
constexpr double dt = 1.0 / steps;
constexpr int save_every_steps = 10;
constexpr int steps_per_window = 256;  // windows of 0.25
constexpr int threads_per_block = 256;

using final_solver = cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step>;
using saving_solver =
    cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step, cubie::save_state>;
using summarising_solver =
    cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step,
                  cubie::summaries<cubie::metrics::mean, cubie::metrics::extrema>>;

struct timing {
    double kernel_ms = std::numeric_limits<double>::infinity();
    double e2e_ms = std::numeric_limits<double>::infinity();  ///< host results only
};

/// The library into a host result: kernel and e2e times.
template <class Solver>
timing on_host(const cubie::batch_inputs<float>& inputs, const settings_type& settings,
               int repeat) {
    const Solver solver;
    timing t;
    for (int r = 0; r <= repeat; ++r) {  // r == 0: warm-up
        const double start = bench::now_ms();
        const auto result = solver.solve(inputs, settings, cubie::backends::cuda{});
        const double e2e = bench::now_ms() - start;
        if (result.failures() != 0) throw std::runtime_error("trajectories failed");
        if (r == 0) continue;
        t.e2e_ms = std::min(t.e2e_ms, e2e);
        t.kernel_ms = std::min(t.kernel_ms, double(result.kernel->milliseconds));
    }
    return t;
}

/// The library into a device_result reused between solves: kernel time; the result of the
/// last solve stays in `result`.
template <class Solver>
timing on_device(const cubie::batch_inputs<float>& inputs, const settings_type& settings,
                 int repeat, cubie::device_result<float>& result) {
    const Solver solver;
    timing t;
    for (int r = 0; r <= repeat; ++r) {
        solver.solve_on_device(inputs, settings, result);
        if (r > 0) t.kernel_ms = std::min(t.kernel_ms, double(result.kernel->milliseconds));
    }
    return t;
}

/// Rows `rows` x trajectories [0, count) of a [row][trajectory] device array of n columns.
std::vector<float> slice(const float* device, std::size_t rows, std::size_t n, std::size_t count) {
    std::vector<float> host(rows * count);
    CUBIE_CUDA_CHECK(cudaMemcpy2D(host.data(), count * sizeof(float), device, n * sizeof(float),
                                  count * sizeof(float), rows, cudaMemcpyDeviceToHost));
    return host;
}

/// Largest |library - reference| / max(1, |reference|) over a slice, row r of the library
/// against row reference_row[r] of the reference.
double largest_difference(const std::vector<float>& library, const std::vector<float>& reference,
                          const std::vector<std::size_t>& reference_row, std::size_t count) {
    double largest = 0;
    for (std::size_t r = 0; r < reference_row.size(); ++r)
        for (std::size_t i = 0; i < count; ++i) {
            const double a = library[r * count + i], b = reference[reference_row[r] * count + i];
            const double d = std::abs(a - b) / std::max(1.0, std::abs(b));
            largest =
                std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(largest, d);
        }
    return largest;
}

}  // namespace

int main(int argc, char** argv) {
    const auto options = bench::parse_sweep_options(argc, argv, {20, 5}, "output_cost");
    if (!options) return 2;
    const int log2n = options->log2n, repeat = options->repeat;
    try {
        bench::print_device_banner();
        const std::size_t n = std::size_t{1} << log2n;
        std::printf(
            "Lorenz float32, N = 2^%d, classical_rk4 dt = 2^-10, t in [0, 1]; fastest of "
            "%d after a warm-up\n",
            log2n, repeat);

        const bench::copy_bandwidth bandwidth =
            bench::measure_copy_bandwidth(std::size_t{2} << 30, std::size_t{1} << 30, repeat);
        std::printf(
            "measured: device-to-device %.0f GB/s (read + written), fill %.0f GB/s, "
            "device-to-host into page-locked memory %.1f GB/s\n\n",
            bandwidth.device_to_device_gb_s, bandwidth.device_fill_gb_s,
            bandwidth.device_to_host_gb_s);

        const bench::lorenz_sweep_inputs sweep(n);
        const cubie::batch_inputs<float> inputs = sweep.on_host(),
                                         device_inputs = sweep.on_device();
        const float *device_y0 = sweep.device_y0.data(), *device_rho = sweep.device_rho.data();

        settings_type s;
        s.dt = dt;
        auto saving = s;
        saving.save_every = save_every_steps * dt;
        auto summarising = s;
        summarising.summarise_every = steps_per_window * dt;
        summarising.sample_summaries_every = dt;

        const std::size_t saves = steps / save_every_steps, windows = steps / steps_per_window;
        const std::size_t saved_rows = 3 * saves, summary_rows = 9 * windows;
        const std::size_t checked = std::min<std::size_t>(n, 1 << 16);
        const auto blocks = static_cast<unsigned>((n + threads_per_block - 1) / threads_per_block);
        const int ni = static_cast<int>(n);
        const auto fdt = static_cast<float>(dt);
        cubie::device_buffer<float> final_states(3 * n);
        const auto launched = [] { CUBIE_CUDA_CHECK(cudaGetLastError()); };
        bool outputs_agree = true;

        // Final states only.
        const double reference_final_ms = bench::fastest_ms(repeat, [&] {
            reference::rk4<<<blocks, threads_per_block>>>(device_y0, device_rho,
                                                          final_states.data(), ni, fdt, steps);
            launched();
        });
        cubie::device_result<float> on_gpu;
        const timing final_device = on_device<final_solver>(device_inputs, s, repeat, on_gpu);

        // Saved series: the reference's and the library's, checked against each other.
        double reference_saves_ms = 0, saves_difference = 0;
        timing saves_device;
        {
            cubie::device_buffer<float> saved(saved_rows * n);
            reference_saves_ms = bench::fastest_ms(repeat, [&] {
                reference::rk4_saving<save_every_steps><<<blocks, threads_per_block>>>(
                    device_y0, device_rho, final_states.data(), saved.data(), ni, fdt, steps);
                launched();
            });
            saves_device = on_device<saving_solver>(device_inputs, saving, repeat, on_gpu);
            std::vector<std::size_t> same_row(saved_rows);
            for (std::size_t r = 0; r < saved_rows; ++r) same_row[r] = r;
            saves_difference =
                largest_difference(slice(on_gpu.saved.data(), saved_rows, n, checked),
                                   slice(saved.data(), saved_rows, n, checked), same_row, checked);
        }
        on_gpu = {};  // frees the saved series before the host solves

        // Summaries.
        double reference_summaries_ms = 0, summaries_difference = 0;
        timing summaries_device;
        {
            cubie::device_buffer<float> summaries(summary_rows * n);
            reference_summaries_ms = bench::fastest_ms(repeat, [&] {
                reference::rk4_summarising<steps_per_window><<<blocks, threads_per_block>>>(
                    device_y0, device_rho, final_states.data(), summaries.data(), ni, fdt, steps);
                launched();
            });
            summaries_device =
                on_device<summarising_solver>(device_inputs, summarising, repeat, on_gpu);
            const std::vector<std::string> reference_names = {
                "x.mean", "y.mean", "z.mean", "x.max", "y.max", "z.max", "x.min", "y.min", "z.min"};
            std::vector<std::size_t> reference_row;
            for (std::size_t w = 0; w < windows; ++w)
                for (const std::string& name : on_gpu.summary_legend) {
                    const auto at = std::find(reference_names.begin(), reference_names.end(), name);
                    if (at == reference_names.end())
                        throw std::logic_error("no reference for summary " + name);
                    reference_row.push_back(w * 9 + std::size_t(at - reference_names.begin()));
                }
            summaries_difference = largest_difference(
                slice(on_gpu.summaries.data(), summary_rows, n, checked),
                slice(summaries.data(), summary_rows, n, checked), reference_row, checked);
        }
        on_gpu = {};

        const timing final_host = on_host<final_solver>(inputs, s, repeat);
        const timing saves_host = on_host<saving_solver>(inputs, saving, repeat);
        const timing summaries_host = on_host<summarising_solver>(inputs, summarising, repeat);

        const double saved_bytes = double(saved_rows) * double(n) * sizeof(float);
        const double summary_bytes = double(summary_rows) * double(n) * sizeof(float);
        std::printf("%-10s %11s %11s %11s %11s %11s %11s %11s\n", "outputs", "output MB",
                    "reference", "device res", "x ref", "host res", "x ref", "e2e ms");
        const auto line = [&](const char* name, double bytes, double reference_ms,
                              const timing& device, const timing& host) {
            std::printf("%-10s %11.1f %11.3f %11.3f %11.2f %11.3f %11.2f %11.1f\n", name,
                        bytes / 1e6, reference_ms, device.kernel_ms,
                        device.kernel_ms / reference_ms, host.kernel_ms,
                        host.kernel_ms / reference_ms, host.e2e_ms);
        };
        std::printf(
            "(kernel ms: hand-written reference; library into a device_result and into a "
            "host result)\n");
        line("final", 0, reference_final_ms, final_device, final_host);
        line("saves", saved_bytes, reference_saves_ms, saves_device, saves_host);
        line("summaries", summary_bytes, reference_summaries_ms, summaries_device, summaries_host);

        const double write_floor_ms = saved_bytes / (bandwidth.device_to_device_gb_s * 1e6);
        std::printf("\nsaves write %.0f MB: %.3f ms at the device-to-device bandwidth\n",
                    saved_bytes / 1e6, write_floor_ms);
        const auto goal = [](const char* what, double ms, double bound_ms) {
            std::printf("goal %-42s %9.3f ms <= %9.3f ms: %.2f of the bound, %s\n", what, ms,
                        bound_ms, ms / bound_ms, ms <= bound_ms ? "met" : "MISSED");
        };
        goal("saving kernel (device result)", saves_device.kernel_ms,
             1.15 * std::max(final_device.kernel_ms, write_floor_ms));
        goal("saving kernel (host result)", saves_host.kernel_ms,
             1.15 * std::max(final_host.kernel_ms, write_floor_ms));
        goal("summaries kernel (device result)", summaries_device.kernel_ms,
             1.5 * final_device.kernel_ms);
        goal("summaries kernel (host result)", summaries_host.kernel_ms,
             1.5 * final_host.kernel_ms);
        std::printf(
            "saves e2e %.1f ms against final e2e + bytes / device-to-host = %.1f ms "
            "(x %.2f)\n",
            saves_host.e2e_ms,
            final_host.e2e_ms + saved_bytes / (bandwidth.device_to_host_gb_s * 1e6),
            saves_host.e2e_ms /
                (final_host.e2e_ms + saved_bytes / (bandwidth.device_to_host_gb_s * 1e6)));

        // Float rounding differs between the library's RK4 and the reference's (and the
        // mean's running update from a sum); a wrong row or time differs by far more.
        constexpr double tolerance = 1e-3;
        std::printf(
            "\nlibrary against reference, first %zu trajectories: saves %.2e, summaries "
            "%.2e (relative to max(1, |x|); tolerance %.0e)\n",
            checked, saves_difference, summaries_difference, tolerance);
        outputs_agree = saves_difference <= tolerance && summaries_difference <= tolerance;
        if (!outputs_agree) {
            std::fprintf(stderr, "output_cost: library and reference outputs disagree\n");
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "output_cost: %s\n", e.what());
        return 1;
    }
    return 0;
}
