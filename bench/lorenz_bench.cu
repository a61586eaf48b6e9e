// Lorenz rho-sweep benchmark (the protocol of the field: x0 = (1, 0, 0), rho = linspace(0,
// 21, N), t in [0, 1], float32, final state only). For each N and method it times, in one
// process, a hand-written kernel (reference_kernels.cuh) where there is one and the
// library, end to end (host-to-device copy, solve, device-to-host copy) and kernel alone,
// fastest of --repeat solves after a warm-up with the two sides' solves alternating, and
// reports the error of every final state against a float64 reference (the library's vern9
// in double at rtol = atol = 1e-12).
//
// With --saves, the protocol's second mode instead, which exposes output bandwidth: about
// 100 saved states per trajectory (classical RK4 every 10 steps, Tsit5 at 1e-5 every 0.01
// from its interpolant), against hand-written kernels that save the same
// (reference_generic_kernels.cuh); the saved series of both sides are compared.
//
//   lorenz_bench [--log2n 10,14,18,20,22,24] [--tolerances 1e-5,1e-8] [--repeat 5]
//                [--saves] [--json FILE]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "device_banner.cuh"
#include "hand_contender.cuh"
#include "lorenz_bench.hpp"
#include "reference_generic_kernels.cuh"
#include "reference_kernels.cuh"

