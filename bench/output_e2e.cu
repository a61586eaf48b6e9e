// What a solve into host memory costs end to end beside the bytes it copies back. The
// workloads of output_cost (Lorenz float32, rho = linspace(0, 21, N), classical_rk4 at
// dt = 2^-10: final states only; 102 saves of 3 states; mean and extrema over windows of
// 0.25), each solved three ways, fastest of --repeat after a warm-up:
//   fresh   solve() into a new result each time (its first touch of every page included)
//   lock    the second solve into one batch_result, which page-locks its arrays
//   reused  later solves into that result: the device copies straight into its pages
// beside the page-locked device-to-host bandwidth measured in the same run (a 1 GiB
// cudaMemcpy), and the bound the reused solve is held to: the final-only reused e2e plus
// the output bytes at that bandwidth. With --stream DIR (library builds that have
// io/npy_stream.hpp) the saving workload is also solved into .npy files in DIR, streamed
// in a budget of an eighth of its result, against solve() then write_result_npy.
//
//   output_e2e [--log2n 20] [--repeat 5] [--stream DIR]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/io/npy_result.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "wall_clock.hpp"
#if __has_include("cubie/io/npy_stream.hpp")
#include "cubie/io/npy_stream.hpp"
#define OUTPUT_E2E_STREAMS 1
#endif

