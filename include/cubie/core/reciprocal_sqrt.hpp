#pragma once
// 1 / sqrt(x), which generated systems use for every negative half-integer power
// (an inverse-square law's r^-3 is rsqrt(r^2) cubed).
//
// On the device this is one hardware reciprocal square root with a short refinement
// (CUDA's rsqrtf: 2 ulp; rsqrt in double: 1 ulp). Written as 1 / sqrt(x) it would be an
// IEEE square root and an IEEE division, each with a slow path the compiler keeps as a
// call: several times the instructions, and registers held across the call. The host
// has no such instruction and divides.

#include <cuda/std/cmath>
#include <cuda/std/type_traits>

#include "cubie/core/config.hpp"

namespace cubie {

template <class T>
CUBIE_HD T rsqrt(T x) {
    static_assert(cuda::std::is_floating_point_v<T>, "rsqrt takes a float or a double");
#if defined(__CUDA_ARCH__)
    if constexpr (cuda::std::is_same_v<T, float>) {
        return ::rsqrtf(x);
    } else {
        return ::rsqrt(x);
    }
#else
    return T(1) / cuda::std::sqrt(x);
#endif
}

}  // namespace cubie
