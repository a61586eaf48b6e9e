#pragma once
// moments: the accumulator of mean, std and rms. Welford's single-pass update keeps the
// mean and the sum of squared deviations from it, never a raw sum of squares, so the
// variance has no cancellation: for a constant signal every deviation is exactly zero and
// std is exactly 0. rms comes from the same state, rms^2 = mean^2 + variance.

#include <cstdint>

#include "cubie/core/config.hpp"
#include "cubie/outputs/metrics/sample.hpp"

namespace cubie::metrics {

struct moments {
    template <class T>
    struct state {
        std::uint32_t count;
        T mean;
        T squared_deviations;  ///< sum over the window of (x - mean)^2
    };
    static constexpr bool needs_neighbours = false;

    template <class T>
    CUBIE_HD static void reset(state<T>& s) {
        s = {0, T(0), T(0)};
    }

    /// A NaN value makes mean and squared deviations NaN for the rest of the window.
    template <class T>
    CUBIE_HD static void add(state<T>& s, const sample<T>& x) {
        ++s.count;
        const T delta = x.value - s.mean;
        s.mean += delta * x.reciprocal_count;  // delta / count, the division shared
        // The new mean lies between the old one and x: both factors share their sign.
        s.squared_deviations += delta * (x.value - s.mean);
    }

    /// Population variance (divided by the count, not count - 1); std and rms derive from it.
    template <class T>
    CUBIE_HD static T variance(const state<T>& s) {
        return s.squared_deviations / static_cast<T>(s.count);
    }
};

}  // namespace cubie::metrics
