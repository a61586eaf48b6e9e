#pragma once
// running_extrema<Quantity>: the accumulator of the largest and smallest value of a
// sampled quantity (sampled_quantities.hpp) over a window.
//
// NaN is sticky: plain comparisons would skip a NaN (x > max is false), so a NaN sample
// sets both ends to NaN and no later sample replaces it. In float on the device (sm_80 on)
// that is one instruction per end, max.NaN and min.NaN, rather than a NaN test, a
// comparison and a select (which of +0 and -0 ends a window holding both may then differ
// from the host's; they compare equal). A window in which the quantity was never sampled
// (a neighbour quantity in a window whose only sample is the last of the run) keeps
// max = -inf < min = +inf, which no sample can produce; it reads as NaN.

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "cubie/core/config.hpp"
#include "cubie/outputs/metrics/sample.hpp"

namespace cubie::metrics {

namespace detail {
/// The larger (Larger) or smaller of q and end, NaN if either is.
template <bool Larger, class T>
CUBIE_HD T nan_sticky_extreme(T q, T end) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (cuda::std::is_same_v<T, float>) {
        float r;
        if constexpr (Larger)
            asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(q), "f"(end));
        else
            asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(q), "f"(end));
        return r;
    }
#endif
    const bool beyond = Larger ? q > end : q < end;
    return (beyond || cuda::std::isnan(q)) ? q : end;
}
}  // namespace detail

template <class Quantity>
struct running_extrema {
    template <class T>
    struct state {
        T max;
        T min;
    };
    static constexpr bool needs_neighbours = Quantity::needs_neighbours;

    template <class T>
    CUBIE_HD static void reset(state<T>& s) {
        s.max = -cuda::std::numeric_limits<T>::infinity();
        s.min = cuda::std::numeric_limits<T>::infinity();
    }

    template <class T>
    CUBIE_HD static void add(state<T>& s, const sample<T>& x) {
        const T q = Quantity::of(x);
        s.max = detail::nan_sticky_extreme<true>(q, s.max);
        s.min = detail::nan_sticky_extreme<false>(q, s.min);
    }

    /// The window's largest value; NaN if a NaN was sampled or nothing was.
    template <class T>
    CUBIE_HD static T largest(const state<T>& s) {
        return s.max < s.min ? cuda::std::numeric_limits<T>::quiet_NaN() : s.max;
    }
    template <class T>
    CUBIE_HD static T smallest(const state<T>& s) {
        return s.max < s.min ? cuda::std::numeric_limits<T>::quiet_NaN() : s.min;
    }
};

}  // namespace cubie::metrics
