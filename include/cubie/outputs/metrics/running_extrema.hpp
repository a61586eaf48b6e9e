#pragma once
// running_extrema<Quantity>: the accumulator of the largest and smallest value of a
// sampled quantity (sampled_quantities.hpp) over a window.
//
// NaN is sticky: plain comparisons would skip a NaN (x > max is false), so a NaN sample
// sets both ends to NaN and no later sample replaces it. A window in which the quantity
// was never sampled (a neighbour quantity in a window whose only sample is the last of the
// run) keeps max = -inf < min = +inf, which no sample can produce; it reads as NaN.

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/core/config.hpp"
#include "cubie/outputs/metrics/sample.hpp"

namespace cubie::metrics {

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
        const bool nan = cuda::std::isnan(q);
        s.max = (q > s.max || nan) ? q : s.max;
        s.min = (q < s.min || nan) ? q : s.min;
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
