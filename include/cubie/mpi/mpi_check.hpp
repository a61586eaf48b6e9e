#pragma once
// Checked MPI calls: a failing call throws cubie::mpi::mpi_error naming the call, the file
// and line, and MPI's own description of the error code.
//
// MPI returns error codes only on a communicator whose error handler is MPI_ERRORS_RETURN;
// under the default handler (MPI_ERRORS_ARE_FATAL) the job aborts inside the call. The
// library's own communicator (communicator.hpp) returns errors, so that they arrive here.

#include <mpi.h>

#include <string>

#include "cubie/core/call_error.hpp"

namespace cubie::mpi {

class mpi_error : public call_error<int> {
public:
    using call_error::call_error;
};

/// MPI's description of an error code ("MPI_ERR_TRUNCATE: message truncated").
inline std::string describe_mpi_error(int code) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
        return "MPI error code " + std::to_string(code);
    return std::string(text, static_cast<std::size_t>(length));
}

namespace detail {

inline void check_mpi(int code, const char* call, const char* file, int line) {
    if (code == MPI_SUCCESS) return;
    throw mpi_error(code, cubie::detail::failed_call(call, file, line) + describe_mpi_error(code));
}

}  // namespace detail
}  // namespace cubie::mpi

#define CUBIE_MPI_CHECK(call) ::cubie::mpi::detail::check_mpi((call), #call, __FILE__, __LINE__)
