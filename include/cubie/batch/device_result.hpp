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
#include "cubie/batch/result_fields.hpp"
#include "cubie/batch/result_legend.hpp"
#include "cubie/batch/result_views.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/scoped_device.hpp"
#include "cubie/core/status.hpp"

namespace cubie {

template <class T>
struct device_result : result_views<device_result<T>, T> {
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

    /// The same result in host memory.
    batch_result<T> to_host() const {
        batch_result<T> r;
        static_cast<result_legend<T>&>(r) = *this;
        const scoped_device on(device);
        for_each_result_field(
            [](const result_field&, const auto& from, auto& to) {
                to.resize(from.size());
                from.copy_to(std::span(to));
            },
            *this, r);
        return r;
    }

    /// Sizes the arrays for n trajectories on device `d` (the current one), keeping the
    /// buffers that already fit, and marks every trajectory unsolved: status cancelled,
    /// NaN values, counters 2^32 - 1, no steps, iterations or events. A solve overwrites
    /// what it integrates.
    void prepare(int d, std::size_t n, const result_rows& rows, cudaStream_t stream) {
        const bool moved = d != device;  // buffers on another device are replaced
        device = d;
        for_each_result_field(
            [&]<class U>(const result_field& f, device_buffer<U>& b) {
                const std::size_t count = rows.*f.rows * n;
                if (moved || b.size() != count) {
                    b = device_buffer<U>{};  // freed first: the old size may be most of memory
                    b = device_buffer<U>(count);
                }
                if (count > 0)
                    CUBIE_CUDA_CHECK(
                        cudaMemsetAsync(b.data(), unsolved_byte(f.unsolved), b.bytes(), stream));
            },
            *this);
    }
};

}  // namespace cubie
