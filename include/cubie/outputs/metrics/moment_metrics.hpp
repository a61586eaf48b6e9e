#pragma once
// The metrics read from the moments accumulator: mean, std (population), rms and their
// combinations. Any of them together keep one running state per variable; the mean alone
// keeps a compensated sum (running_sum.hpp).

#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/outputs/metrics/accumulator_reads.hpp"
#include "cubie/outputs/metrics/moments.hpp"
#include "cubie/outputs/metrics/running_sum.hpp"

namespace cubie::metrics {

/// What the metrics read off the state. rms^2 = mean^2 + variance: no second sum needed.
struct mean_value {
    static constexpr const char* name = "mean";
    template <class T>
    CUBIE_HD static T of(const moments::state<T>& s) {
        return s.mean;
    }
};
struct standard_deviation {
    static constexpr const char* name = "std";
    template <class T>
    CUBIE_HD static T of(const moments::state<T>& s) {
        return cuda::std::sqrt(moments::variance(s));
    }
};
struct root_mean_square {
    static constexpr const char* name = "rms";
    template <class T>
    CUBIE_HD static T of(const moments::state<T>& s) {
        return cuda::std::sqrt(s.mean * s.mean + moments::variance(s));
    }
};

/// Read off the moments where std or rms is asked for too, else a summed_mean
/// (running_sum.hpp): a metric's `unshared` is its cheaper form for an accumulator no other
/// metric reads, which summaries<...> takes (output_layout.hpp); summary_windows given
/// `mean` itself keeps the moments.
struct mean : accumulator_reads<moments, mean_value> {
    static constexpr const char* name = "mean";
    using unshared = summed_mean;
};
/// Population standard deviation (ddof = 0). Called std_dev, not std, because a type named
/// std would hide namespace std wherever cubie::metrics is in scope.
struct std_dev : accumulator_reads<moments, standard_deviation> {
    static constexpr const char* name = "std";
};
struct rms : accumulator_reads<moments, root_mean_square> {
    static constexpr const char* name = "rms";
};
struct mean_std : accumulator_reads<moments, mean_value, standard_deviation> {
    static constexpr const char* name = "mean_std";
};
struct std_rms : accumulator_reads<moments, standard_deviation, root_mean_square> {
    static constexpr const char* name = "std_rms";
};
struct mean_std_rms : accumulator_reads<moments, mean_value, standard_deviation, root_mean_square> {
    static constexpr const char* name = "mean_std_rms";
};

}  // namespace cubie::metrics