namespace {

using lorenz = cubie::catalogue::lorenz<float>;
using settings_type = cubie::solve_settings<cubie::fixed_step>;
constexpr double dt = 1.0 / 1024;
constexpr double inf = std::numeric_limits<double>::infinity();

struct timing {
    double kernel_ms = inf, fresh_ms = inf, lock_ms = inf, reused_ms = inf;
    double output_bytes = 0;  ///< bytes of saved series and summaries
};

template <class Solver>
timing measure(const Solver& solver, const cubie::batch_inputs<float>& inputs,
               const settings_type& settings, int repeat) {
    timing t;
    const auto check = [](const cubie::batch_result<float>& r) {
        if (r.failures() != 0) throw std::runtime_error("trajectories failed");
    };
    for (int r = 0; r <= repeat; ++r) {  // r == 0: warm-up
        const double start = bench::now_ms();
        const auto result = solver.solve(inputs, settings, cubie::backends::cuda{});
        const double e2e = bench::now_ms() - start;
        check(result);
        if (r > 0) t.fresh_ms = std::min(t.fresh_ms, e2e);
        t.output_bytes = double(result.saved.size() + result.summaries.size()) * sizeof(float);
    }
    cubie::batch_result<float> reused;
    solver.solve(inputs, settings, reused, cubie::backends::cuda{});
    double start = bench::now_ms();
    solver.solve(inputs, settings, reused, cubie::backends::cuda{});
    t.lock_ms = bench::now_ms() - start;
    for (int r = 0; r < repeat; ++r) {
        start = bench::now_ms();
        solver.solve(inputs, settings, reused, cubie::backends::cuda{});
        t.reused_ms = std::min(t.reused_ms, bench::now_ms() - start);
        check(reused);
        t.kernel_ms = std::min(t.kernel_ms, double(reused.kernel->milliseconds));
    }
    return t;
}

/// Page-locked device-to-host bandwidth, bytes per millisecond: the fastest of 5 copies of
/// 1 GiB after a warm-up.
double device_to_host_bandwidth() {
    const std::size_t bytes = std::size_t{1} << 30;
    void *device = nullptr, *host = nullptr;
    CUBIE_CUDA_CHECK(cudaMalloc(&device, bytes));
    CUBIE_CUDA_CHECK(cudaMallocHost(&host, bytes));
    CUBIE_CUDA_CHECK(cudaMemset(device, 1, bytes));
    cudaEvent_t start, stop;
    CUBIE_CUDA_CHECK(cudaEventCreate(&start));
    CUBIE_CUDA_CHECK(cudaEventCreate(&stop));
    float fastest = std::numeric_limits<float>::infinity();
    for (int r = 0; r <= 5; ++r) {
        CUBIE_CUDA_CHECK(cudaEventRecord(start));
        CUBIE_CUDA_CHECK(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
        CUBIE_CUDA_CHECK(cudaEventRecord(stop));
        CUBIE_CUDA_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CUBIE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (r > 0) fastest = std::min(fastest, ms);
    }
    CUBIE_CUDA_CHECK(cudaEventDestroy(start));
    CUBIE_CUDA_CHECK(cudaEventDestroy(stop));
    CUBIE_CUDA_CHECK(cudaFreeHost(host));
    CUBIE_CUDA_CHECK(cudaFree(device));
    return double(bytes) / fastest;
}

}  // namespace

int main(int argc, char** argv) {
    int log2n = 20, repeat = 5;
    std::string stream_directory;
    if (!bench::parse_flags(argc, argv,
                            {{"--log2n", [&](const std::string& v) { log2n = std::stoi(v); }},
                             {"--repeat", [&](const std::string& v) { repeat = std::stoi(v); }},
                             {"--stream", [&](const std::string& v) { stream_directory = v; }}},
                            "usage: output_e2e [--log2n 20] [--repeat 5] [--stream DIR]"))
        return 2;
    try {
        cudaDeviceProp p{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
        const char* commit = std::getenv("CUBIE_COMMIT");
        const std::size_t n = std::size_t{1} << log2n;
        std::printf("device %s, %d SMs; commit %s\n", p.name, p.multiProcessorCount,
                    commit ? commit : "unknown");
        std::printf(
            "Lorenz float32, N = 2^%d, classical_rk4 dt = 2^-10, t in [0, 1]; fastest of %d "
            "after a warm-up\n",
            log2n, repeat);
        const double d2h = device_to_host_bandwidth();
        std::printf("page-locked device-to-host copy: %.1f GB/s\n\n", d2h / 1e6);

        std::vector<float> y0(3 * n, 0.0f), rho(n);
        std::fill_n(y0.begin(), n, 1.0f);
        for (std::size_t i = 0; i < n; ++i) rho[i] = float(21.0 * double(i) / double(n - 1));
        const cubie::batch_inputs<float> inputs{n, y0, rho};

        settings_type s;
        s.dt = dt;
        using final_solver = cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step>;
        using saving_solver =
            cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step, cubie::save_state>;
        const timing final_only = measure(final_solver{}, inputs, s, repeat);
        auto saving = s;
        saving.save_every = 10 * dt;
        const timing saves = measure(saving_solver{}, inputs, saving, repeat);
        auto summarising = s;
        summarising.summarise_every = 0.25;
        summarising.sample_summaries_every = dt;
        const timing summaries = measure(
            cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step,
                          cubie::summaries<cubie::metrics::mean, cubie::metrics::extrema>>{},
            inputs, summarising, repeat);

        std::printf("%-10s %10s %10s %10s %10s %10s %12s %10s %12s\n", "outputs", "kernel ms",
                    "fresh ms", "lock ms", "reused ms", "output GB", "bytes/D2H ms", "bound ms",
                    "reused/bound");
        const auto line = [&](const char* name, const timing& t) {
            const double copy_ms = t.output_bytes / d2h;
            const double bound = final_only.reused_ms + copy_ms;
            std::printf("%-10s %10.3f %10.3f %10.3f %10.3f %10.3f %12.3f %10.3f %12.2f\n", name,
                        t.kernel_ms, t.fresh_ms, t.lock_ms, t.reused_ms, t.output_bytes / 1e9,
                        copy_ms, bound, t.reused_ms / bound);
        };
        line("final", final_only);
        line("saves", saves);
        line("summaries", summaries);

        if (!stream_directory.empty()) {
#if OUTPUT_E2E_STREAMS
            const saving_solver solver;
            const std::filesystem::path whole = std::filesystem::path(stream_directory) / "whole";
            const std::filesystem::path streamed =
                std::filesystem::path(stream_directory) / "streamed";
            double start = bench::now_ms();
            {
                const auto r = solver.solve(inputs, saving, cubie::backends::cuda{});
                cubie::write_result_npy(r, whole);
            }
            const double whole_ms = bench::now_ms() - start;
            const auto budget =
                static_cast<std::size_t>(solver.plan(inputs, saving).result_bytes(n) / 8);
            start = bench::now_ms();
            const cubie::stream_report report = cubie::solve_to_npy(
                solver, inputs, saving, streamed, {budget, false}, cubie::backends::cuda{});
            const double streamed_ms = bench::now_ms() - start;
            std::printf(
                "\nsaves into .npy files: solve() then write_result_npy %.1f ms; solve_to_npy in "
                "a budget of %.1f MB (%zu chunks of %zu) %.1f ms\n",
                whole_ms, double(budget) / 1e6, report.chunks, report.chunk_trajectories,
                streamed_ms);
#else
            std::printf("\n--stream: this library has no io/npy_stream.hpp\n");
#endif
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "output_e2e: %s\n", e.what());
        return 1;
    }
    return 0;
}
