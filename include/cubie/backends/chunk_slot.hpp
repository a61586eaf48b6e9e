#pragma once
// What the cuda backend needs to have one chunk of a batch in flight: a stream, device
// buffers for the chunk's [row][trajectory] arrays that are not read or written in place
// (arrays already in device memory are) and, for pageable host arrays, page-locked staging:
// copies from and into it run at the bus's speed and beside the kernels of other chunks.
// Other copies go straight between the caller's arrays and the device. The slots
// of a solve are kept in the result's workspace for the next solve into it.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "cubie/backends/page_lock.hpp"
#include "cubie/batch/backend_workspace.hpp"
#include "cubie/batch/lane_use.hpp"
#include "cubie/batch/result_fields.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/cuda_stream.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/pinned_buffer.hpp"
#include "cubie/core/status.hpp"

namespace cubie::backends {

/// Host-to-host copies of a chunk's staged arrays, gathered and then run at once over
/// `threads` OpenMP threads in pieces small enough to share among them: one thread cannot
/// move host memory as fast as the device's copies fill it. With several devices each
/// device's host thread runs its copies over its own share of the cores: a team of every
/// core per device would put several threads on each core, to wait on one another.
class host_copies {
public:
    explicit host_copies(int threads) : threads_(std::max(threads, 1)) {}

    /// `rows` rows of `count` values, between arrays whose rows are `to_stride` and
    /// `from_stride` apart.
    template <class U>
    void add(U* to, std::size_t to_stride, const U* from, std::size_t from_stride, std::size_t rows,
             std::size_t count) {
        const std::size_t row_bytes = count * sizeof(U);
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t at = 0; at < row_bytes; at += piece_bytes)
                pieces_.push_back({reinterpret_cast<char*>(to + r * to_stride) + at,
                                   reinterpret_cast<const char*>(from + r * from_stride) + at,
                                   std::min(piece_bytes, row_bytes - at)});
    }

    /// Copies every piece added, and forgets them.
    void run() {
        const auto n = static_cast<std::ptrdiff_t>(pieces_.size());
#pragma omp parallel for schedule(static) num_threads(threads_) if (n > 1)
        for (std::ptrdiff_t k = 0; k < n; ++k)
            std::memcpy(pieces_[k].to, pieces_[k].from, pieces_[k].bytes);
        pieces_.clear();
    }

private:
    int threads_;
    static constexpr std::size_t piece_bytes = std::size_t{1} << 18;
    struct piece {
        char* to;
        const char* from;
        std::size_t bytes;
    };
    std::vector<piece> pieces_;
};

/// One [row][trajectory] array of a chunk: `rows` rows of up to `capacity` trajectories
/// on the device (none: the array is used in place), staged through page-locked memory or
/// not.
template <class U>
class staged_rows {
public:
    staged_rows() = default;
    staged_rows(std::size_t rows, std::size_t capacity, bool staged)
        : rows_(rows), device_(rows * capacity), pinned_(staged ? rows * capacity : 0) {}

    U* device() const { return device_.data(); }

    /// Queues the copy of `count` trajectories from an array whose rows are `stride`
    /// apart, starting at `from` (host or device memory). A staged array is first added to
    /// `staging`, which must have run before the copy is queued (upload_staged).
    void upload(const U* from, std::size_t stride, std::size_t count, cudaStream_t stream,
                host_copies& staging) {
        if (rows_ == 0) return;
        if (pinned_.size() == 0) {
            CUBIE_CUDA_CHECK(cudaMemcpy2DAsync(device_.data(), count * sizeof(U), from,
                                               stride * sizeof(U), count * sizeof(U), rows_,
                                               cudaMemcpyDefault, stream));
            return;
        }
        staging.add(pinned_.data(), count, from, stride, rows_, count);
    }

    /// Queues the copy of a staged array's `count` trajectories from its staging memory.
    void upload_staged(std::size_t count, cudaStream_t stream) {
        if (rows_ > 0 && pinned_.size() > 0)
            CUBIE_CUDA_CHECK(cudaMemcpyAsync(device_.data(), pinned_.data(),
                                             rows_ * count * sizeof(U), cudaMemcpyHostToDevice,
                                             stream));
    }

    /// Queues all bits set: NaN values, counters of 2^32 - 1, where nothing gets recorded.
    void mark_unrecorded(std::size_t count, cudaStream_t stream) {
        if (rows_ > 0)
            CUBIE_CUDA_CHECK(
                cudaMemsetAsync(device_.data(), 0xFF, rows_ * count * sizeof(U), stream));
    }

