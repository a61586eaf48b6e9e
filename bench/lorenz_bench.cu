// Lorenz rho-sweep benchmark (the protocol of the field: x0 = (1, 0, 0), rho = linspace(0,
// 21, N), t in [0, 1], float32, final state only). For each N it times, in one process,
// the hand-written reference kernels (reference_kernels.cuh) and the library, end to end
// (host-to-device copy, solve, device-to-host copy) and kernel alone, fastest of --repeat
// runs after a warm-up, and reports the error of every final state against a float64
// reference (the library's vern9 in double at rtol = atol = 1e-12).
//
//   lorenz_bench [--log2n 10,14,18,20,22,24] [--repeat 5] [--json FILE]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/device_buffer.hpp"
#include "lorenz_bench.hpp"
#include "reference_kernels.cuh"

namespace {

using namespace lorenz_bench;

struct row {
    std::size_t n;
    std::string method;
    timing hand, library;
    double hand_error, library_error, hand_steps, library_steps;
};

/// Pinned host memory, as a tuned user program would hold its inputs and outputs.
template <class T>
struct pinned {
    T* data = nullptr;
    explicit pinned(std::size_t n) { CUBIE_CUDA_CHECK(cudaMallocHost(&data, n * sizeof(T))); }
    ~pinned() { static_cast<void>(cudaFreeHost(data)); }
    pinned(const pinned&) = delete;
    pinned& operator=(const pinned&) = delete;
};

sweep make_sweep(std::size_t n) {
    sweep s{n, std::vector<float>(3 * n, 0.0f), std::vector<float>(n), {}};
    std::fill_n(s.y0.begin(), n, 1.0f);
    const double step = n > 1 ? 21.0 / static_cast<double>(n - 1) : 0.0;
    for (std::size_t i = 0; i < n; ++i)
        s.rho[i] = static_cast<float>(static_cast<double>(i) * step);
    if (n > 1) s.rho[n - 1] = 21.0f;

    s.reference = reference_final_states(s);
    return s;
}

template <class V>
double max_error(const V& final_states, const std::vector<double>& reference) {
    double e = 0;
    for (std::size_t i = 0; i < reference.size(); ++i)
        e = std::max(e, std::abs(static_cast<double>(final_states[i]) - reference[i]));
    return e;
}

/// The hand-written kernel, end to end with pinned buffers; returns the final states.
template <class Launch>
std::vector<float> run_hand(const sweep& s, int repeat, timing& t, std::vector<unsigned>* steps,
                            Launch launch) {
    const std::size_t n = s.n;
    pinned<float> in(4 * n), out(3 * n);
    pinned<unsigned> steps_host(n);
    std::copy(s.y0.begin(), s.y0.end(), in.data);
    std::copy(s.rho.begin(), s.rho.end(), in.data + 3 * n);
    cubie::device_buffer<float> d_in(4 * n), d_out(3 * n);
    cubie::device_buffer<unsigned> d_steps(n);
    cubie::cuda_event start, stop;
    for (int r = 0; r <= repeat; ++r) {  // r == 0: warm-up
        const double t0 = now_ms();
        CUBIE_CUDA_CHECK(
            cudaMemcpy(d_in.data(), in.data, 4 * n * sizeof(float), cudaMemcpyHostToDevice));
        start.record();
        launch(d_in.data(), d_in.data() + 3 * n, d_out.data(), d_steps.data());
        stop.record();
        CUBIE_CUDA_CHECK(cudaGetLastError());
        CUBIE_CUDA_CHECK(
            cudaMemcpy(out.data, d_out.data(), 3 * n * sizeof(float), cudaMemcpyDeviceToHost));
        const double e2e = now_ms() - t0;
        if (r > 0) t.keep_best(e2e, stop.milliseconds_since(start));
    }
    if (steps) {
        CUBIE_CUDA_CHECK(cudaMemcpy(steps_host.data, d_steps.data(), n * sizeof(unsigned),
                                    cudaMemcpyDeviceToHost));
        steps->assign(steps_host.data, steps_host.data + n);
    }
    return std::vector<float>(out.data, out.data + 3 * n);
}

double mean(const std::vector<unsigned>& v) {
    double sum = 0;
    for (unsigned x : v) sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

std::vector<row> measure(std::size_t n, int repeat) {
    const sweep s = make_sweep(n);
    const int blocks = static_cast<int>((n + 255) / 256);
    const int ni = static_cast<int>(n);
    std::vector<row> rows;

    row rk4{n, "classical_rk4 dt=2^-10", {}, {}, 0, 0, 1024, 1024};
    const auto hand =
        run_hand(s, repeat, rk4.hand, nullptr, [&](auto y0, auto rho, auto out, auto) {
            reference::rk4<<<blocks, 256>>>(y0, rho, out, ni, static_cast<float>(dt_fixed), 1024);
        });
    const auto lib = library_classical_rk4(s, repeat, rk4.library);
    rk4.hand_error = max_error(hand, s.reference);
    rk4.library_error = max_error(lib.final_states, s.reference);
    rows.push_back(rk4);

    row ts{n, "tsit5 tol=1e-5", {}, {}, 0, 0, 0, 0};
    std::vector<unsigned> hand_steps;
    const auto hand5 =
        run_hand(s, repeat, ts.hand, &hand_steps, [&](auto y0, auto rho, auto out, auto steps) {
            reference::tsit5<<<blocks, 256>>>(y0, rho, out, steps, ni, static_cast<float>(dt_fixed),
                                              static_cast<float>(tolerance));
        });
    const auto lib5 = library_tsit5(s, repeat, ts.library);
    std::vector<unsigned> lib_steps(n);
    for (std::size_t i = 0; i < n; ++i)
        lib_steps[i] = lib5.accepted_steps[i] + lib5.rejected_steps[i];
    ts.hand_error = max_error(hand5, s.reference);
    ts.library_error = max_error(lib5.final_states, s.reference);
    ts.hand_steps = mean(hand_steps);
    ts.library_steps = mean(lib_steps);
    rows.push_back(ts);
    return rows;
}

std::vector<int> parse_list(const std::string& text) {
    std::vector<int> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoi(item));
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> log2n = {10, 14, 18, 20, 22, 24};
    int repeat = 5;
    std::string json_path;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--log2n")
            log2n = parse_list(argv[i + 1]);
        else if (flag == "--repeat")
            repeat = std::stoi(argv[i + 1]);
        else if (flag == "--json")
            json_path = argv[i + 1];
        else {
            std::fprintf(stderr,
                         "usage: lorenz_bench [--log2n 10,14,...] [--repeat R] [--json FILE]\n");
            return 2;
        }
    }
    try {
        cudaDeviceProp p{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
        int clock_khz = 0;
        CUBIE_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
        const char* commit = std::getenv("CUBIE_COMMIT");
        std::printf("device %s, %d SMs, max SM clock %d MHz; commit %s\n", p.name,
                    p.multiProcessorCount, clock_khz / 1000, commit ? commit : "unknown");
        std::printf(
            "Lorenz float32, t in [0, 1], final state only; fastest of %d after a "
            "warm-up; inputs in pinned host memory for both, the library's result reused "
            "across solves\n\n",
            repeat);
        std::printf("%-9s %-24s %21s %21s %15s %19s %9s\n", "N", "method", "hand e2e / kernel ms",
                    "lib e2e / kernel ms", "lib/hand e2e", "lib/hand kernel", "max err");
        std::vector<row> all;
        for (int k : log2n) {
            for (const row& r : measure(std::size_t{1} << k, repeat)) {
                std::printf("2^%-7d %-24s %10.3f / %8.3f %10.3f / %8.3f %15.2f %19.2f %9.1e\n", k,
                            r.method.c_str(), r.hand.e2e_ms, r.hand.kernel_ms, r.library.e2e_ms,
                            r.library.kernel_ms, r.library.e2e_ms / r.hand.e2e_ms,
                            r.library.kernel_ms / r.hand.kernel_ms, r.library_error);
                all.push_back(r);
            }
        }
        if (!json_path.empty()) {
            std::FILE* f = std::fopen(json_path.c_str(), "w");
            if (!f) throw std::runtime_error("cannot write " + json_path);
            std::fprintf(f,
                         "{\"device\": \"%s\", \"sm_clock_mhz\": %d, \"commit\": \"%s\", "
                         "\"repeat\": %d, \"rows\": [\n",
                         p.name, clock_khz / 1000, commit ? commit : "unknown", repeat);
            for (std::size_t i = 0; i < all.size(); ++i) {
                const row& r = all[i];
                std::fprintf(f,
                             "  {\"n\": %zu, \"method\": \"%s\", \"hand_e2e_ms\": %.4f, "
                             "\"hand_kernel_ms\": %.4f, \"library_e2e_ms\": %.4f, "
                             "\"library_kernel_ms\": %.4f, \"hand_max_error\": %.3e, "
                             "\"library_max_error\": %.3e, \"hand_mean_steps\": %.2f, "
                             "\"library_mean_steps\": %.2f}%s\n",
                             r.n, r.method.c_str(), r.hand.e2e_ms, r.hand.kernel_ms,
                             r.library.e2e_ms, r.library.kernel_ms, r.hand_error, r.library_error,
                             r.hand_steps, r.library_steps, i + 1 < all.size() ? "," : "");
            }
            std::fprintf(f, "]}\n");
            std::fclose(f);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lorenz_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
