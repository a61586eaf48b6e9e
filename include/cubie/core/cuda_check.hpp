#pragma once
// Checked CUDA runtime calls: a failing call throws cubie::cuda_error naming the call,
// the file and line, and the runtime's own description. Where the runtime finds no device
// (none installed, or no driver) the message says so first, and how to solve on the host. Sticky
// errors (a kernel faulted: illegal address, trap, device assert) leave the process's CUDA context
// unusable; every later call fails with the same code, and the message says so instead of blaming
// it.

#include <cuda_runtime_api.h>

#include <string>

#include "cubie/core/call_error.hpp"

namespace cubie {

class cuda_error : public call_error<cudaError_t> {
public:
    using call_error::call_error;
};

/// True for the errors after which the CUDA context cannot be used again.
inline bool is_sticky(cudaError_t code) {
    switch (code) {
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchFailure:
        case cudaErrorHardwareStackError:
        case cudaErrorIllegalInstruction:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorAssert:
        case cudaErrorLaunchTimeout:
            return true;
        default:
            return false;
    }
}

/// True for the errors of a machine where the runtime finds no device to use: none is
/// installed, or there is no driver (cudaErrorInsufficientDriver, as on a machine with the
/// toolkit but no GPU).
inline bool means_no_device(cudaError_t code) {
    return code == cudaErrorNoDevice || code == cudaErrorInsufficientDriver;
}

/// "cudaErrorX (description)", and the consequence when the error is sticky.
inline std::string describe(cudaError_t code) {
    std::string text = std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) + ")";
    if (is_sticky(code))
        text +=
            "; this error is sticky: a kernel faulted, the CUDA context of this process is "
            "unusable and every later CUDA call fails; restart the process";
    return text;
}

namespace detail {

inline void check_cuda(cudaError_t code, const char* call, const char* file, int line) {
    if (code == cudaSuccess) return;
    // A failed call also leaves its error as the runtime's "last error"; reported here, it
    // must not be reported again by the next launch check (a sticky one cannot be reset).
    static_cast<void>(cudaGetLastError());
    const std::string failure = failed_call(call, file, line) + describe(code);
    if (means_no_device(code))
        throw cuda_error(code,
                         "no CUDA device was found, so the cuda backend cannot run; solve on the "
                         "host backend (cubie::backends::host, which backends::automatic picks "
                         "where no device is present; --backend host in the examples). " +
                             failure);
    throw cuda_error(code, failure);
}

}  // namespace detail
}  // namespace cubie

#define CUBIE_CUDA_CHECK(call) ::cubie::detail::check_cuda((call), #call, __FILE__, __LINE__)
