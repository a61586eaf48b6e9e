#pragma once
// What the checked calls of CUDA (cuda_check.hpp) and MPI (mpi/mpi_check.hpp) share: an
// exception that keeps the failing call's error code, and the message's start, which names
// the call and where it was made.

#include <stdexcept>
#include <string>

namespace cubie {

template <class Code>
class call_error : public std::runtime_error {
public:
    call_error(Code code, const std::string& what) : std::runtime_error(what), code_(code) {}
    Code code() const noexcept { return code_; }

private:
    Code code_;
};

namespace detail {

/// "file:line: call failed: ".
inline std::string failed_call(const char* call, const char* file, int line) {
    return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: ";
}

}  // namespace detail
}  // namespace cubie
