#pragma once
// Makes a device current for a scope and restores the caller's afterwards: the current
// device is per host thread, and a library call should not change the caller's.

#include <cuda_runtime_api.h>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

class scoped_device {
public:
    /// device < 0: stays on the current device.
    explicit scoped_device(int device) {
        CUBIE_CUDA_CHECK(cudaGetDevice(&previous_));
        if (device >= 0 && device != previous_) CUBIE_CUDA_CHECK(cudaSetDevice(device));
    }
    scoped_device(const scoped_device&) = delete;
    scoped_device& operator=(const scoped_device&) = delete;
    ~scoped_device() { static_cast<void>(cudaSetDevice(previous_)); }

private:
    int previous_ = 0;
};

}  // namespace cubie
