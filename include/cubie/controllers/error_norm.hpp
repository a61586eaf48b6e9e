#pragma once
// Error tolerances and the weighted RMS norm that adaptive controllers act on:
//   ||e|| = sqrt(1/n sum_i (e_i / (atol_i + rtol_i max(|y_i|, |y_new_i|)))^2)
// A step is acceptable when ||e|| <= 1.

#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"

namespace cubie {

template <class T, int N>
struct tolerances {
    vector<T, N> atol;
    vector<T, N> rtol;
};

/// Scale of component i: the error it may carry.
template <class T, int N>
CUBIE_HD T error_scale(const tolerances<T, N>& tol, const vector<T, N>& y,
                       const vector<T, N>& y_new, int i) {
    using cuda::std::fabs;
    using cuda::std::fmax;
    return tol.atol[i] + tol.rtol[i] * fmax(fabs(y[i]), fabs(y_new[i]));
}

/// Weighted RMS norm of an error vector e (already multiplied by dt).
template <class T, int N>
CUBIE_HD T weighted_rms_norm(const vector<T, N>& e, const tolerances<T, N>& tol,
                             const vector<T, N>& y, const vector<T, N>& y_new) {
    T sum = 0;
    CUBIE_UNROLL
    for (int i = 0; i < N; ++i) {
        const T r = e[i] / error_scale(tol, y, y_new, i);
        sum += r * r;
    }
    return cuda::std::sqrt(sum / T(N));
}

}  // namespace cubie
