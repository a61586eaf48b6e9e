#pragma once
// A batch's result kept in device memory: the arrays of batch_result, same layout and
// legends, in device buffers, for a next kernel or library call that reads them there,
// or for solves repeated many times (a fit, an optimisation) that should neither copy nor
// allocate. solver::solve_on_device fills one; handing it the same device_result again
// reuses its buffers when the sizes match.
//
//   cubie::device_result<float> out;
//   solver.solve_on_device(inputs, settings, out);    // inputs may be in device memory too
//   auto x = out.series("x");                         // [save][trajectory] device view
//   cubie::batch_result<float> host = out.to_host();  // when wanted

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cubie/batch/backend_workspace.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/result_legend.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/scoped_device.hpp"
#include "cubie/core/status.hpp"

namespace cubie {

template <class T>
struct device_result : result_legend<T> {
    int device = -1;                ///< the device whose memory holds the arrays
    device_buffer<T> final_states;  ///< [state][trajectory]
    device_buffer<status> statuses;
    device_buffer<std::uint32_t> accepted_steps;
    device_buffer<std::uint32_t> rejected_steps;
    device_buffer<std::uint32_t> newton_iterations;  ///< implicit methods only, else empty
    device_buffer<std::uint32_t> linear_iterations;
    device_buffer<T> saved;                       ///< [save][saved variable][trajectory]
    device_buffer<std::uint32_t> saved_counters;  ///< [save][counter][trajectory]
    device_buffer<T> summaries;                   ///< [window][summary row][trajectory]
    device_buffer<std::uint32_t> event_counts;    ///< [event][trajectory]
    device_buffer<T> event_times;                 ///< [event record][trajectory]
    device_buffer<T> event_states;                ///< [event record][state][trajectory]
    /// Buffers the backend keeps for the next solve into this result (inputs it copies).
    backend_workspace workspace;

    /// Device views, for kernels: [save][trajectory] of the saved variable called name,
    /// [save][saved variable] of one trajectory, [window][trajectory] of a summary row.
    result_view<T> series(const std::string& name) const {
        return this->series_of(saved.data(), name);
    }
    result_view<T> trajectory(std::size_t i) const { return this->trajectory_of(saved.data(), i); }
    result_view<T> summary(const std::string& name) const {
        return this->summary_of(summaries.data(), name);
    }
    /// [occurrence][trajectory] device views of an event's kept times and of one state there.
    result_view<T> event_times_of(const std::string& event) const {
        return result_legend<T>::event_times_of(event_times.data(), event);
    }
    result_view<T> event_states_of(const std::string& event, const std::string& state) const {
        return result_legend<T>::event_states_of(event_states.data(), event, state);
    }

    /// The same result in host memory.
    batch_result<T> to_host() const {
        batch_result<T> r;
        static_cast<result_legend<T>&>(r) = *this;
        const scoped_device on(device);
        copy(final_states, r.final_states);
        copy(statuses, r.statuses);
        copy(accepted_steps, r.accepted_steps);
        copy(rejected_steps, r.rejected_steps);
        copy(newton_iterations, r.newton_iterations);
        copy(linear_iterations, r.linear_iterations);
        copy(saved, r.saved);
        copy(saved_counters, r.saved_counters);
        copy(summaries, r.summaries);
        copy(event_counts, r.event_counts);
        copy(event_times, r.event_times);
        copy(event_states, r.event_states);
        return r;
    }

    /// Rows per trajectory of each array but the states and per-trajectory ones.
    struct rows {
        std::size_t iterations = 0;  ///< 1 for implicit methods, else 0
        std::size_t saved = 0, counters = 0, summaries = 0;
        std::size_t event_counts = 0, event_times = 0, event_states = 0;
    };

    /// Sizes the arrays for n trajectories on device `d` (the current one), keeping the
    /// buffers that already fit, and marks every trajectory unsolved: status cancelled,
    /// NaN values, counters 2^32 - 1, no steps, iterations or events. A solve overwrites
    /// what it integrates.
    void prepare(int d, std::size_t n, const rows& per_trajectory, cudaStream_t stream) {
        const std::size_t iteration_rows = per_trajectory.iterations;
        const bool moved = d != device;  // buffers on another device are replaced
        device = d;
        fit(final_states, static_cast<std::size_t>(this->n_states) * n, moved);
        fit(statuses, n, moved);
        fit(accepted_steps, n, moved);
        fit(rejected_steps, n, moved);
        fit(newton_iterations, iteration_rows * n, moved);
        fit(linear_iterations, iteration_rows * n, moved);
        fit(saved, per_trajectory.saved * n, moved);
        fit(saved_counters, per_trajectory.counters * n, moved);
        fit(summaries, per_trajectory.summaries * n, moved);
        fit(event_counts, per_trajectory.event_counts * n, moved);
        fit(event_times, per_trajectory.event_times * n, moved);
        fit(event_states, per_trajectory.event_states * n, moved);
        fill(final_states, 0xFF, stream);  // all bits set: NaN
        fill(statuses, static_cast<int>(status::cancelled), stream);
        fill(accepted_steps, 0, stream);
        fill(rejected_steps, 0, stream);
        fill(newton_iterations, 0, stream);
        fill(linear_iterations, 0, stream);
        fill(saved, 0xFF, stream);
        fill(saved_counters, 0xFF, stream);
        fill(summaries, 0xFF, stream);
        fill(event_counts, 0, stream);
        fill(event_times, 0xFF, stream);
        fill(event_states, 0xFF, stream);
    }

private:
    template <class U, class Host>
    static void copy(const device_buffer<U>& from, Host& to) {
        to.resize(from.size());
        from.copy_to(std::span<U>(to));
    }
    template <class U>
    static void fit(device_buffer<U>& b, std::size_t count, bool moved) {
        if (moved || b.size() != count) {
            b = device_buffer<U>{};  // free before allocating: the old size may be most of memory
            b = device_buffer<U>(count);
        }
    }
    template <class U>
    static void fill(device_buffer<U>& b, int byte, cudaStream_t stream) {
        if (b.size() > 0) CUBIE_CUDA_CHECK(cudaMemsetAsync(b.data(), byte, b.bytes(), stream));
    }
};

}  // namespace cubie
