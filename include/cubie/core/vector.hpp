#pragma once
// Fixed-size per-thread storage. Sizes are compile-time constants so that the arrays live
// in registers on the GPU and in the stack frame on the host.

#include <cuda/std/array>

#include "cubie/core/config.hpp"

namespace cubie {

template <class T, int N>
using vector = cuda::std::array<T, static_cast<cuda::std::size_t>(N)>;

}  // namespace cubie
