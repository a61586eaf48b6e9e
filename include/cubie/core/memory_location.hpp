#pragma once
// Where an array lives, as the CUDA runtime knows it: decides whether the cuda backend
// reads it in place, copies it asynchronously, or stages it through page-locked memory.

#include <cuda_runtime_api.h>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

struct memory_location {
    enum class kind { pageable, page_locked, device, managed };
    kind where = kind::pageable;
    int device = -1;  ///< for kind::device: the device that holds it

    /// Kernels on `d` can read it without a copy.
    bool readable_on(int d) const {
        return where == kind::managed || (where == kind::device && device == d);
    }
    bool in_device_memory() const { return where == kind::device || where == kind::managed; }

    /// Without a driver or a device, every array is host memory.
    static memory_location of(const void* pointer) {
        memory_location m;
        if (pointer == nullptr) return m;
        cudaPointerAttributes a{};
        const cudaError_t code = cudaPointerGetAttributes(&a, pointer);
        if (code == cudaErrorInsufficientDriver || code == cudaErrorNoDevice) {
            static_cast<void>(cudaGetLastError());  // not sticky: cleared for later calls
            return m;
        }
        CUBIE_CUDA_CHECK(code);
        switch (a.type) {
            case cudaMemoryTypeHost:
                m.where = kind::page_locked;
                break;
            case cudaMemoryTypeDevice:
                m.where = kind::device;
                m.device = a.device;
                break;
            case cudaMemoryTypeManaged:
                m.where = kind::managed;
                break;
            default:
                break;
        }
        return m;
    }
};

}  // namespace cubie
