#pragma once
// What the cuda backend needs to have one chunk of a batch in flight: a stream, device
// buffers for the chunk's [row][trajectory] arrays that are not read or written in place
// (arrays already in device memory are) and, for pageable host arrays of a batch that goes
// in several chunks, page-locked staging so that the chunk's copies overlap the kernels of
// others. Other copies go straight between the caller's arrays and the device.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/cuda_stream.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/pinned_buffer.hpp"
#include "cubie/core/status.hpp"

namespace cubie::backends {

/// One [row][trajectory] array of a chunk: `rows` rows of up to `capacity` trajectories
/// on the device (none: the array is used in place), staged through page-locked memory or
/// not.
template <class U>
class staged_rows {
public:
    staged_rows(std::size_t rows, std::size_t capacity, bool staged)
        : rows_(rows), device_(rows * capacity), pinned_(staged ? rows * capacity : 0) {}

    U* device() const { return device_.data(); }

    /// Queues the copy of `count` trajectories from an array whose rows are `stride`
    /// apart, starting at `from` (host or device memory; pageable host memory when staged).
    void upload(const U* from, std::size_t stride, std::size_t count, cudaStream_t stream) {
        if (rows_ == 0) return;
        if (pinned_.size() == 0) {
            CUBIE_CUDA_CHECK(cudaMemcpy2DAsync(device_.data(), count * sizeof(U), from,
                                               stride * sizeof(U), count * sizeof(U), rows_,
                                               cudaMemcpyDefault, stream));
            return;
        }
        for (std::size_t r = 0; r < rows_; ++r)
            std::memcpy(pinned_.data() + r * count, from + r * stride, count * sizeof(U));
        CUBIE_CUDA_CHECK(cudaMemcpyAsync(device_.data(), pinned_.data(), rows_ * count * sizeof(U),
                                         cudaMemcpyHostToDevice, stream));
    }

    /// Queues all bits set: NaN values, counters of 2^32 - 1, where nothing gets recorded.
    void mark_unrecorded(std::size_t count, cudaStream_t stream) {
        if (rows_ > 0)
            CUBIE_CUDA_CHECK(
                cudaMemsetAsync(device_.data(), 0xFF, rows_ * count * sizeof(U), stream));
    }

    /// Queues the copy back to the staging memory (staged arrays only).
    void start_download(std::size_t count, cudaStream_t stream) {
        if (rows_ > 0 && pinned_.size() > 0)
            CUBIE_CUDA_CHECK(cudaMemcpyAsync(pinned_.data(), device_.data(),
                                             rows_ * count * sizeof(U), cudaMemcpyDeviceToHost,
                                             stream));
    }

    /// After the stream's work is done: the chunk's values into the host array.
    void finish_download(U* host, std::size_t stride, std::size_t count, cudaStream_t stream) {
        if (rows_ == 0) return;
        if (pinned_.size() == 0) {
            CUBIE_CUDA_CHECK(cudaMemcpy2DAsync(host, stride * sizeof(U), device_.data(),
                                               count * sizeof(U), count * sizeof(U), rows_,
                                               cudaMemcpyDeviceToHost, stream));
            CUBIE_CUDA_CHECK(cudaStreamSynchronize(stream));
            return;
        }
        for (std::size_t r = 0; r < rows_; ++r)
            std::memcpy(host + r * stride, pinned_.data() + r * count, count * sizeof(U));
    }

private:
    std::size_t rows_;
    device_buffer<U> device_;
    pinned_buffer<U> pinned_;
};

/// The rows a slot holds of each array of a chunk; 0 where the batch's array is used in
/// place.
struct slot_rows {
    std::size_t initial_states = 0, parameters = 0;
    std::size_t final_states = 0, per_trajectory = 0;  ///< per_trajectory: statuses, steps
    std::size_t iteration_counts = 0;  ///< implicit methods: 1 (Newton and linear iterations)
    std::size_t saved = 0, saved_counters = 0, summaries = 0;
};

/// Which of a slot's arrays go through page-locked staging.
struct slot_staging {
    bool initial_states = false, parameters = false, outputs = false;
};

/// A chunk in flight: its stream, arrays, kernel events and place in the batch.
template <class T>
struct chunk_slot {
    chunk_slot(std::size_t capacity, const slot_rows& rows, const slot_staging& staging)
        : initial_states(rows.initial_states, capacity, staging.initial_states),
          parameters(rows.parameters, capacity, staging.parameters),
          final_states(rows.final_states, capacity, staging.outputs),
          statuses(rows.per_trajectory, capacity, staging.outputs),
          accepted_steps(rows.per_trajectory, capacity, staging.outputs),
          rejected_steps(rows.per_trajectory, capacity, staging.outputs),
          newton_iterations(rows.iteration_counts, capacity, staging.outputs),
          linear_iterations(rows.iteration_counts, capacity, staging.outputs),
          saved(rows.saved, capacity, staging.outputs),
          saved_counters(rows.saved_counters, capacity, staging.outputs),
          summaries(rows.summaries, capacity, staging.outputs) {}
    cuda_stream stream;
    staged_rows<T> initial_states, parameters, final_states;
    staged_rows<status> statuses;
    staged_rows<std::uint32_t> accepted_steps, rejected_steps;
    staged_rows<std::uint32_t> newton_iterations, linear_iterations;
    staged_rows<T> saved;
    staged_rows<std::uint32_t> saved_counters;
    staged_rows<T> summaries;
    cuda_event kernel_start, kernel_stop;
    std::size_t first = 0;  ///< the chunk's first trajectory in the batch
    std::size_t count = 0;
    bool busy = false;
};

}  // namespace cubie::backends
