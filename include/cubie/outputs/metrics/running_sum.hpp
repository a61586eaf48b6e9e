#pragma once
// running_sum: the accumulator of a mean asked for alone, one addition per sample and one
// division per window. The moments accumulator (moments.hpp) needs 1 / n at every sample
// for Welford's update; its mean is no better rounded (each adds an error of order
// eps |mean| per sample), and its worth is a variance without cancellation. Where std or
// rms is asked for too, the mean is read off their moments (output_layout.hpp), so the work
// is shared.

#include <cstdint>

#include "cubie/core/config.hpp"
#include "cubie/outputs/metrics/sample.hpp"

namespace cubie::metrics {

struct running_sum {
    template <class T>
    struct state {
        T sum;
        std::uint32_t count;
    };
    static constexpr bool needs_neighbours = false;

    template <class T>
    CUBIE_HD static void reset(state<T>& s) {
        s = {T(0), 0};
    }

    /// The count is the window's, the same for every variable: taken, not counted, so that
    /// the states of all variables hold one value (the compiler keeps it once).
    template <class T>
    CUBIE_HD static void add(state<T>& s, const sample<T>& x) {
        s.sum += x.value;
        s.count = x.count;
    }

    template <class T>
    CUBIE_HD static T mean(const state<T>& s) {
        return s.sum / static_cast<T>(s.count);
    }
};

}  // namespace cubie::metrics
