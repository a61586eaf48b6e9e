#pragma once
// One library configuration under every schedule, for divergent_bench's translation units:
// the inputs copied to the device once, then rounds of one solve per schedule (the first
// round a warm-up), each into its own device_result, timed by the backend's events.

#include <algorithm>
#include <cstring>
#include <vector>

#include "cubie/backends/cuda.hpp"
#include "cubie/batch/device_result.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/solver/solver.hpp"
#include "divergent_bench.hpp"
#include "wall_clock.hpp"

namespace divergent_bench {

template <class A>
bool same_bits(const A& a, const A& b) {
    return a.size() == b.size() &&
           std::memcmp(a.data(), b.data(), a.size() * sizeof(typename A::value_type)) == 0;
}

template <class System, class Method>
measurement measure(const ensemble& e, const case_settings& s, int repeat) {
    cubie::solve_settings<cubie::pi_controller> settings;
    settings.t_end = s.t_end;
    settings.dt = s.t_end / 1024;
    settings.atol = settings.rtol = {s.tolerance};
    settings.max_steps = s.max_steps;
    const auto y0 = cubie::device_buffer<float>::copy_of(e.y0);
    const auto params = cubie::device_buffer<float>::copy_of(e.params);
    const cubie::batch_inputs<float> inputs{
        e.n, {y0.data(), y0.size()}, {params.data(), params.size()}};
    const cubie::solver<System, Method, cubie::pi_controller> solver;
    cubie::device_result<float> results[n_schedules];
    measurement m;
    for (int round = 0; round <= repeat; ++round)
        for (std::size_t k = 0; k < n_schedules; ++k) {
            const double start = bench::now_ms();
            solver.solve_on_device(inputs, settings, results[k],
                                   cubie::backends::cuda{.scheduling = schedules[k]});
            const double wall = bench::now_ms() - start;
            const cubie::kernel_report& report = *results[k].kernel;
            schedule_timing& t = m.timings[k];
            if (round == 1 || (round > 1 && report.milliseconds < t.kernel_ms))
                t.kernel_ms = report.milliseconds;
            if (round == 1 || (round > 1 && wall < t.wall_ms)) t.wall_ms = wall;
            t.registers = report.registers;
            t.block_size = report.block_size;
            t.blocks = report.blocks;
            t.chosen = report.scheduling;
            t.lane_use = report.lane_use;
        }
    const cubie::batch_result<float> fixed = results[0].to_host();
    for (std::size_t k = 1; k < n_schedules; ++k) {
        const cubie::batch_result<float> other = results[k].to_host();
        m.identical = m.identical && same_bits(fixed.final_states, other.final_states) &&
                      same_bits(fixed.statuses, other.statuses) &&
                      same_bits(fixed.accepted_steps, other.accepted_steps) &&
                      same_bits(fixed.rejected_steps, other.rejected_steps);
    }
    m.steps.resize(e.n);
    for (std::size_t i = 0; i < e.n; ++i)
        m.steps[i] = fixed.accepted_steps[i] + fixed.rejected_steps[i];
    m.failures = fixed.failures();
    return m;
}

}  // namespace divergent_bench
