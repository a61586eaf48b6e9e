#pragma once
// Owning, move-only array in page-locked host memory: the staging area that lets copies
// to and from the device run asynchronously, beside kernels.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

template <class T>
class pinned_buffer {
public:
    pinned_buffer() = default;
    explicit pinned_buffer(std::size_t count) : count_(count) {
        if (count_ > 0)
            CUBIE_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), count_ * sizeof(T)));
    }
    pinned_buffer(const pinned_buffer&) = delete;
    pinned_buffer& operator=(const pinned_buffer&) = delete;
    pinned_buffer(pinned_buffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    pinned_buffer& operator=(pinned_buffer&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(count_, other.count_);
        return *this;
    }
    ~pinned_buffer() {
        if (data_ != nullptr) static_cast<void>(cudaFreeHost(data_));
    }

    T* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return count_; }

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace cubie
