#pragma once
// Owning, move-only array in page-locked host memory: the staging area that lets copies
// to and from the device run asynchronously, beside kernels.

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cubie/core/cuda_owned_array.hpp"

namespace cubie {

struct pinned_memory {
    static cudaError_t allocate(void** data, std::size_t bytes) {
        return cudaMallocHost(data, bytes);
    }
    static cudaError_t release(void* data) { return cudaFreeHost(data); }
};

template <class T>
using pinned_buffer = cuda_owned_array<T, pinned_memory>;

}  // namespace cubie
