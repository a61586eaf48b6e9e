// Stiff benchmark: Pollution (Verwer 1994; Bari POLLU), 20 states, t in [0, 60], k1
// log-spaced over [3.5e-2, 3.5] across N = 2^log2n trajectories (benchmarks.md), final
// states only, atol = rtol = --tol (1e-5), initial dt = 60 * 2^-10, PI controller (Gustafsson's
// for radau_iia_5, as RADAU5).
// For each method in float and double: the cuda solve() (host vectors in, host result out)
// and its kernel alone (CUDA events), fastest of --repeat after a warm-up; the same solve on
// the host backend (OpenMP over every core, once) and the speed-up over it; registers and
// local memory per thread; failures; mean accepted and rejected steps, Newton and linear
// iterations per trajectory; and the achieved error of each trajectory's final state,
// max_i |y_i - ref_i| / (atol + rtol |ref_i|), median and max over the batch. The float64
// reference is rodas5p at rtol 1e-10, atol 1e-14, cross-checked against kvaerno5.
//
//   stiff_bench [--log2n 16] [--repeat 3] [--tol 1e-5] [--no-host] [--methods a,b,...]
//
// --methods runs only the named ones (rosenbrock23, rodas5p, kvaerno5, radau_iia_5, each as
// the solver maps it; lanes/G for G = 1, 4, 8, 16, 32: rosenbrock23, rodas5p, kvaerno5 and
// radau_iia_5 on G lanes per trajectory). Without it, the four methods as mapped.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "command_line.hpp"
#include "cubie/core/cuda_check.hpp"
#include "stiff_bench.hpp"

int main(int argc, char** argv) {
    int log2n = 16, repeat = 3;
    double tol = 1e-5;
    bool host = true;
    const std::pair<std::string, std::vector<stiff_bench::row> (*)(const stiff_bench::sweep&)>
        all_methods[] = {{"rosenbrock23", &stiff_bench::run_rosenbrock23},
                         {"rodas5p", &stiff_bench::run_rodas5p},
                         {"kvaerno5", &stiff_bench::run_kvaerno5},
                         {"radau_iia_5", &stiff_bench::run_radau_iia_5},
                         {"lanes/1", &stiff_bench::run_on_lanes<1>},
                         {"lanes/4", &stiff_bench::run_on_lanes<4>},
                         {"lanes/8", &stiff_bench::run_on_lanes<8>},
                         {"lanes/16", &stiff_bench::run_on_lanes<16>},
                         {"lanes/32", &stiff_bench::run_on_lanes<32>}};
    std::vector<std::string> methods;
    for (const auto& m : all_methods)
        if (m.first.find('/') == std::string::npos) methods.push_back(m.first);
    const auto take_methods = [&](const std::string& v) {
        methods = bench::parse_names(v);
        for (const std::string& name : methods)
            if (std::none_of(std::begin(all_methods), std::end(all_methods),
                             [&](const auto& m) { return m.first == name; }))
                throw std::invalid_argument(
                    "unknown method '" + name +
                    "' (rosenbrock23, rodas5p, kvaerno5, radau_iia_5, lanes/G for G "
                    "= 1, 4, 8, 16, 32)");
    };
    if (!bench::parse_flags(argc, argv,
                            {{"--log2n", [&](const std::string& v) { log2n = std::stoi(v); }},
                             {"--repeat", [&](const std::string& v) { repeat = std::stoi(v); }},
                             {"--tol", [&](const std::string& v) { tol = std::stod(v); }},
                             {"--no-host", [&](const std::string&) { host = false; }, false},
                             {"--methods", take_methods}},
                            "usage: stiff_bench [--log2n 16] [--repeat 3] [--tol 1e-5] "
                            "[--no-host] [--methods a,b,...]"))
        return 2;
    try {
        cudaDeviceProp p{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
        const char* commit = std::getenv("CUBIE_COMMIT");
        std::printf("%s, %d SMs; commit %s\n", p.name, p.multiProcessorCount,
                    commit ? commit : "unknown");
        stiff_bench::sweep s(std::size_t{1} << log2n, tol, repeat, host);
        std::printf(
            "Pollution, N = 2^%d, k1 log-spaced over [3.5e-2, 3.5], t in [0, 60], atol = rtol = "
            "%g, dt0 = 60/1024, PI controller (radau_iia_5: Gustafsson), final states only; "
            "fastest of %d after a "
            "warm-up%s\n",
            log2n, tol, repeat, host ? "; host: OpenMP, every core, once" : "");
        double disagreement = 0;
        s.reference = stiff_bench::reference_states(s, disagreement);
        std::printf(
            "reference: rodas5p at rtol 1e-10, atol 1e-14; kvaerno5 differs by at most "
            "%.2e tolerances\n\n",
            disagreement);
        std::printf("%-13s %-6s %5s %10s %10s %10s %8s %5s %6s %5s %8s %8s %8s %8s %9s %9s\n",
                    "method", "T", "lanes", "kernel ms", "solve ms", "host ms", "speedup", "regs",
                    "local", "fail", "steps", "rejected", "newton", "linear", "err med", "err max");
        for (const auto& [name, method] : all_methods) {
            if (std::find(methods.begin(), methods.end(), name) == methods.end()) continue;
            for (const stiff_bench::row& r : method(s)) {
                std::printf(
                    "%-13s %-6s %5d %10.2f %10.2f %10.1f %8.1f %5d %6zu %5zu %8.1f %8.1f "
                    "%8.1f %8.1f %9.3f %9.3f\n",
                    r.method.c_str(), r.precision.c_str(), r.lanes, r.kernel_ms, r.solve_ms,
                    r.host_ms, r.host_ms / r.solve_ms, r.registers, r.local_bytes, r.failures,
                    r.steps, r.rejected, r.newton, r.linear, r.error_median, r.error_max);
                if (host && r.host_failures != r.failures)
                    std::printf("  (host backend: %zu failures)\n", r.host_failures);
                std::fflush(stdout);
            }
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "stiff_bench: %s\n", e.what());
        return 1;
    }
}