namespace {

using namespace lorenz_bench;

using bench::hand_contender;

/// The Lorenz problem for the generic hand-written kernels (the saving ones).
struct lorenz_problem {
    static constexpr int n = 3;
    __device__ static void rhs(const float (&y)[3], float rho, float (&dydt)[3]) {
        reference::lorenz(y[0], y[1], y[2], rho, dydt[0], dydt[1], dydt[2]);
    }
};

struct row {
    std::size_t n;
    std::string method;
    bench::comparison c;
    double library_mean_z;  ///< the ensemble mean of the final z, to check peers against
};

ensemble make_sweep(std::size_t n) {
    ensemble s{n, 3, std::vector<float>(3 * n, 0.0f), std::vector<float>(n), {}};
    std::fill_n(s.y0.begin(), n, 1.0f);
    const double step = n > 1 ? 21.0 / static_cast<double>(n - 1) : 0.0;
    for (std::size_t i = 0; i < n; ++i)
        s.params[i] = static_cast<float>(static_cast<double>(i) * step);
    if (n > 1) s.params[n - 1] = 21.0f;

    s.reference = reference_final_states(s);
    return s;
}

row compare(const ensemble& s, const std::string& method, contender* hand, contender& library,
            int repeat, unsigned fixed_steps) {
    row r{s.n, method, bench::compare(s, hand, library, repeat, fixed_steps), 0};
    double z = 0;
    for (std::size_t i = 0; i < s.n; ++i) z += r.c.library_final_states[2 * s.n + i];
    r.library_mean_z = z / static_cast<double>(s.n);
    return r;
}

/// Every method on the sweep of n trajectories, final states only.
std::vector<row> measure(std::size_t n, const std::vector<double>& tolerances, int repeat) {
    const ensemble s = make_sweep(n);
    const auto blocks = static_cast<unsigned>((n + 255) / 256);
    const int ni = static_cast<int>(n);
    const auto dt = static_cast<float>(dt_fixed);
    std::vector<row> rows;

    hand_contender rk4(s, [&](const float* y0, const float* rho, float* out, float*, unsigned*) {
        reference::rk4<<<blocks, 256>>>(y0, rho, out, ni, dt, 1024);
    });
    rows.push_back(
        compare(s, "classical_rk4 dt=2^-10", &rk4, *library_classical_rk4(s), repeat, 1024));
    hand_contender fixed_tsit5(
        s, [&](const float* y0, const float* rho, float* out, float*, unsigned*) {
            reference::fixed_tsit5<<<blocks, 256>>>(y0, rho, out, ni, dt, 1024);
        });
    rows.push_back(
        compare(s, "tsit5 dt=2^-10", &fixed_tsit5, *library_fixed_tsit5(s), repeat, 1024));
    for (const double tolerance : tolerances) {
        char text[32];
        std::snprintf(text, sizeof text, " tol=%g", tolerance);
        const std::string tol = text;
        hand_contender tsit5(
            s, [&](const float* y0, const float* rho, float* out, float*, unsigned* steps) {
                reference::tsit5<<<blocks, 256>>>(y0, rho, out, steps, ni, dt,
                                                  static_cast<float>(tolerance));
            });
        rows.push_back(compare(s, "tsit5" + tol, &tsit5, *library_tsit5(s, tolerance), repeat, 0));
        rows.push_back(compare(s, "dormand_prince_54" + tol, nullptr,
                               *library_dormand_prince_54(s, tolerance), repeat, 0));
        rows.push_back(compare(s, "cash_karp_54" + tol, nullptr,
                               *library_cash_karp_54(s, tolerance), repeat, 0));
    }
    return rows;
}

/// The saving mode on the sweep of n trajectories: classical RK4 saving every 10 steps
/// (102 saves) and Tsit5 at 1e-5 saving every 0.01 from its interpolant (100 saves).
std::vector<row> measure_saving(std::size_t n, int repeat) {
    const ensemble s = make_sweep(n);
    const auto blocks = static_cast<unsigned>((n + 255) / 256);
    const int ni = static_cast<int>(n);
    const auto dt = static_cast<float>(dt_fixed);
    constexpr unsigned every_steps = 10, rk4_saves = 1024 / every_steps, tsit5_saves = 100;
    constexpr double tolerance = 1e-5;
    std::vector<row> rows;

    hand_contender rk4(
        s,
        [&](const float* y0, const float* rho, float* out, float* saved, unsigned*) {
            reference::generic_rk4<lorenz_problem, true>
                <<<blocks, 256>>>(y0, rho, out, saved, ni, dt, 1024, every_steps);
        },
        rk4_saves);
    rows.push_back(compare(s, "classical_rk4 dt=2^-10 102 saves", &rk4,
                           *library_classical_rk4_saving(s, every_steps), repeat, 1024));
    hand_contender tsit5(
        s,
        [&](const float* y0, const float* rho, float* out, float* saved, unsigned* steps) {
            reference::generic_tsit5<lorenz_problem, true><<<blocks, 256>>>(
                y0, rho, out, saved, steps, ni, dt, float(tolerance), 1.0f, 0.01f, tsit5_saves);
        },
        tsit5_saves);
    rows.push_back(compare(s, "tsit5 tol=1e-05 100 saves", &tsit5,
                           *library_tsit5_saving(s, tolerance, 0.01), repeat, 0));
    return rows;
}

void print_row(const row& r) {
    const bench::comparison& c = r.c;
    const int log2n = static_cast<int>(std::lround(std::log2(static_cast<double>(r.n))));
    if (c.has_hand)
        std::printf("2^%-3d %-32s %9.3f / %8.3f %9.3f / %8.3f %7.3f %7.3f %8.1e %7.1f %7.1f", log2n,
                    r.method.c_str(), c.hand.e2e_ms, c.hand.kernel_ms, c.library.e2e_ms,
                    c.library.kernel_ms, c.library.e2e_ms / c.hand.e2e_ms,
                    c.library.kernel_ms / c.hand.kernel_ms, c.library_error, c.library_steps,
                    c.hand_steps);
    else
        std::printf("2^%-3d %-32s %20s %9.3f / %8.3f %7s %7s %8.1e %7.1f %7s", log2n,
                    r.method.c_str(), "-", c.library.e2e_ms, c.library.kernel_ms, "-", "-",
                    c.library_error, c.library_steps, "-");
    if (c.saved_difference != 0) std::printf("  saved: max |lib - hand| %.1e", c.saved_difference);
    if (c.library_failures + c.hand_failures != 0)
        std::printf("  failed: lib %zu, hand %zu", c.library_failures, c.hand_failures);
    std::printf("\n");
}

void write_json(const std::string& path, const bench::device_banner& device, int repeat,
                const char* problem, const std::vector<row>& rows) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw std::runtime_error("cannot write " + path);
    std::fprintf(f,
                 "{\"device\": \"%s\", \"sm_clock_mhz\": %d, \"commit\": \"%s\", \"repeat\": %d, "
                 "\"problem\": \"%s\", \"rows\": [\n",
                 device.properties.name, device.clock_mhz, device.commit, repeat, problem);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const row& r = rows[i];
        const bench::comparison& c = r.c;
        std::fprintf(f, "  {\"n\": %zu, \"method\": \"%s\", ", r.n, r.method.c_str());
        if (c.has_hand)
            std::fprintf(f,
                         "\"hand_e2e_ms\": %.4f, \"hand_kernel_ms\": %.4f, "
                         "\"hand_max_error\": %.3e, \"hand_mean_steps\": %.2f, "
                         "\"saved_max_difference\": %.3e, ",
                         c.hand.e2e_ms, c.hand.kernel_ms, c.hand_error, c.hand_steps,
                         c.saved_difference);
        std::fprintf(f,
                     "\"library_e2e_ms\": %.4f, \"library_kernel_ms\": %.4f, "
                     "\"library_max_error\": %.3e, \"library_mean_steps\": %.2f, "
                     "\"library_mean_z\": %.7g}%s\n",
                     c.library.e2e_ms, c.library.kernel_ms, c.library_error, c.library_steps,
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
    bool saving = false;
    std::string json_path;
    if (!bench::parse_flags(
            argc, argv,
            {{"--saves", [&](const std::string&) { saving = true; }, false},
             {"--log2n", [&](const std::string& v) { log2n = bench::parse_list<int>(v); }},
             {"--tolerances",
              [&](const std::string& v) { tolerances = bench::parse_list<double>(v); }},
             {"--repeat", [&](const std::string& v) { repeat = std::stoi(v); }},
             {"--json", [&](const std::string& v) { json_path = v; }}},
            "usage: lorenz_bench [--log2n 10,14,...] [--tolerances 1e-5,...] [--repeat R] "
            "[--saves] [--json FILE]"))
        return 2;
    try {
        const bench::device_banner device = bench::print_device_banner();
        std::printf(
            "Lorenz float32, t in [0, 1], %s, dt0 = 2^-10, atol = rtol = tol; "
            "fastest of %d after a warm-up, hand and library solves alternating. e2e: from "
            "pinned inputs to final states on the host (the library into a reused "
            "batch_result); kernel: the kernels alone (the library from device inputs into a "
            "device_result). Error: max over final states against float64; steps: mean "
            "attempted per trajectory\n\n",
            saving ? "saving the state" : "final state only", repeat);
        std::printf("%-5s %-32s %20s %20s %7s %7s %8s %7s %7s\n", "N", "method",
                    "hand e2e / kernel ms", "lib e2e / kernel ms", "e2e", "kernel", "max err",
                    "steps", "hand");
        std::printf("%-5s %-32s %20s %20s %7s %7s %8s %7s %7s\n", "", "", "", "", "lib/hand",
                    "lib/hand", "lib", "lib", "steps");
        std::vector<row> all;
        for (int k : log2n) {
            const std::size_t n = std::size_t{1} << k;
            for (const row& r :
                 saving ? measure_saving(n, repeat) : measure(n, tolerances, repeat)) {
                print_row(r);
                std::fflush(stdout);
                all.push_back(r);
            }
        }
        if (!json_path.empty())
            write_json(
                json_path, device, repeat,
                saving ? "lorenz float32, about 100 saves" : "lorenz float32, final state only",
                all);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lorenz_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
