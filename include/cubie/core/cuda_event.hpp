#pragma once
// Owning CUDA event, for timing device work: record two on a stream, then read the
// milliseconds between them.

#include <cuda_runtime_api.h>

#include <utility>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

class cuda_event {
public:
    cuda_event() { CUBIE_CUDA_CHECK(cudaEventCreate(&event_)); }
    cuda_event(const cuda_event&) = delete;
    cuda_event& operator=(const cuda_event&) = delete;
    cuda_event(cuda_event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
    cuda_event& operator=(cuda_event&& other) noexcept {
        std::swap(event_, other.event_);
        return *this;
    }
    ~cuda_event() {
        if (event_ != nullptr) static_cast<void>(cudaEventDestroy(event_));
    }

    void record(cudaStream_t stream = nullptr) {
        CUBIE_CUDA_CHECK(cudaEventRecord(event_, stream));
    }

    /// Milliseconds from `start` to this event; waits for this event to complete.
    float milliseconds_since(const cuda_event& start) const {
        CUBIE_CUDA_CHECK(cudaEventSynchronize(event_));
        float ms = 0;
        CUBIE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
        return ms;
    }

private:
    cudaEvent_t event_ = nullptr;
};

}  // namespace cubie
