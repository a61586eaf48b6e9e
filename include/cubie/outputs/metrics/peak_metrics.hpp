#pragma once
// peaks<N> and negative_peaks<N>: the times of the first N strict local maxima (minima) in
// each window, outputs "peak0" .. "peak{N-1}" ("negative_peak0", ...), NaN where a window
// has fewer. A peak's time is the sample time t_j at which it was sampled, exactly.

#include <cuda/std/array>

#include "cubie/core/config.hpp"
#include "cubie/outputs/metrics/numbered_names.hpp"
#include "cubie/outputs/metrics/peak_times.hpp"

namespace cubie::metrics {

template <int N, peak_sign Sign>
struct first_peak_times {
    static constexpr bool positive = Sign == peak_sign::positive;
    static constexpr const char* name = positive ? "peaks" : "negative_peaks";
    using accumulator = peak_times<N, Sign>;
    static constexpr int n_outputs = N;
    static constexpr auto output_text = [] {
        if constexpr (positive)
            return numbered_names<N>("peak");
        else
            return numbered_names<N>("negative_peak");
    }();
    static constexpr cuda::std::array<const char*, n_outputs> output_names =
        name_pointers(output_text);
    template <class T>
    CUBIE_HD static void output(const typename accumulator::template state<T>& a, T* out) {
        CUBIE_UNROLL
        for (int i = 0; i < N; ++i) out[i] = a.times[i];
    }
};

template <int N>
using peaks = first_peak_times<N, peak_sign::positive>;
template <int N>
using negative_peaks = first_peak_times<N, peak_sign::negative>;

}  // namespace cubie::metrics
