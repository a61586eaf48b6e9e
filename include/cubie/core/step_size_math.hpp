#pragma once
// Division, square root and base-2 logarithm for the arithmetic that only steers the step
// size: error norms and controller factors; and division where an event's crossing is
// searched for next (events/root_finding.hpp) and to what time. Their last bits never
// matter there (a factor is clamped and scaled by a safety factor; an error within ulps of
// 1 is as good accepted as rejected; any trial point keeps the search's bracket, and a
// tolerance is no sharper than its ulps), so in float on the device they are the
// hardware's approximations, over the whole range of arguments, subnormal and huge ones
// included:
//   divide  div.full.f32      relative error below 2^-21
//   sqrt    sqrt.approx.f32   relative error below 2^-21
//   log2    lg2.approx.f32    error below 2^-21 max(1, |log2 x|)
// (bounds checked by tests/controllers.cpp on each backend). The IEEE operations they
// replace each carry a correction and a slow path, and log2f is a polynomial of some 30
// instructions: the loop of Tsit5 with a PI controller on Lorenz is 395 SASS instructions
// with them, 299 without, and its kernel 15% faster (bench/RESULTS.md). In double, and on
// the host, they are the exact operations.

#include <cuda/std/cmath>
#include <cuda/std/type_traits>

#include "cubie/core/config.hpp"

namespace cubie {

template <class T>
CUBIE_HD T step_size_divide(T a, T b) {
    static_assert(cuda::std::is_floating_point_v<T>);
#if defined(__CUDA_ARCH__)
    if constexpr (cuda::std::is_same_v<T, float>) {
        float q;
        asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
        return q;
    }
#endif
    return a / b;
}

template <class T>
CUBIE_HD T step_size_sqrt(T x) {
    static_assert(cuda::std::is_floating_point_v<T>);
#if defined(__CUDA_ARCH__)
    if constexpr (cuda::std::is_same_v<T, float>) {
        float r;
        asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
        return r;
    }
#endif
    return cuda::std::sqrt(x);
}

template <class T>
CUBIE_HD T step_size_log2(T x) {
    static_assert(cuda::std::is_floating_point_v<T>);
#if defined(__CUDA_ARCH__)
    if constexpr (cuda::std::is_same_v<T, float>) {
        float r;
        asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
        return r;
    }
#endif
    return cuda::std::log2(x);
}

}  // namespace cubie
