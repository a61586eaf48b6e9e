// The library's side of event_bench: the bouncing ball and the Lorenz sweep, each with and
// without its events, timed as library_contender.cuh times a solve: end to end from
// page-locked inputs into one batch_result reused across solves, and the kernel alone from
// inputs in device memory into a device_result.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/batch/device_result.hpp"
#include "cubie/catalogue/bouncing_ball.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/pinned_buffer.hpp"
#include "cubie/solver/solver.hpp"
#include "event_bench.hpp"
#include "wall_clock.hpp"

namespace event_bench {
namespace {

using ball = cubie::catalogue::bouncing_ball<float>;
using lorenz = cubie::catalogue::lorenz<float>;

/// The trajectory ends where z rises through the threshold; its time and state are kept.
struct z_reaches {
    static constexpr const char* name = "z_reaches";
    static constexpr cubie::crossing direction = cubie::crossing::rising;
    static constexpr cubie::event_action action = cubie::event_action::terminate;
    CUBIE_HD float condition(float, const cubie::state_t<lorenz>& y,
                             const cubie::parameters_t<lorenz>&,
                             const cubie::drivers_t<lorenz>&) const {
        return y[2] - lorenz_threshold;
    }
};

double memory_in_use_mib() {
    std::size_t free_bytes = 0, total_bytes = 0;
    CUBIE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return double(total_bytes - free_bytes) / (1 << 20);
}

template <class System, class... Outputs>
run measure(const batch& b, double t_end, double dt_max, int repeat) {
    cubie::solver<System, cubie::tsit5, cubie::pi_controller, Outputs...> solver;
    cubie::solve_settings<cubie::pi_controller> settings;
    settings.t_end = t_end;
    settings.dt = first_step;
    settings.dt_max = dt_max;
    settings.atol = settings.rtol = {tolerance};
    cubie::pinned_buffer<float> y0(b.y0.size()), params(b.params.size());
    std::copy(b.y0.begin(), b.y0.end(), y0.data());
    std::copy(b.params.begin(), b.params.end(), params.data());
    const auto d_y0 = cubie::device_buffer<float>::copy_of(b.y0);
    const auto d_params = cubie::device_buffer<float>::copy_of(b.params);
    cubie::batch_result<float> result;
    cubie::device_result<float> on_device;

    run r;
    for (int k = 0; k <= repeat; ++k) {  // k == 0: the warm-up
        const double start = bench::now_ms();
        solver.solve({b.n, {y0.data(), y0.size()}, {params.data(), params.size()}}, settings,
                     result, cubie::backends::cuda{});
        const double e2e = bench::now_ms() - start;
        solver.solve_on_device(
            {b.n, {d_y0.data(), d_y0.size()}, {d_params.data(), d_params.size()}}, settings,
            on_device);
        if (k == 0) {
            r.memory_first_mib = memory_in_use_mib();
            continue;
        }
        r.e2e_ms = std::min(r.e2e_ms, e2e);
        r.kernel_ms = std::min(r.kernel_ms, double(on_device.kernel->milliseconds));
    }
    r.memory_last_mib = memory_in_use_mib();
    r.registers = on_device.kernel->registers;
    r.local_bytes = on_device.kernel->local_bytes;
    double steps = 0;
    for (std::size_t i = 0; i < b.n; ++i) {
        steps += double(result.accepted_steps[i]) + double(result.rejected_steps[i]);
        r.terminated += result.statuses[i] == cubie::status::terminated_by_event;
    }
    r.mean_steps = steps / double(b.n);
    r.counts.assign(result.event_counts.begin(), result.event_counts.end());
    r.times.assign(result.event_times.begin(), result.event_times.end());
    r.final_states.assign(result.final_states.begin(), result.final_states.end());
    return r;
}

}  // namespace

run library_ball(const batch& b, bool events, int repeat) {
    return events ? measure<ball, ball::events>(b, ball_t_end, ball_dt_max, repeat)
                  : measure<ball>(b, ball_t_end, ball_dt_max, repeat);
}

run library_lorenz(const batch& b, bool events, int repeat) {
    constexpr double none = std::numeric_limits<double>::infinity();
    return events ? measure<lorenz, cubie::events<z_reaches>>(b, lorenz_t_end, none, repeat)
                  : measure<lorenz>(b, lorenz_t_end, none, repeat);
}

}  // namespace event_bench
