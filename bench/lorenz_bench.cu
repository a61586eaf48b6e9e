// Lorenz rho-sweep benchmark (the protocol of the field: x0 = (1, 0, 0), rho = linspace(0,
// 21, N), t in [0, 1], float32, final state only). For each N and method it times, in one
// process, a hand-written kernel (reference_kernels.cuh) where there is one and the
// library, end to end (host-to-device copy, solve, device-to-host copy) and kernel alone,
// fastest of --repeat solves after a warm-up with the two sides' solves alternating, and
// reports the error of every final state against a float64 reference (the library's vern9
// in double at rtol = atol = 1e-12).
//
//   lorenz_bench [--log2n 10,14,18,20,22,24] [--tolerances 1e-5,1e-8] [--repeat 5]
//                [--json FILE]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/pinned_buffer.hpp"
#include "lorenz_bench.hpp"
#include "reference_kernels.cuh"

namespace {

using namespace lorenz_bench;

/// A hand-written kernel as a contender: pinned host buffers, copies of the inputs in
/// and of the final states out around one launch.
class hand_contender final : public contender {
public:
    using launch_type =
        std::function<void(const float* y0, const float* rho, float* out, unsigned* steps)>;

    hand_contender(const sweep& s, launch_type launch)
        : n_(s.n),
          launch_(std::move(launch)),
          in_(4 * n_),
          out_(3 * n_),
          d_in_(4 * n_),
          d_out_(3 * n_),
          d_steps_(n_) {
        std::copy(s.y0.begin(), s.y0.end(), in_.data());
        std::copy(s.rho.begin(), s.rho.end(), in_.data() + 3 * n_);
    }

    void solve_once(timing& t) override {
        const double t0 = now_ms();
        CUBIE_CUDA_CHECK(
            cudaMemcpy(d_in_.data(), in_.data(), 4 * n_ * sizeof(float), cudaMemcpyHostToDevice));
        start_.record();
        launch_(d_in_.data(), d_in_.data() + 3 * n_, d_out_.data(), d_steps_.data());
        stop_.record();
        CUBIE_CUDA_CHECK(cudaGetLastError());
        CUBIE_CUDA_CHECK(
            cudaMemcpy(out_.data(), d_out_.data(), 3 * n_ * sizeof(float), cudaMemcpyDeviceToHost));
        const double e2e = now_ms() - t0;
        t.keep_best(e2e, stop_.milliseconds_since(start_));
    }

