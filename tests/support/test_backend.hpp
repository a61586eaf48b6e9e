#pragma once
// The backend a test translation unit runs on: every test source is compiled twice, by the
// host compiler (host backend) and by nvcc (cuda backend, skipped without a device).

#if defined(__CUDACC__)
#include "cubie/backends/cuda.hpp"
#else
#include "cubie/backends/host.hpp"
#endif

namespace cubie::testing {

#if defined(__CUDACC__)
using test_backend = backends::cuda;
inline constexpr const char* test_backend_name = "cuda";
#else
using test_backend = backends::host;
inline constexpr const char* test_backend_name = "host";
#endif

}  // namespace cubie::testing
