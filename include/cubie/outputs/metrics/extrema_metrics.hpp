#pragma once
// The metrics read from running_extrema: max, min, both (extrema), max |x| (max_magnitude),
// and the same for the central-difference derivatives. Metrics of one quantity share one
// accumulator: max, min, extrema and max_magnitude together keep two values per variable.

#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/outputs/metrics/accumulator_reads.hpp"
#include "cubie/outputs/metrics/running_extrema.hpp"
#include "cubie/outputs/metrics/sampled_quantities.hpp"

namespace cubie::metrics {

/// What the metrics read off the state: the ends of the range, and the larger magnitude.
template <class Quantity>
struct largest_of {
    static constexpr const char* name = Quantity::max_name;
    template <class State>
    CUBIE_HD static auto of(const State& s) {
        return running_extrema<Quantity>::largest(s);
    }
};
template <class Quantity>
struct smallest_of {
    static constexpr const char* name = Quantity::min_name;
    template <class State>
    CUBIE_HD static auto of(const State& s) {
        return running_extrema<Quantity>::smallest(s);
    }
};
/// max |x|, from the ends of the range; NaN when either end is.
struct largest_magnitude {
    static constexpr const char* name = "max_magnitude";
    template <class T>
    CUBIE_HD static T of(const running_extrema<sampled_value>::state<T>& s) {
        const T upper = cuda::std::fabs(running_extrema<sampled_value>::largest(s));
        const T lower = cuda::std::fabs(running_extrema<sampled_value>::smallest(s));
        return (upper >= lower || cuda::std::isnan(upper)) ? upper : lower;
    }
};

template <class Quantity>
struct maximum_of : accumulator_reads<running_extrema<Quantity>, largest_of<Quantity>> {
    static constexpr const char* name = Quantity::max_name;
};
template <class Quantity>
struct minimum_of : accumulator_reads<running_extrema<Quantity>, smallest_of<Quantity>> {
    static constexpr const char* name = Quantity::min_name;
};
template <class Quantity>
struct extrema_of
    : accumulator_reads<running_extrema<Quantity>, largest_of<Quantity>, smallest_of<Quantity>> {
    static constexpr const char* name = Quantity::extrema_name;
};
struct max_magnitude : accumulator_reads<running_extrema<sampled_value>, largest_magnitude> {
    static constexpr const char* name = "max_magnitude";
};

// Write these qualified (metrics::max): under nvcc, CUDA's global functions max and min make
// an unqualified max or min ambiguous where a using-directive brings in cubie::metrics.
using max = maximum_of<sampled_value>;
using min = minimum_of<sampled_value>;
using extrema = extrema_of<sampled_value>;
using dxdt_max = maximum_of<central_first_derivative>;
using dxdt_min = minimum_of<central_first_derivative>;
using dxdt_extrema = extrema_of<central_first_derivative>;
using d2xdt2_max = maximum_of<central_second_derivative>;
using d2xdt2_min = minimum_of<central_second_derivative>;
using d2xdt2_extrema = extrema_of<central_second_derivative>;

}  // namespace cubie::metrics
