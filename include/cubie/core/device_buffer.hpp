#pragma once
// Owning, move-only array in device memory, with checked copies to and from the host.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>

#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_owned_array.hpp"

namespace cubie {

struct device_memory {
    static cudaError_t allocate(void** data, std::size_t bytes) { return cudaMalloc(data, bytes); }
    static cudaError_t release(void* data) { return cudaFree(data); }
};

template <class T>
class device_buffer : public cuda_owned_array<T, device_memory> {
public:
    using cuda_owned_array<T, device_memory>::cuda_owned_array;

    /// Allocates and fills from host memory.
    static device_buffer copy_of(std::span<const T> host) {
        device_buffer b(host.size());
        if (b.size() > 0)
            CUBIE_CUDA_CHECK(cudaMemcpy(b.data(), host.data(), b.bytes(), cudaMemcpyHostToDevice));
        return b;
    }

    void copy_to(std::span<T> host) const {
        if (host.size() != this->size())
            throw std::invalid_argument("device_buffer::copy_to: host span has " +
                                        std::to_string(host.size()) + " elements, buffer " +
                                        std::to_string(this->size()));
        if (this->size() > 0)
            CUBIE_CUDA_CHECK(
                cudaMemcpy(host.data(), this->data(), this->bytes(), cudaMemcpyDeviceToHost));
    }
};

}  // namespace cubie
