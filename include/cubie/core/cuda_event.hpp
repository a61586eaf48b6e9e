#pragma once
// Owning CUDA event, for timing device work: record two on a stream, then read the
// milliseconds between them.

#include <cuda_runtime_api.h>

#include <memory>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

class cuda_event {
public:
    cuda_event() {
        cudaEvent_t e = nullptr;
        CUBIE_CUDA_CHECK(cudaEventCreate(&e));
        event_.reset(e);
    }

    void record(cudaStream_t stream = nullptr) {
        CUBIE_CUDA_CHECK(cudaEventRecord(event_.get(), stream));
    }

    /// Milliseconds from `start` to this event; waits for this event to complete.
    float milliseconds_since(const cuda_event& start) const {
        CUBIE_CUDA_CHECK(cudaEventSynchronize(event_.get()));
        float ms = 0;
        CUBIE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_.get(), event_.get()));
        return ms;
    }

private:
    struct destroy {
        void operator()(cudaEvent_t e) const noexcept { static_cast<void>(cudaEventDestroy(e)); }
    };
    std::unique_ptr<CUevent_st, destroy> event_;
};

}  // namespace cubie
