// Non-stiff problems beyond Lorenz, in the protocol's settings (float32, final state only,
// one parameter swept linearly over the trajectories):
//   Lorenz 96 with 4 .. 128 sites, F over [0, 16], t in [0, 1], x_i = 8 but x_0 = 8.01;
//   Pleiades (Bari PLEI), the first star's mass m1 over [0.5, 2], t in [0, 3].
// For each: classical RK4 at dt = duration 2^-10, and Tsit5 at atol = rtol = 1e-5 from
// dt0 = duration 2^-10 (PI controller). The library against a hand-written kernel
// (reference_generic_kernels.cuh) in one process as lorenz_bench times them: end to end
// and kernel alone, fastest of --repeat after a warm-up, the two sides alternating; the
// error of every final state against a float64 reference (vern9 at 1e-12), over the
// trajectories solved; and how many failed (the library's status, the hand-written kernel's
// NaN, the reference's status): the swept masses bring some stars close to collision.
//
//   nonstiff_bench [--sites 4,8,16,32,64,128] [--log2n 17] [--pleiades-log2n 10,14,17,20]
//                  [--repeat 5] [--json FILE]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "command_line.hpp"
#include "device_banner.cuh"
#include "hand_contender.cuh"
#include "nonstiff_bench.hpp"
#include "reference_generic_kernels.cuh"

