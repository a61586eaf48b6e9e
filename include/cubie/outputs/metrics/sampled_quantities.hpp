#pragma once
// The quantities whose extremes a window can track: the sampled value itself and its
// first and second time derivatives by central differences over the sampling interval S,
//   dx/dt(t_j)     ~ (x_{j+1} - x_{j-1}) / 2S
//   d2x/dt2(t_j)   ~ (x_{j+1} - 2 x_j + x_{j-1}) / S^2.
// Each carries the names of its max, min and extrema metrics.

#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/outputs/metrics/sample.hpp"

namespace cubie::metrics {

struct sampled_value {
    static constexpr bool needs_neighbours = false;
    static constexpr const char* max_name = "max";
    static constexpr const char* min_name = "min";
    static constexpr const char* extrema_name = "extrema";
    template <class T>
    CUBIE_HD static T of(const sample<T>& x) {
        return x.value;
    }
};

struct central_first_derivative {
    static constexpr bool needs_neighbours = true;
    static constexpr const char* max_name = "dxdt_max";
    static constexpr const char* min_name = "dxdt_min";
    static constexpr const char* extrema_name = "dxdt_extrema";
    /// x_j is not part of the difference; a NaN there still makes the derivative NaN, so
    /// that a NaN anywhere in a window shows in its derivative metrics.
    template <class T>
    CUBIE_HD static T of(const sample<T>& x) {
        return cuda::std::isnan(x.value) ? x.value : (x.next - x.previous) / (T(2) * x.interval);
    }
};

struct central_second_derivative {
    static constexpr bool needs_neighbours = true;
    static constexpr const char* max_name = "d2xdt2_max";
    static constexpr const char* min_name = "d2xdt2_min";
    static constexpr const char* extrema_name = "d2xdt2_extrema";
    template <class T>
    CUBIE_HD static T of(const sample<T>& x) {
        return (x.next - T(2) * x.value + x.previous) / (x.interval * x.interval);
    }
};

}  // namespace cubie::metrics