    std::vector<float> final_states() const override { return {out_.data(), out_.data() + 3 * n_}; }
    std::vector<unsigned> steps() const override {
        std::vector<unsigned> steps(n_);
        d_steps_.copy_to(steps);
        return steps;
    }

private:
    std::size_t n_;
    launch_type launch_;
    cubie::pinned_buffer<float> in_, out_;
    cubie::device_buffer<float> d_in_, d_out_;
    cubie::device_buffer<unsigned> d_steps_;
    cubie::cuda_event start_, stop_;
};

struct row {
    std::size_t n;
    std::string method;
    bool has_hand;
    timing hand, library;
    double hand_error, library_error, hand_steps, library_steps;
    double library_mean_z;  ///< the ensemble mean of the final z, to check peers against
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

double max_error(const std::vector<float>& final_states, const std::vector<double>& reference) {
    double e = 0;
    for (std::size_t i = 0; i < reference.size(); ++i)
        e = std::max(e, std::abs(static_cast<double>(final_states[i]) - reference[i]));
    return e;
}

double mean(const std::vector<unsigned>& v) {
    double sum = 0;
    for (unsigned x : v) sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

/// One method on one sweep: the warm-up of both sides, then their solves alternating.
row compare(const sweep& s, const std::string& method, contender* hand, contender& library,
            int repeat, bool adaptive) {
    row r{s.n, method, hand != nullptr, {}, {}, 0, 0, 0, 0, 0};
    timing warm_up;
    if (hand) hand->solve_once(warm_up);
    library.solve_once(warm_up);
    for (int k = 0; k < repeat; ++k) {
        if (hand) hand->solve_once(r.hand);
        library.solve_once(r.library);
    }
    const std::vector<float> final_states = library.final_states();
    r.library_error = max_error(final_states, s.reference);
    double z = 0;
    for (std::size_t i = 0; i < s.n; ++i) z += final_states[2 * s.n + i];
    r.library_mean_z = z / static_cast<double>(s.n);
    r.library_steps = adaptive ? mean(library.steps()) : 1024;
    if (hand) {
        r.hand_error = max_error(hand->final_states(), s.reference);
        r.hand_steps = adaptive ? mean(hand->steps()) : 1024;
    }
    return r;
}

std::vector<row> measure(std::size_t n, const std::vector<double>& tolerances, int repeat) {
    const sweep s = make_sweep(n);
    const auto blocks = static_cast<unsigned>((n + 255) / 256);
    const int ni = static_cast<int>(n);
    const auto dt = static_cast<float>(dt_fixed);
    std::vector<row> rows;

    hand_contender rk4(s, [&](const float* y0, const float* rho, float* out, unsigned*) {
        reference::rk4<<<blocks, 256>>>(y0, rho, out, ni, dt, 1024);
    });
    rows.push_back(
        compare(s, "classical_rk4 dt=2^-10", &rk4, *library_classical_rk4(s), repeat, false));
    hand_contender fixed_tsit5(s, [&](const float* y0, const float* rho, float* out, unsigned*) {
        reference::fixed_tsit5<<<blocks, 256>>>(y0, rho, out, ni, dt, 1024);
    });
    rows.push_back(
        compare(s, "tsit5 dt=2^-10", &fixed_tsit5, *library_fixed_tsit5(s), repeat, false));
    for (const double tolerance : tolerances) {
        char text[32];
        std::snprintf(text, sizeof text, " tol=%g", tolerance);
        const std::string tol = text;
        hand_contender tsit5(s,
                             [&](const float* y0, const float* rho, float* out, unsigned* steps) {
                                 reference::tsit5<<<blocks, 256>>>(y0, rho, out, steps, ni, dt,
                                                                   static_cast<float>(tolerance));
                             });
        rows.push_back(
            compare(s, "tsit5" + tol, &tsit5, *library_tsit5(s, tolerance), repeat, true));
        rows.push_back(compare(s, "dormand_prince_54" + tol, nullptr,
                               *library_dormand_prince_54(s, tolerance), repeat, true));
        rows.push_back(compare(s, "cash_karp_54" + tol, nullptr,
                               *library_cash_karp_54(s, tolerance), repeat, true));
    }
    return rows;
}

template <class Number>
std::vector<Number> parse_list(const std::string& text) {
    std::vector<Number> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        out.push_back(static_cast<Number>(std::stod(item)));
    return out;
}

void print_row(const row& r) {
    const int log2n = static_cast<int>(std::lround(std::log2(static_cast<double>(r.n))));
    if (r.has_hand)
        std::printf("2^%-3d %-26s %9.3f / %8.3f %9.3f / %8.3f %7.3f %7.3f %8.1e %7.1f %7.1f\n",
                    log2n, r.method.c_str(), r.hand.e2e_ms, r.hand.kernel_ms, r.library.e2e_ms,
                    r.library.kernel_ms, r.library.e2e_ms / r.hand.e2e_ms,
                    r.library.kernel_ms / r.hand.kernel_ms, r.library_error, r.library_steps,
                    r.hand_steps);
    else
        std::printf("2^%-3d %-26s %20s %9.3f / %8.3f %7s %7s %8.1e %7.1f %7s\n", log2n,
                    r.method.c_str(), "-", r.library.e2e_ms, r.library.kernel_ms, "-", "-",
                    r.library_error, r.library_steps, "-");
}

void write_json(const std::string& path, const cudaDeviceProp& p, int clock_mhz, const char* commit,
                int repeat, const std::vector<row>& rows) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw std::runtime_error("cannot write " + path);
    std::fprintf(f,
                 "{\"device\": \"%s\", \"sm_clock_mhz\": %d, \"commit\": \"%s\", \"repeat\": %d, "
                 "\"problem\": \"lorenz float32, final state only\", \"rows\": [\n",
                 p.name, clock_mhz, commit, repeat);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const row& r = rows[i];
        std::fprintf(f, "  {\"n\": %zu, \"method\": \"%s\", ", r.n, r.method.c_str());
        if (r.has_hand)
            std::fprintf(f,
                         "\"hand_e2e_ms\": %.4f, \"hand_kernel_ms\": %.4f, "
                         "\"hand_max_error\": %.3e, \"hand_mean_steps\": %.2f, ",
                         r.hand.e2e_ms, r.hand.kernel_ms, r.hand_error, r.hand_steps);
        std::fprintf(f,
                     "\"library_e2e_ms\": %.4f, \"library_kernel_ms\": %.4f, "
                     "\"library_max_error\": %.3e, \"library_mean_steps\": %.2f, "
                     "\"library_mean_z\": %.7g}%s\n",
                     r.library.e2e_ms, r.library.kernel_ms, r.library_error, r.library_steps,
                     r.library_mean_z, i + 1 < rows.size() ? "," : "");
    }
    std::fprintf(f, "]}\n");
    std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> log2n = {10, 14, 18, 20, 22, 24};
    std::vector<double> tolerances = {1e-5, 1e-8};
    int repeat = 5;
    std::string json_path;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--log2n")
            log2n = parse_list<int>(argv[i + 1]);
        else if (flag == "--tolerances")
            tolerances = parse_list<double>(argv[i + 1]);
        else if (flag == "--repeat")
            repeat = std::stoi(argv[i + 1]);
        else if (flag == "--json")
            json_path = argv[i + 1];
        else {
            std::fprintf(stderr,
                         "usage: lorenz_bench [--log2n 10,14,...] [--tolerances 1e-5,...] "
                         "[--repeat R] [--json FILE]\n");
            return 2;
        }
    }
    try {
        cudaDeviceProp p{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
        int clock_khz = 0;
        CUBIE_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
        const char* env_commit = std::getenv("CUBIE_COMMIT");
        const char* commit = env_commit ? env_commit : "unknown";
        std::printf("device %s, %d SMs, max SM clock %d MHz; commit %s\n", p.name,
                    p.multiProcessorCount, clock_khz / 1000, commit);
        std::printf(
            "Lorenz float32, t in [0, 1], final state only, dt0 = 2^-10, atol = rtol = tol; "
            "fastest of %d after a warm-up, hand and library solves alternating. e2e: from "
            "pinned inputs to final states on the host (the library into a reused "
            "batch_result); kernel: the kernels alone (the library from device inputs into a "
            "device_result). Error: max over final states against float64; steps: mean "
            "attempted per trajectory\n\n",
            repeat);
        std::printf("%-5s %-26s %20s %20s %7s %7s %8s %7s %7s\n", "N", "method",
                    "hand e2e / kernel ms", "lib e2e / kernel ms", "e2e", "kernel", "max err",
                    "steps", "hand");
        std::printf("%-5s %-26s %20s %20s %7s %7s %8s %7s %7s\n", "", "", "", "", "lib/hand",
                    "lib/hand", "lib", "lib", "steps");
        std::vector<row> all;
        for (int k : log2n)
            for (const row& r : measure(std::size_t{1} << k, tolerances, repeat)) {
                print_row(r);
                std::fflush(stdout);
                all.push_back(r);
            }
        if (!json_path.empty()) write_json(json_path, p, clock_khz / 1000, commit, repeat, all);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lorenz_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