namespace {

using namespace nonstiff_bench;

/// Lorenz 96, plain CUDA: dx_i = (x_{i+1} - x_{i-2}) x_{i-1} - x_i + F, cyclic.
template <int Sites>
struct lorenz96 {
    static constexpr int n = Sites;
    __device__ static void rhs(const float (&x)[n], float F, float (&dx)[n]) {
#pragma unroll
        for (int i = 0; i < n; ++i)
            dx[i] = (x[(i + 1) % n] - x[(i + n - 2) % n]) * x[(i + n - 1) % n] - x[i] + F;
    }
};

/// Pleiades, plain CUDA: positions x, y, velocities u, v of seven stars of masses m1, 2 .. 7;
/// each pair's inverse cube distance once.
struct pleiades {
    static constexpr int n = 28;
    __device__ static void rhs(const float (&y)[n], float m1, float (&dy)[n]) {
        float ax[7] = {}, ay[7] = {};
#pragma unroll
        for (int i = 0; i < 7; ++i)
#pragma unroll
            for (int j = i + 1; j < 7; ++j) {
                const float dx = y[j] - y[i], dz = y[7 + j] - y[7 + i];
                const float inverse = rsqrtf(dx * dx + dz * dz);
                const float inverse_cube = inverse * inverse * inverse;
                const float mi = i == 0 ? m1 : float(i + 1), mj = float(j + 1);
                ax[i] += mj * dx * inverse_cube;
                ay[i] += mj * dz * inverse_cube;
                ax[j] -= mi * dx * inverse_cube;
                ay[j] -= mi * dz * inverse_cube;
            }
#pragma unroll
        for (int i = 0; i < 7; ++i) {
            dy[i] = y[14 + i];
            dy[7 + i] = y[21 + i];
            dy[14 + i] = ax[i];
            dy[21 + i] = ay[i];
        }
    }
};

struct row {
    std::string problem;
    int states;
    std::size_t n;
    std::string method;
    bench::comparison c;
};

/// n trajectories of `initial` with the parameter over [low, high].
ensemble make_ensemble(std::size_t n, const std::vector<float>& initial, double low, double high) {
    ensemble s{
        n, initial.size(), std::vector<float>(initial.size() * n), std::vector<float>(n), {}};
    for (std::size_t k = 0; k < initial.size(); ++k)
        std::fill_n(s.y0.begin() + k * n, n, initial[k]);
    for (std::size_t i = 0; i < n; ++i)
        s.params[i] =
            static_cast<float>(n > 1 ? low + (high - low) * double(i) / double(n - 1) : low);
    return s;
}

/// RK4 and Tsit5 at 1e-5 on one problem, hand-written and library.
template <class Problem>
std::vector<row> measure(const std::string& problem, ensemble s, const library_side& library,
                         double t_end, int repeat) {
    const double dt = t_end / 1024;
    constexpr double tolerance = 1e-5;
    s.reference = library.reference(s, dt, t_end);
    const auto blocks = static_cast<unsigned>((s.n + 255) / 256);
    const int ni = static_cast<int>(s.n);
    std::vector<row> rows;
    bench::hand_contender rk4(
        s, [&](const float* y0, const float* p, float* out, float*, unsigned*) {
            reference::generic_rk4<Problem>
                <<<blocks, 256>>>(y0, p, out, nullptr, ni, float(dt), 1024, 0);
        });
    rows.push_back({problem, Problem::n, s.n, "classical_rk4 dt=T/1024",
                    bench::compare(s, &rk4, *library.rk4(s, dt, t_end), repeat, 1024)});
    bench::hand_contender tsit5(
        s, [&](const float* y0, const float* p, float* out, float*, unsigned* steps) {
            reference::generic_tsit5<Problem><<<blocks, 256>>>(
                y0, p, out, nullptr, steps, ni, float(dt), float(tolerance), float(t_end), 0, 0);
        });
    rows.push_back({problem, Problem::n, s.n, "tsit5 tol=1e-05",
                    bench::compare(s, &tsit5, *library.tsit5(s, dt, tolerance, t_end), repeat, 0)});
    return rows;
}

template <int Sites>
std::vector<row> measure_lorenz96(std::size_t n, int repeat) {
    std::vector<float> initial(Sites, 8.0f);
    initial[0] = 8.01f;
    return measure<lorenz96<Sites>>("lorenz96", make_ensemble(n, initial, 0, 16),
                                    lorenz96_library<Sites>(), 1, repeat);
}

std::vector<row> measure_pleiades(std::size_t n, int repeat) {
    const std::vector<float> initial = {3, 3, -1, -3, 2, -2,    2,     3, -3, 2, 0,      0, -4, 4,
                                        0, 0, 0,  0,  0, 1.75f, -1.5f, 0, 0,  0, -1.25f, 1, 0,  0};
    return measure<pleiades>("pleiades", make_ensemble(n, initial, 0.5, 2), pleiades_library(), 3,
                             repeat);
}

/// The rows of Lorenz 96 with `sites` sites, dispatched to the sizes compiled in.
std::vector<row> measure_lorenz96(int sites, std::size_t n, int repeat) {
    std::vector<row> rows;
    bool compiled = false;
    [&]<std::size_t... k>(std::index_sequence<k...>) {
        ((lorenz96_sites[k] == sites
              ? (rows = measure_lorenz96<lorenz96_sites[k]>(n, repeat), compiled = true)
              : false),
         ...);
    }
    (std::make_index_sequence<std::size(lorenz96_sites)>{});
    if (!compiled)
        throw std::invalid_argument(
            "Lorenz 96 is compiled for 4, 8, 16, 32, 64 and 128 sites, not " +
            std::to_string(sites));
    return rows;
}

void print_row(const row& r) {
    const bench::comparison& c = r.c;
    const int log2n = static_cast<int>(std::lround(std::log2(static_cast<double>(r.n))));
    std::printf(
        "%-9s %4d 2^%-3d %-24s %9.3f / %8.3f %9.3f / %8.3f %7.3f %7.3f %8.1e %8.1e %7.1f %7.1f "
        "%zu/%zu/%zu\n",
        r.problem.c_str(), r.states, log2n, r.method.c_str(), c.hand.e2e_ms, c.hand.kernel_ms,
        c.library.e2e_ms, c.library.kernel_ms, c.library.e2e_ms / c.hand.e2e_ms,
        c.library.kernel_ms / c.hand.kernel_ms, c.library_error, c.hand_error, c.library_steps,
        c.hand_steps, c.library_failures, c.hand_failures, c.reference_failures);
    std::fflush(stdout);
}

void write_json(const std::string& path, const bench::device_banner& device, int repeat,
                const std::vector<row>& rows) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw std::runtime_error("cannot write " + path);
    std::fprintf(f,
                 "{\"device\": \"%s\", \"sm_clock_mhz\": %d, \"commit\": \"%s\", \"repeat\": %d, "
                 "\"precision\": \"float32, final state only\", \"rows\": [\n",
                 device.properties.name, device.clock_mhz, device.commit, repeat);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const row& r = rows[i];
        const bench::comparison& c = r.c;
        std::fprintf(f,
                     "  {\"problem\": \"%s\", \"states\": %d, \"n\": %zu, \"method\": \"%s\", "
                     "\"hand_e2e_ms\": %.4f, \"hand_kernel_ms\": %.4f, \"hand_max_error\": %.3e, "
                     "\"hand_mean_steps\": %.2f, \"library_e2e_ms\": %.4f, "
                     "\"library_kernel_ms\": %.4f, \"library_max_error\": %.3e, "
                     "\"library_mean_steps\": %.2f, \"library_failures\": %zu, "
                     "\"hand_failures\": %zu, \"reference_failures\": %zu}%s\n",
                     r.problem.c_str(), r.states, r.n, r.method.c_str(), c.hand.e2e_ms,
                     c.hand.kernel_ms, c.hand_error, c.hand_steps, c.library.e2e_ms,
                     c.library.kernel_ms, c.library_error, c.library_steps, c.library_failures,
                     c.hand_failures, c.reference_failures, i + 1 < rows.size() ? "," : "");
    }
    std::fprintf(f, "]}\n");
    std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sites(std::begin(lorenz96_sites), std::end(lorenz96_sites));
    std::vector<int> pleiades_log2n = {10, 14, 17, 20};
    int log2n = 17, repeat = 5;
    std::string json_path;
    if (!bench::parse_flags(
            argc, argv,
            {{"--sites", [&](const std::string& v) { sites = bench::parse_list<int>(v); }},
             {"--log2n", [&](const std::string& v) { log2n = std::stoi(v); }},
             {"--pleiades-log2n",
              [&](const std::string& v) { pleiades_log2n = bench::parse_list<int>(v); }},
             {"--repeat", [&](const std::string& v) { repeat = std::stoi(v); }},
             {"--json", [&](const std::string& v) { json_path = v; }}},
            "usage: nonstiff_bench [--sites 4,8,...] [--log2n 17] [--pleiades-log2n 10,14,...] "
            "[--repeat R] [--json FILE]"))
        return 2;
    try {
        const bench::device_banner device = bench::print_device_banner();
        std::printf(
            "float32, final state only; dt = dt0 = T 2^-10 over [0, T], atol = rtol = tol; "
            "fastest of %d after a warm-up, hand and library solves alternating (e2e and "
            "kernel as in lorenz_bench). Error: max over final states against float64; "
            "steps: mean attempted per trajectory\n\n",
            repeat);
        std::printf("%-9s %4s %-5s %-24s %20s %20s %7s %7s %8s %8s %7s %7s %s\n", "problem", "n_y",
                    "N", "method", "hand e2e / kernel ms", "lib e2e / kernel ms", "e2e", "kernel",
                    "max err", "max err", "steps", "steps", "failed");
        std::printf("%-9s %4s %-5s %-24s %20s %20s %7s %7s %8s %8s %7s %7s %s\n", "", "", "", "",
                    "", "", "lib/hand", "lib/hand", "lib", "hand", "lib", "hand", "lib/hand/ref");
        std::vector<row> all;
        const auto keep = [&](const std::vector<row>& rows) {
            for (const row& r : rows) {
                print_row(r);
                all.push_back(r);
            }
        };
        for (int k : sites) keep(measure_lorenz96(k, std::size_t{1} << log2n, repeat));
        for (int k : pleiades_log2n) keep(measure_pleiades(std::size_t{1} << k, repeat));
        if (!json_path.empty()) write_json(json_path, device, repeat, all);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nonstiff_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
