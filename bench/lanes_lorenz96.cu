// lanes_bench's measurement of Lorenz 96 with LORENZ96_SITES sites, one translation unit per
// size, and another with summaries (lanes_lorenz96_summaries.cu): bench/CMakeLists.txt
// generates the System (LORENZ96_SYSTEM, in LORENZ96_HEADER) of each. For each method, precision
// and mapping (one thread, then tiles of 4 to 32 lanes): the kernel's milliseconds (best of the
// repeats), registers, local memory and block size, its ratio to one thread, and the largest
// difference of its final states from one thread's relative to 1 + |x| (large where F makes the
// system chaotic: solutions whose step sizes differ in the last bits part). With summaries, each
// trajectory also keeps every site's mean, maximum and minimum over one window of 512 samples (two
// of RK4's steps apart), and the difference is taken over those too.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include LORENZ96_HEADER
#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "lanes_bench.hpp"

namespace lanes_bench {
namespace {

template <class T>
struct run {
    double milliseconds = 1e300;
    cubie::batch_result<T> result;
};

template <class System, class Algorithm, class Controller, class... Outputs, class T>
run<T> measure(const cubie::batch_inputs<T>& inputs, const cubie::solve_settings<Controller>& s,
               int repeat) {
    const cubie::solver<System, Algorithm, Controller, Outputs...> solver;
    run<T> r;
    for (int k = 0; k <= repeat; ++k) {  // the first solve warms up
        cubie::batch_result<T> result = solver.solve(inputs, s, cubie::backends::cuda{});
        if (k > 0) r.milliseconds = std::min(r.milliseconds, double(result.kernel->milliseconds));
        r.result = std::move(result);
    }
    return r;
}

template <class T>
void report(const std::string& name, const run<T>& r, const run<T>& one) {
    double worst = 0;
    std::size_t differing_status = 0;
    const std::size_t n = r.result.statuses.size();
    for (std::size_t k = 0; k < n; ++k)
        if (r.result.statuses[k] != one.result.statuses[k]) ++differing_status;
    const auto compare = [&](const cubie::host_array<T>& values, const cubie::host_array<T>& to) {
        for (std::size_t k = 0; k < values.size(); ++k) {
            const double a = values[k], b = to[k];
            if (std::isfinite(b)) worst = std::max(worst, std::fabs(a - b) / (1 + std::fabs(b)));
        }
    };
    compare(r.result.final_states, one.result.final_states);
    compare(r.result.summaries, one.result.summaries);
    const cubie::kernel_report& kr = *r.result.kernel;
    std::printf(
        "%4d sites  %-6s %-9s %-28s %9.3f ms  ratio %5.2f  regs %3d  local %5zu B  block %4d  "
        "max diff %.2e  statuses differing %zu\n",
        LORENZ96_SITES, sizeof(T) == 4 ? "float" : "double",
        r.result.summaries.size() ? "summaries" : "final", name.c_str(), r.milliseconds,
        one.milliseconds / r.milliseconds, kr.registers, static_cast<std::size_t>(kr.local_bytes),
        kr.block_size, worst, differing_status);
    std::fflush(stdout);
}

/// Method (Controller) on System under one thread and each tile of lanes, keeping Outputs.
template <class System, class Method, class Controller, class... Outputs>
void measure_mappings(const char* method, const request& q) {
    using T = typename System::value_type;
    constexpr int sites = System::n_states;
    const std::size_t n = q.n;
    std::vector<T> states(sites * n), forcing(n);
    for (std::size_t k = 0; k < n; ++k) {
        forcing[k] = T(16.0 * double(k) / double(n - 1));
        for (int v = 0; v < sites; ++v) states[std::size_t(v) * n + k] = forcing[k];
        states[k] += T(0.01);
    }
    cubie::solve_settings<Controller> s;
    s.t_end = 10;
    s.dt = 10.0 / 1024;
    s.atol = s.rtol = {1e-5};
    s.max_steps = 1000000;
    if constexpr (sizeof...(Outputs) > 0) {  // a whole number of RK4's steps apart
        s.sample_summaries_every = s.t_end / 512;
        s.summarise_every = s.t_end;
    }
    const cubie::batch_inputs<T> inputs{n, states, forcing};
    using cubie::on_lanes;
    const run<T> one =
        measure<System, on_lanes<Method, 1>, Controller, Outputs...>(inputs, s, q.repeat);
    const auto name = [&](int lanes) {
        return std::string(method) +
               (lanes == 1 ? ", one thread" : ", " + std::to_string(lanes) + " lanes");
    };
    report(name(1), one, one);
    report(name(4),
           measure<System, on_lanes<Method, 4>, Controller, Outputs...>(inputs, s, q.repeat), one);
    report(name(8),
           measure<System, on_lanes<Method, 8>, Controller, Outputs...>(inputs, s, q.repeat), one);
    report(name(16),
           measure<System, on_lanes<Method, 16>, Controller, Outputs...>(inputs, s, q.repeat), one);
    report(name(32),
           measure<System, on_lanes<Method, 32>, Controller, Outputs...>(inputs, s, q.repeat), one);
}

template <class System, class... Outputs>
void measure_methods(const request& q) {
    if (lists(q.methods, "tsit5"))
        measure_mappings<System, cubie::tsit5, cubie::pi_controller, Outputs...>("tsit5", q);
    if (lists(q.methods, "rk4"))
        measure_mappings<System, cubie::classical_rk4, cubie::fixed_step, Outputs...>("rk4", q);
}

/// Each precision asked for, keeping Outputs.
template <class... Outputs>
void measure_precisions(const request& q) {
    using cubie::catalogue::LORENZ96_SYSTEM;
    if (lists(q.precisions, "float")) measure_methods<LORENZ96_SYSTEM<float>, Outputs...>(q);
    if (lists(q.precisions, "double")) measure_methods<LORENZ96_SYSTEM<double>, Outputs...>(q);
}

}  // namespace

#if defined(LANES_SUMMARIES)
template <>
void measure_lorenz96<LORENZ96_SITES, true>(const request& q) {
    measure_precisions<cubie::summaries<cubie::metrics::mean, cubie::metrics::extrema>>(q);
}
#else
template <>
void measure_lorenz96<LORENZ96_SITES, false>(const request& q) {
    measure_precisions(q);
}
#endif

}  // namespace lanes_bench
