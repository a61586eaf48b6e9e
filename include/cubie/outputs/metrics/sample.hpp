#pragma once
// One sample of a summarised variable, as an accumulator receives it.

#include <cstdint>

namespace cubie::metrics {

/// The value x_j of a variable at sample time t_j = t0 + j S. previous (x_{j-1}) and next
/// (x_{j+1}) are filled for accumulators that need neighbours, and NaN for the others.
template <class T>
struct sample {
    T value;
    T previous;
    T next;
    T time;      ///< t_j
    T interval;  ///< S, the sampling interval
    /// For accumulators without neighbours: 1 / n, n the samples of the window so far
    /// (this one included), computed once per sample for every variable.
    T reciprocal_count;
    /// For accumulators without neighbours: n, the samples of the window so far.
    std::uint32_t count;
};

}  // namespace cubie::metrics