    /// Queues the copy back of `count` trajectories: into the staging memory, or straight
    /// into the host array whose rows are `stride` apart (asynchronous where it is
    /// page-locked).
    void start_download(U* host, std::size_t stride, std::size_t count, cudaStream_t stream) {
        if (rows_ == 0) return;
        if (pinned_.size() == 0) {
            CUBIE_CUDA_CHECK(cudaMemcpy2DAsync(host, stride * sizeof(U), device_.data(),
                                               count * sizeof(U), count * sizeof(U), rows_,
                                               cudaMemcpyDeviceToHost, stream));
            return;
        }
        CUBIE_CUDA_CHECK(cudaMemcpyAsync(pinned_.data(), device_.data(), rows_ * count * sizeof(U),
                                         cudaMemcpyDeviceToHost, stream));
    }

    /// After the stream's work is done: adds the staged values' copy into the host array.
    void finish_download(U* host, std::size_t stride, std::size_t count, host_copies& copies) {
        if (rows_ > 0 && pinned_.size() > 0)
            copies.add(host, stride, pinned_.data(), count, rows_, count);
    }

private:
    std::size_t rows_ = 0;
    device_buffer<U> device_;
    pinned_buffer<U> pinned_;
};

/// The rows a slot holds of each array of a chunk; 0 where the batch's array is used in
/// place.
struct slot_rows {
    std::size_t initial_states = 0, parameters = 0;
    result_rows outputs{};
    bool operator==(const slot_rows&) const = default;
};

/// Which of a slot's arrays go through page-locked staging.
struct slot_staging {
    bool initial_states = false, parameters = false, outputs = false;
    bool operator==(const slot_staging&) const = default;
};

/// A chunk in flight: its stream, arrays, the event after its kernel and its place in the
/// batch.
template <class T>
struct chunk_slot {
    chunk_slot(std::size_t capacity, const slot_rows& rows, const slot_staging& staging)
        : initial_states(rows.initial_states, capacity, staging.initial_states),
          parameters(rows.parameters, capacity, staging.parameters),
          claimed(1) {
        for_each_result_field(
            [&]<class U>(const result_field& f, staged_rows<U>& a) {
                a = staged_rows<U>(rows.outputs.*f.rows, capacity, staging.outputs);
            },
            *this);
    }
    cuda_stream stream;
    staged_rows<T> initial_states, parameters;
    // The outputs, one per array of result_fields.hpp.
    staged_rows<T> final_states;
    staged_rows<status> statuses;
    staged_rows<std::uint32_t> accepted_steps, rejected_steps;
    staged_rows<std::uint32_t> newton_iterations, linear_iterations;
    staged_rows<T> saved;
    staged_rows<std::uint32_t> saved_counters;
    staged_rows<T> summaries;
    staged_rows<std::uint32_t> event_counts;
    staged_rows<T> event_times, event_states;
    /// Balanced scheduling's work counter: the trajectories of the chunk claimed so far.
    device_buffer<unsigned> claimed;
    cuda_event kernel_stop;
    std::size_t first = 0;  ///< the chunk's first trajectory in the batch
    std::size_t count = 0;
    bool busy = false;
};

/// The slots one device solves its share with, kept between solves into one result.
template <class T>
struct device_slots {
    int device = -1;
    std::size_t capacity = 0;
    slot_rows rows{};
    slot_staging staging{};
    std::vector<std::unique_ptr<chunk_slot<T>>> slots;
    /// Recorded before the share's first kernel: where its kernel time starts.
    std::optional<cuda_event> first_kernel_start;
    /// Automatic scheduling's sum of the first chunk's warps' steps (batch/lane_use.hpp).
    std::optional<device_buffer<warp_steps>> steps;

    /// At least `count` slots of `capacity` trajectories on the current device `d`: those
    /// kept when they fit, with new ones added (those kept may be busy), else all new (the
    /// old freed first: they may hold most of the memory).
    void fit(int d, std::size_t wanted_capacity, const slot_rows& wanted_rows,
             const slot_staging& wanted_staging, std::size_t count) {
        if (d == device && wanted_capacity <= capacity && wanted_rows == rows &&
            wanted_staging == staging) {
            while (slots.size() < count)
                slots.push_back(std::make_unique<chunk_slot<T>>(capacity, rows, staging));
            return;
        }
        slots.clear();
        // The share's kernel times count from it: kept while the device is (a share refits
        // its slots after its first chunk where automatic scheduling balances the rest).
        if (d != device || !first_kernel_start) {
            first_kernel_start.emplace();
            steps.emplace(1);
        }
        device = d;
        capacity = wanted_capacity;
        rows = wanted_rows;
        staging = wanted_staging;
        for (std::size_t k = 0; k < count; ++k)
            slots.push_back(std::make_unique<chunk_slot<T>>(capacity, rows, staging));
    }
};

/// What the cuda backend keeps in a result's workspace: the slots of every device's share,
/// and, for a host result, when to page-lock its arrays.
template <class T>
struct cuda_workspace : backend_workspace::contents {
    std::vector<device_slots<T>> shares;
    page_lock_on_reuse<T> page_locking;
};

}  // namespace cubie::backends
