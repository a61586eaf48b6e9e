#pragma once
// running_sum: the accumulator of a mean asked for alone: a compensated (Kahan) sum of the
// window's samples taken in pairs, (x1 + x2) + (x3 + x4) + ..., and one division per window.
// The moments accumulator (moments.hpp) needs 1 / n at every sample for Welford's update, and
// its worth is a variance without cancellation; where std or rms is asked for too, the mean
// is read off their moments (output_layout.hpp), so the work is shared.
//
// Compensated, because a plain float sum drifts with the window's length: its error grows
// like n eps for a signal far from zero (the mean of 2^20 samples of 0.1 in float is off by
// 1%, of 2^25 by 37%, where the sum stops growing); Welford's mean drifts too for a varying
// signal (4e-5 of 25 + 8 sin t over 2^20 samples). In pairs, because the compensated update
// costs four additions: a pair costs five, two samples one by one eight. Rounding a pair's
// sum errs by at most eps / 2 of it, so for samples of one sign the pairs add at most eps / 2
// to the compensated sum's error, whatever the window's length; within 2 eps over 2^20 float
// samples (tests/summary_windows.cpp). A loop that takes samples two by two hands them over
// together (add_pair()); one by one, the odd sample waits for the even one (add()), so that
// the sum has the same bits either way. Unlike Welford's mean, a sum can overflow: where a
// window's samples, or two consecutive ones, add up past the largest finite value (in
// float, 2^20 samples of 1e33; or 2e38 twice), as where a sample is infinite, the mean is
// NaN.
//
// summed_mean is the metric that reads it: what `mean` becomes where no other metric of the
// same summaries reads the moments (moment_metrics.hpp).

#include <cstdint>

#include "cubie/core/config.hpp"
#include "cubie/outputs/metrics/accumulator_reads.hpp"
#include "cubie/outputs/metrics/sample.hpp"

namespace cubie::metrics {

struct running_sum {
    template <class T>
    struct state {
        T sum;
        T compensation;  ///< the low-order part lost by the last additions, negated
        T pending;       ///< after an odd number of samples, the last one
        std::uint32_t count;
    };
    static constexpr bool needs_neighbours = false;

    template <class T>
    CUBIE_HD static void reset(state<T>& s) {
        s = {T(0), T(0), T(0), 0};
    }

    /// Sample n of the window (n = x.count): the odd ones wait for the next. The count is
    /// the window's, the same for every variable: taken, not counted, so that the states of
    /// all variables hold one value (the compiler keeps it once).
    template <class T>
    CUBIE_HD static void add(state<T>& s, const sample<T>& x) {
        s.count = x.count;
        if (x.count % 2 == 1)
            s.pending = x.value;
        else
            add_compensated(s, s.pending + x.value);
    }

    /// Samples n and n + 1 of the window, n odd: the same bits as add(a) then add(b).
    template <class T>
    CUBIE_HD static void add_pair(state<T>& s, const sample<T>& a, const sample<T>& b) {
        s.count = b.count;
        add_compensated(s, a.value + b.value);
    }

    template <class T>
    CUBIE_HD static T mean(const state<T>& s) {
        state<T> all = s;
        if (s.count % 2 == 1) add_compensated(all, s.pending);
        return (all.sum - all.compensation) / static_cast<T>(s.count);
    }

private:
    template <class T>
    CUBIE_HD static void add_compensated(state<T>& s, T x) {
        const T y = x - s.compensation;
        const T sum = s.sum + y;
        s.compensation = (sum - s.sum) - y;
        s.sum = sum;
    }
};

struct summed_mean_value {
    static constexpr const char* name = "mean";
    template <class T>
    CUBIE_HD static T of(const running_sum::state<T>& s) {
        return running_sum::mean(s);
    }
};
struct summed_mean : accumulator_reads<running_sum, summed_mean_value> {
    static constexpr const char* name = "mean";
};

}  // namespace cubie::metrics
