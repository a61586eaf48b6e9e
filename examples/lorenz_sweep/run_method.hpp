#pragma once
// Solving the sweep with one method and precision: the controller and backend chosen on
// the command line select among the kernels compiled here. A CUDA build compiles this with
// nvcc (cuda, host and automatic backends), a host-only build with the host compiler (host
// backend; automatic means host there).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "cubie/controllers/i_controller.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/controllers/pid_controller.hpp"
#include "cubie/io/write_result.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "cubie/systems/variable_names.hpp"
#include "lorenz_sweep/options.hpp"
#include "lorenz_sweep/requested_outputs.hpp"
#include "lorenz_sweep/sweep_outcome.hpp"

namespace lorenz_sweep {

/// rho = linspace(0, 21, n) as NumPy computes it (i * step, the last value exactly 21),
/// rounded to the working precision.
template <class T>
std::vector<T> rho_values(std::size_t n) {
    std::vector<T> rho(n, T(0));
    if (n < 2) return rho;
    const double step = 21.0 / static_cast<double>(n - 1);
    for (std::size_t i = 0; i + 1 < n; ++i) rho[i] = static_cast<T>(static_cast<double>(i) * step);
    rho[n - 1] = T(21);
    return rho;
}

/// Every standard metric, sharing accumulators; --summaries picks the rows written.
using sweep_summaries =
    cubie::summaries<cubie::metrics::mean_std_rms, cubie::metrics::extrema,
                     cubie::metrics::max_magnitude, cubie::metrics::peaks<4>,
                     cubie::metrics::negative_peaks<4>, cubie::metrics::dxdt_extrema,
                     cubie::metrics::d2xdt2_extrema>;

/// Draws the solve's progress on one terminal line of stderr.
inline bool progress_bar(const cubie::solve_progress& p) {
    constexpr int width = 40;
    const int filled = static_cast<int>(width * p.done / p.total);
    std::fprintf(stderr, "\r[%.*s%*s] %3zu%%  %.3g trajectories/s  %.1f s left ", filled,
                 "========================================", width - filled, "",
                 100 * p.done / p.total, p.rate(), p.seconds_left());
    if (p.done == p.total) std::fputc('\n', stderr);
    return true;
}

/// About 64 samples per window, in whole steps of dt: each sample of an adaptive method is
/// an interpolation, and sampling every 2^-10 would cost more than its steps.
inline double default_sample_interval(double window, double dt) {
    return std::max(1.0, std::round(window / 64 / dt)) * dt;
}

/// Trajectories 0, n/4, n/2, 3n/4 and n - 1 (each once), for the results table.
inline std::vector<std::size_t> table_trajectories(std::size_t n) {
    std::vector<std::size_t> rows;
    for (std::size_t quarter = 0; quarter <= 4 && n > 0; ++quarter) {
        const std::size_t i = quarter == 4 ? n - 1 : quarter * n / 4;
        if (rows.empty() || rows.back() != i) rows.push_back(i);
    }
    return rows;
}

/// Solves the sweep o.repeat times with `solver`, keeps the fastest time, writes the
/// result to o.out.
template <class Solver, class Controller, class Backend, class T>
sweep_outcome timed_solves(const Solver& solver, const options& o,
                           const cubie::solve_settings<Controller>& settings, Backend backend,
                           const std::vector<T>& y0, const std::vector<T>& rho) {
    sweep_outcome out;
    cubie::batch_result<T> result;
    for (int r = 0; r < o.repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        cubie::solve_control control;
        if (o.progress) control.progress = progress_bar;
        result = solver.solve({o.n, y0, rho}, settings, backend, control);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (r == 0) out.first_seconds = out.best_seconds = seconds;
        out.best_seconds = std::min(out.best_seconds, seconds);
    }
    keep_requested(result, o);
    out.saves = result.n_saves();
    out.windows = result.n_windows();
    out.summary_rows = result.n_summary_rows();
    if (o.out) {  // with the inputs, so that the files say which rho each trajectory had
        result.keep_inputs({o.n, y0, rho}, cubie::parameter_names<cubie::catalogue::lorenz<T>>());
        cubie::write_result(result, *o.out, cubie::parse_result_format(o.format));
    }
    for (const std::size_t i : table_trajectories(o.n))
        out.table.push_back({i, rho[i], result.final_state(0, i), result.final_state(1, i),
                             result.final_state(2, i), result.statuses[i]});
    out.statuses = std::move(result.statuses);
    out.accepted_steps = std::move(result.accepted_steps);
    out.rejected_steps = std::move(result.rejected_steps);
    out.backend = result.backend;
    if (result.kernel) out.kernel = result.kernel->to_string();
    return out;
}

template <class Method, class Controller, class T, class Backend>
sweep_outcome solve_sweep(const options& o, Backend backend) {
    const std::vector<T> rho = rho_values<T>(o.n);
    std::vector<T> y0(3 * o.n, T(0));  // x0 = (1, 0, 0), laid out [state][trajectory]
    std::fill_n(y0.begin(), o.n, T(1));

    cubie::solve_settings<Controller> settings;
    settings.t0 = 0;
    settings.t_end = 1;
    if constexpr (Controller::adaptive) {
        settings.dt = 1.0 / 1024;
        settings.atol = {*o.tol};
        settings.rtol = {*o.tol};
    } else {
        settings.dt = *o.dt;
    }
    using lorenz = cubie::catalogue::lorenz<T>;
    if (!o.records_outputs())
        return timed_solves(cubie::solver<lorenz, Method, Controller>{}, o, settings, backend, y0,
                            rho);
    constexpr bool compiled_with_outputs = std::is_same_v<Controller, cubie::fixed_step> ||
                                           std::is_same_v<Controller, cubie::pi_controller>;
    if constexpr (compiled_with_outputs) {
        // One kernel saves and summarises; what was not asked for is computed at the
        // coarsest setting (one save, one window) and dropped before writing.
        settings.save_every = o.save_every.value_or(settings.t_end - settings.t0);
        settings.summarise_every = o.summarise_every.value_or(settings.t_end - settings.t0);
        settings.sample_summaries_every =
            o.sample_every.value_or(default_sample_interval(settings.summarise_every, settings.dt));
        using with_outputs = cubie::solver<lorenz, Method, Controller, cubie::save_state,
                                           cubie::save_counters, sweep_summaries>;
        return timed_solves(with_outputs{}, o, settings, backend, y0, rho);
    } else {
        throw usage_error("--save-every and --summaries run with the fixed and pi controllers");
    }
}

template <class Method, class Controller, class T>
sweep_outcome solve_on_backend(const options& o) {
    if (o.backend == "host") return solve_sweep<Method, Controller, T>(o, cubie::backends::host{});
    const bool wants_cuda = o.backend == "cuda" || o.all_devices || !o.devices.empty();
#if defined(__CUDACC__)
    if (wants_cuda) {
        cubie::backends::cuda cuda;
        cuda.devices = o.all_devices ? cubie::backends::cuda::all_devices() : o.devices;
        return solve_sweep<Method, Controller, T>(o, cuda);
    }
#else
    if (wants_cuda)
        throw usage_error(
            "this lorenz_sweep was built without CUDA: --backend cuda and --devices "
            "need a CUDA build");
#endif
    return solve_sweep<Method, Controller, T>(o, cubie::backends::automatic{});
}

template <class Method, class T>
sweep_outcome run_method(const options& o) {
    if (o.controller == "fixed") return solve_on_backend<Method, cubie::fixed_step, T>(o);
    if constexpr (Method::has_error_estimate) {
        if (o.controller == "i") return solve_on_backend<Method, cubie::i_controller, T>(o);
        if (o.controller == "pid") return solve_on_backend<Method, cubie::pid_controller, T>(o);
        if (o.controller == "gustafsson")
            return solve_on_backend<Method, cubie::gustafsson_controller, T>(o);
        return solve_on_backend<Method, cubie::pi_controller, T>(o);
    } else {
        throw usage_error(std::string(Method::name) +
                          " has no embedded error estimate: use it with --dt");
    }
}

}  // namespace lorenz_sweep

/// Defines lorenz_sweep::run_<method>_<precision>, declared in main.cpp.
#define CUBIE_LORENZ_SWEEP_INSTANTIATE(method, precision)        \
    namespace lorenz_sweep {                                     \
    sweep_outcome run_##method##_##precision(const options& o) { \
        return run_method<cubie::method, precision>(o);          \
    }                                                            \
    }
