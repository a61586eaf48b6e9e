#pragma once
// Owning, move-only array in device memory, with checked copies to and from the host.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

template <class T>
class device_buffer {
public:
    device_buffer() = default;
    explicit device_buffer(std::size_t count) : count_(count) {
        if (count_ > 0) CUBIE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
    }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    device_buffer(device_buffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    device_buffer& operator=(device_buffer&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            count_ = std::exchange(other.count_, 0);
        }
        return *this;
    }
    ~device_buffer() { release(); }

    /// Allocates and fills from host memory.
    static device_buffer copy_of(std::span<const T> host) {
        device_buffer b(host.size());
        if (b.count_ > 0)
            CUBIE_CUDA_CHECK(cudaMemcpy(b.data_, host.data(), b.bytes(), cudaMemcpyHostToDevice));
        return b;
    }

    void copy_to(std::span<T> host) const {
        if (host.size() != count_)
            throw std::invalid_argument("device_buffer::copy_to: host span has " +
                                        std::to_string(host.size()) + " elements, buffer " +
                                        std::to_string(count_));
        if (count_ > 0)
            CUBIE_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    }

    T* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return count_; }
    std::size_t bytes() const noexcept { return count_ * sizeof(T); }

private:
    void release() noexcept {
        // cudaFree reports earlier asynchronous errors too; a destructor cannot throw, and
        // the error stays visible to the next checked call.
        if (data_ != nullptr) static_cast<void>(cudaFree(data_));
        data_ = nullptr;
        count_ = 0;
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace cubie
