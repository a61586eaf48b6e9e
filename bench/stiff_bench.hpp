#pragma once
// The Pollution benchmark's shared parts (stiff_bench.cu): the sweep, one method's timed
// run in one precision against the float64 reference, and the row it prints.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "cubie/catalogue/pollution.hpp"
#include "cubie/solver/solver.hpp"
#include "sweep_options.hpp"

namespace stiff_bench {

template <class T>
using pollution = cubie::catalogue::pollution<T>;
constexpr int n_states = pollution<double>::n_states;
constexpr double t_end = 60;

/// The batch: every trajectory from the Bari initial state, k1 log-spaced over
/// [3.5e-2, 3.5] (benchmarks.md), and the float64 reference final states [state][trajectory].
struct sweep {
    std::size_t n = 0;
    std::vector<double> y0, k1;
    std::vector<double> reference;
    double tol = 1e-5;  ///< atol = rtol of the timed solves
    int repeat = 3;
    bool host = true;  ///< also time the host backend, the ratio's reference

    sweep(std::size_t trajectories, double tolerance, int repeats, bool time_host)
        : n(trajectories),
          y0(n_states * trajectories),
          k1(trajectories),
          tol(tolerance),
          repeat(repeats),
          host(time_host) {
        for (int s = 0; s < n_states; ++s)
            std::fill_n(y0.begin() + s * n, n, pollution<double>::default_state[s]);
        for (std::size_t i = 0; i < n; ++i)
            k1[i] = 3.5e-2 * std::pow(100.0, n > 1 ? double(i) / double(n - 1) : 0.0);
    }

    template <class T>
    cubie::batch_inputs<T> inputs(std::vector<T>& states, std::vector<T>& parameters) const {
        states.assign(y0.begin(), y0.end());
        parameters.assign(k1.begin(), k1.end());
        return {n, states, parameters};
    }
};

/// One method in one precision: times, resources, work and error.
struct row {
    std::string method, precision;
    double kernel_ms = std::numeric_limits<double>::infinity();
    double solve_ms = std::numeric_limits<double>::infinity();
    double host_ms = std::numeric_limits<double>::quiet_NaN();
    int lanes = 1;  ///< per trajectory
    int registers = 0;
    std::size_t local_bytes = 0;
    std::size_t failures = 0, host_failures = 0;
    double steps = 0, rejected = 0, newton = 0, linear = 0;  ///< means per trajectory
    double error_median = 0, error_max = 0;  ///< in tolerances: |y - ref| / (atol + rtol |ref|)
};

template <class Array>
double mean_of(const Array& a) {
    if (a.empty()) return 0;
    return std::accumulate(a.begin(), a.end(), 0.0) / double(a.size());
}

/// Per successful trajectory, the largest error of a final state in units of the tolerance.
template <class T>
void measure_error(const sweep& s, const cubie::batch_result<T>& r, row& out) {
    std::vector<double> errors;
    for (std::size_t i = 0; i < s.n; ++i) {
        if (r.statuses[i] != cubie::status::success) continue;
        double worst = 0;
        for (int v = 0; v < n_states; ++v) {
            const double ref = s.reference[v * s.n + i];
            const double e =
                std::abs(double(r.final_state(v, i)) - ref) / (s.tol + s.tol * std::abs(ref));
            worst = std::max(worst, std::isnan(e) ? std::numeric_limits<double>::infinity() : e);
        }
        errors.push_back(worst);
    }
    if (errors.empty()) return;
    std::sort(errors.begin(), errors.end());
    out.error_median = errors[errors.size() / 2];
    out.error_max = errors.back();
}

template <class Controller>
cubie::solve_settings<Controller> timing_settings(double tol) {
    cubie::solve_settings<Controller> settings;
    settings.t_end = t_end;
    settings.dt = t_end / 1024;  // benchmarks.md: initial dt = duration * 2^-10
    settings.atol = settings.rtol = {tol};
    // Pollution takes tens of steps at 1e-5 and thousands at 1e-10: a method that cannot
    // make progress ends with max_steps_exceeded (reported) rather than stalling the run.
    settings.max_steps = 100'000;
    return settings;
}

/// Fastest of s.repeat cuda solves after a warm-up, one host solve when asked, and the
/// last cuda result's work and error.
template <class T, class Method, class Controller>
row run(const char* method, const sweep& s) {
    const cubie::solver<pollution<T>, Method, Controller> solver;
    const auto settings = timing_settings<Controller>(s.tol);
    std::vector<T> states, parameters;
    const cubie::batch_inputs<T> inputs = s.inputs(states, parameters);
    row out;
    out.method = method;
    out.precision = sizeof(T) == 4 ? "float" : "double";
    cubie::batch_result<T> r;
    for (int k = 0; k <= s.repeat; ++k) {  // k == 0: warm-up
        r = {};
        const double start = bench::now_ms();
        r = solver.solve(inputs, settings, cubie::backends::cuda{});
        const double ms = bench::now_ms() - start;
        const cubie::kernel_report& kernel = r.kernel.value();
        out.lanes = kernel.lanes_per_trajectory;
        out.registers = kernel.registers;
        out.local_bytes = kernel.local_bytes;
        if (k == 0) continue;
        out.solve_ms = std::min(out.solve_ms, ms);
        out.kernel_ms = std::min(out.kernel_ms, double(kernel.milliseconds));
    }
    out.failures = r.failures();
    out.steps = mean_of(r.accepted_steps);
    out.rejected = mean_of(r.rejected_steps);
    out.newton = mean_of(r.newton_iterations);
    out.linear = mean_of(r.linear_iterations);
    measure_error(s, r, out);
    if (s.host) {
        const double start = bench::now_ms();
        const auto on_host = solver.solve(inputs, settings, cubie::backends::host{});
        out.host_ms = bench::now_ms() - start;
        out.host_failures = on_host.failures();
    }
    return out;
}

// One translation unit per method (stiff_<method>.cu), both precisions.
std::vector<row> run_rosenbrock23(const sweep& s);
std::vector<row> run_rodas5p(const sweep& s);
std::vector<row> run_kvaerno5(const sweep& s);
std::vector<row> run_radau_iia_5(const sweep& s);
/// rosenbrock23, rodas5p, kvaerno5 and radau_iia_5 on Lanes lanes per trajectory (stiff_lanes.cu:
/// 1, 4, 8, 16, 32).
template <int Lanes>
std::vector<row> run_on_lanes(const sweep& s);
template <>
std::vector<row> run_on_lanes<1>(const sweep& s);
template <>
std::vector<row> run_on_lanes<4>(const sweep& s);
template <>
std::vector<row> run_on_lanes<8>(const sweep& s);
template <>
std::vector<row> run_on_lanes<16>(const sweep& s);
template <>
std::vector<row> run_on_lanes<32>(const sweep& s);

/// The float64 reference final states: rodas5p at rtol 1e-10, atol 1e-14 (stiff_reference.cu),
/// and the largest difference to the same solve by kvaerno5, in units of the timing
/// tolerance (how far the reference itself can be trusted).
std::vector<double> reference_states(const sweep& s, double& disagreement);

}  // namespace stiff_bench
