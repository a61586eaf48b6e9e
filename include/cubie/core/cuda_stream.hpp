#pragma once
// Owning CUDA stream: work queued on one runs in order, beside the work of others.

#include <cuda_runtime_api.h>

#include <memory>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

class cuda_stream {
public:
    cuda_stream() {
        cudaStream_t s = nullptr;
        CUBIE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        stream_.reset(s);
    }

    cudaStream_t get() const noexcept { return stream_.get(); }

private:
    struct destroy {
        void operator()(cudaStream_t s) const noexcept { static_cast<void>(cudaStreamDestroy(s)); }
    };
    std::unique_ptr<CUstream_st, destroy> stream_;
};

}  // namespace cubie
