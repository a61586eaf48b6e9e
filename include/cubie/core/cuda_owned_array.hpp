#pragma once
// Owning, move-only array of memory the CUDA runtime allocates: device memory
// (device_buffer) or page-locked host memory (pinned_buffer). Memory names the runtime's
// pair of calls, allocate(void**, bytes) and release(void*).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

template <class T, class Memory>
class cuda_owned_array {
public:
    cuda_owned_array() = default;
    explicit cuda_owned_array(std::size_t count) : count_(count) {
        if (count_ > 0)
            CUBIE_CUDA_CHECK(Memory::allocate(reinterpret_cast<void**>(&data_), bytes()));
    }
    cuda_owned_array(const cuda_owned_array&) = delete;
    cuda_owned_array& operator=(const cuda_owned_array&) = delete;
    cuda_owned_array(cuda_owned_array&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    cuda_owned_array& operator=(cuda_owned_array&& other) noexcept {
        if (this != &other) {
            release();  // now, not when other goes: device memory is scarce
            data_ = std::exchange(other.data_, nullptr);
            count_ = std::exchange(other.count_, 0);
        }
        return *this;
    }
    ~cuda_owned_array() { release(); }

    T* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return count_; }
    std::size_t bytes() const noexcept { return count_ * sizeof(T); }

private:
    // The free reports earlier asynchronous errors too; a destructor cannot throw, and the
    // error stays visible to the next checked call.
    void release() noexcept {
        if (data_ != nullptr) static_cast<void>(Memory::release(data_));
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace cubie
