#pragma once
// Owning CUDA stream: work queued on one runs in order, beside the work of others.

#include <cuda_runtime_api.h>

#include <utility>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

class cuda_stream {
public:
    cuda_stream() { CUBIE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    cuda_stream(const cuda_stream&) = delete;
    cuda_stream& operator=(const cuda_stream&) = delete;
    cuda_stream(cuda_stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
    cuda_stream& operator=(cuda_stream&& other) noexcept {
        std::swap(stream_, other.stream_);
        return *this;
    }
    ~cuda_stream() {
        if (stream_ != nullptr) static_cast<void>(cudaStreamDestroy(stream_));
    }

    cudaStream_t get() const noexcept { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

}  // namespace cubie
