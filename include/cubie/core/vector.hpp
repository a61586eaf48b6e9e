#pragma once
// Fixed-size per-thread storage. Sizes are compile-time constants so that the arrays live
// in registers on the GPU and in the stack frame on the host.

#include <cuda/std/array>

#include "cubie/core/config.hpp"

namespace cubie {

template <class T, int N>
using vector = cuda::std::array<T, static_cast<cuda::std::size_t>(N)>;

/// Number of components of a state (a vector, or any tuple-like fixed-size array).
template <class State>
inline constexpr cuda::std::size_t size_of = cuda::std::tuple_size<State>::value;

}  // namespace cubie
