#pragma once
// What the cuda backend needs to have one chunk of a batch in flight: a stream, device
// buffers for the chunk's [row][trajectory] arrays and, when the batch goes in several
// chunks, page-locked staging so that the chunk's copies overlap the kernels of others.
// Without staging, copies go straight between the caller's arrays and the device.

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
/// on the device, staged through page-locked memory or not.
template <class U>
class staged_rows {
public:
    staged_rows(std::size_t rows, std::size_t capacity, bool staged)
        : rows_(rows), device_(rows * capacity), pinned_(staged ? rows * capacity : 0) {}

    U* device() const { return device_.data(); }

    /// Queues the copy of `count` trajectories from a host array whose rows are `stride`
    /// apart, starting at `host`.
    void upload(const U* host, std::size_t stride, std::size_t count, cudaStream_t stream) {
        if (rows_ == 0) return;
        if (pinned_.size() == 0) {
            CUBIE_CUDA_CHECK(cudaMemcpy2DAsync(device_.data(), count * sizeof(U), host,
                                               stride * sizeof(U), count * sizeof(U), rows_,
                                               cudaMemcpyHostToDevice, stream));
            return;
        }
        for (std::size_t r = 0; r < rows_; ++r)
            std::memcpy(pinned_.data() + r * count, host + r * stride, count * sizeof(U));
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

/// A chunk in flight: its stream, arrays, kernel events and place in the batch.
template <class T>
struct chunk_slot {
    chunk_slot(std::size_t capacity, bool staged, std::size_t states, std::size_t parameters,
               std::size_t saved_rows, std::size_t counter_rows, std::size_t summary_rows)
        : initial_states(states, capacity, staged),
          parameters(parameters, capacity, staged),
          final_states(states, capacity, staged),
          statuses(1, capacity, staged),
          accepted_steps(1, capacity, staged),
          rejected_steps(1, capacity, staged),
          saved(saved_rows, capacity, staged),
          saved_counters(counter_rows, capacity, staged),
          summaries(summary_rows, capacity, staged) {}

    cuda_stream stream;
    staged_rows<T> initial_states, parameters, final_states;
    staged_rows<status> statuses;
    staged_rows<std::uint32_t> accepted_steps, rejected_steps;
    staged_rows<T> saved;
    staged_rows<std::uint32_t> saved_counters;
    staged_rows<T> summaries;
    cuda_event kernel_start, kernel_stop;
    std::size_t first = 0;  ///< the chunk's first trajectory in the batch
    std::size_t count = 0;
    bool busy = false;
};

}  // namespace cubie::backends
