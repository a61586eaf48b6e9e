#pragma once
// peak_times<N, Sign>: the accumulator of the times of the first N strict local maxima
// (Sign positive: x_{j-1} < x_j > x_{j+1}) or minima (negative: x_{j-1} > x_j < x_{j+1})
// of a window. Every comparison with NaN is false, so NaN is never a peak nor lets its
// neighbours be one. A plateau (equal neighbours) is no strict extremum.

#include <cuda/std/limits>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/outputs/metrics/sample.hpp"

namespace cubie::metrics {

enum class peak_sign { positive, negative };

template <int N, peak_sign Sign>
struct peak_times {
    static_assert(N >= 1, "peak_times needs room for at least one peak");

    template <class T>
    struct state {
        vector<T, N> times;  ///< NaN where fewer than N peaks were found
        int found;
    };
    static constexpr bool needs_neighbours = true;

    template <class T>
    CUBIE_HD static void reset(state<T>& s) {
        CUBIE_UNROLL
        for (int i = 0; i < N; ++i) s.times[i] = cuda::std::numeric_limits<T>::quiet_NaN();
        s.found = 0;
    }

    template <class T>
    CUBIE_HD static void add(state<T>& s, const sample<T>& x) {
        if (s.found < N && is_peak(x)) {
            // Compile-time indices keep the times in registers on the GPU.
            CUBIE_UNROLL
            for (int i = 0; i < N; ++i)
                if (i == s.found) s.times[i] = x.time;
            ++s.found;
        }
    }

private:
    template <class T>
    CUBIE_HD static bool is_peak(const sample<T>& x) {
        if constexpr (Sign == peak_sign::positive)
            return x.previous < x.value && x.value > x.next;
        else
            return x.previous > x.value && x.value < x.next;
    }
};

}  // namespace cubie::metrics
