#pragma once
// Solving the sweep with one method and precision on the backend the command line chose. A
// CUDA build compiles this with nvcc (cuda, host and automatic backends), a host-only build
// with the host compiler (host backend; automatic means host there).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "cubie/batch/batch_grid.hpp"
#include "cubie/catalogue/pollution.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "cubie/systems/variable_names.hpp"
#include "stiff_sweep/options.hpp"
#include "stiff_sweep/sweep_outcome.hpp"

namespace stiff_sweep {

/// k1 log-spaced over [3.5e-2, 3.5] (the benchmark protocol's range), rounded to the working
/// precision; a batch of one takes the Bari value.
template <class T>
std::vector<T> k1_values(std::size_t n) {
    if (n == 1) return {T(0.35)};
    std::vector<T> k1(n);
    for (std::size_t i = 0; i < n; ++i)
        k1[i] = static_cast<T>(3.5e-2 * std::pow(100.0, double(i) / double(n - 1)));
    return k1;
}

/// Solves the sweep o.repeat times and keeps the fastest time.
template <class Method, class T, class Backend>
sweep_outcome solve_sweep(const options& o, Backend backend) {
    using pollution = cubie::catalogue::pollution<T>;
    cubie::batch_grid<pollution> grid;  // the states not set start from the Bari values
    grid.set("k1", k1_values<T>(o.n));
    const cubie::grid_batch<T> batch = grid.combinatorial();

    cubie::solve_settings<cubie::pi_controller> settings;
    settings.t_end = 60;
    settings.dt = settings.t_end / 1024;
    settings.rtol = {o.rtol};
    settings.atol = {o.atol};

    const cubie::solver<pollution, Method, cubie::pi_controller> solver;
    sweep_outcome out;
    cubie::batch_result<T> result;
    for (int r = 0; r < o.repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        result = solver.solve(batch.inputs(), settings, backend);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (r == 0) out.first_seconds = seconds;
        if (r == 0 || seconds < out.best_seconds) {
            out.best_seconds = seconds;
            if (result.kernel) out.kernel_milliseconds = result.kernel->milliseconds;
        }
    }
    const std::vector<std::string> states = cubie::state_names<pollution>();
    const int o3 = static_cast<int>(std::find(states.begin(), states.end(), "O3") - states.begin());
    for (std::size_t i = 0; i < o.n; ++i) {
        out.k1.push_back(batch.parameters[i]);
        out.ozone.push_back(result.final_state(o3, i));
    }
    out.statuses = std::move(result.statuses);
    out.accepted_steps = std::move(result.accepted_steps);
    out.rejected_steps = std::move(result.rejected_steps);
    out.newton_iterations = std::move(result.newton_iterations);
    out.linear_iterations = std::move(result.linear_iterations);
    out.backend = result.backend;
    if (result.kernel) out.kernel = result.kernel->to_string();
    return out;
}

template <class Method, class T>
sweep_outcome run_method(const options& o) {
    if (o.backend == "host") return solve_sweep<Method, T>(o, cubie::backends::host{});
    const bool wants_cuda = o.backend == "cuda" || o.all_devices || !o.devices.empty();
#if defined(__CUDACC__)
    if (wants_cuda) {
        cubie::backends::cuda cuda;
        cuda.devices = o.all_devices ? cubie::backends::cuda::all_devices() : o.devices;
        return solve_sweep<Method, T>(o, cuda);
    }
#else
    if (wants_cuda)
        throw usage_error(
            "this stiff_sweep was built without CUDA: --backend cuda and --devices "
            "need a CUDA build");
#endif
    return solve_sweep<Method, T>(o, cubie::backends::automatic{});
}

}  // namespace stiff_sweep

/// Defines stiff_sweep::run_<method>_<precision>, declared in main.cpp.
#define CUBIE_STIFF_SWEEP_INSTANTIATE(method, precision)         \
    namespace stiff_sweep {                                      \
    sweep_outcome run_##method##_##precision(const options& o) { \
        return run_method<cubie::method, precision>(o);          \
    }                                                            \
    }
