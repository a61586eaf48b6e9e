#pragma once
// Checked CUDA runtime calls: a failing call throws cubie::cuda_error naming the call,
// the file and line, and the runtime's own description.

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace cubie {

class cuda_error : public std::runtime_error {
public:
    cuda_error(cudaError_t code, const std::string& what)
        : std::runtime_error(what), code_(code) {}
    cudaError_t code() const noexcept { return code_; }

private:
    cudaError_t code_;
};

namespace detail {

inline void check_cuda(cudaError_t code, const char* call, const char* file, int line) {
    if (code == cudaSuccess) return;
    throw cuda_error(code, std::string(file) + ":" + std::to_string(line) + ": " + call +
                               " failed: " + cudaGetErrorName(code) + " (" +
                               cudaGetErrorString(code) + ")");
}

}  // namespace detail
}  // namespace cubie

#define CUBIE_CUDA_CHECK(call) ::cubie::detail::check_cuda((call), #call, __FILE__, __LINE__)
