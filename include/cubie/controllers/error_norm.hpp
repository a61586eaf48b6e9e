#pragma once
// Error tolerances and the weighted RMS norm that adaptive controllers act on:
//   ||e|| = sqrt(1/n sum_i (e_i / (atol_i + rtol_i max(|y_i|, |y_new_i|)))^2)
// A step is acceptable when ||e|| <= 1. The norm only steers the step size, so it is
// computed with the approximate operations of core/step_size_math.hpp.

#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/core/dealt_out_state.hpp"
#include "cubie/core/step_size_math.hpp"
#include "cubie/core/vector.hpp"

namespace cubie {

template <class T, int N>
struct tolerances {
    vector<T, N> atol;
    vector<T, N> rtol;
};

/// Every atol and rtol equal to `value`.
template <class T, int N>
CUBIE_HD tolerances<T, N> uniform_tolerances(T value) {
    tolerances<T, N> tol;
    CUBIE_UNROLL
    for (int i = 0; i < N; ++i) tol.atol[i] = tol.rtol[i] = value;
    return tol;
}

/// Scale of component i: the error it may carry.
template <class T, int N>
CUBIE_HD T error_scale(const tolerances<T, N>& tol, const vector<T, N>& y,
                       const vector<T, N>& y_new, int i) {
    using cuda::std::fabs;
    using cuda::std::fmax;
    return tol.atol[i] + tol.rtol[i] * fmax(fabs(y[i]), fabs(y_new[i]));
}

/// sum_i (e_i / scale_i)^2 over the N components e holds.
template <class T, int N, class Error>
CUBIE_HD T weighted_square_sum(const Error& e, const tolerances<T, N>& tol, const vector<T, N>& y,
                               const vector<T, N>& y_new) {
    T sum = 0;
    CUBIE_UNROLL
    for (int i = 0; i < N; ++i) {
        const T r = step_size_divide(e[i], error_scale(tol, y, y_new, i));
        sum += r * r;
    }
    return sum;
}

/// Weighted RMS norm of an error vector e (already multiplied by dt).
template <class T, int N>
CUBIE_HD T weighted_rms_norm(const vector<T, N>& e, const tolerances<T, N>& tol,
                             const vector<T, N>& y, const vector<T, N>& y_new) {
    return step_size_sqrt(weighted_square_sum(e, tol, y, y_new) * (T(1) / T(N)));
}

/// The same norm of a state dealt out over lanes (core/dealt_out_state.hpp): each lane sums
/// its own components (tolerances and all), then every lane takes the sum over the lanes,
/// over the whole state's size.
template <dealt_out_state State, class Error, class T, int N>
CUBIE_HD T weighted_rms_norm(const Error& e, const tolerances<T, N>& tol, const State& y,
                             const State& y_new) {
    const T sum = State::sum_over_lanes(weighted_square_sum(e, tol, y, y_new));
    return step_size_sqrt(sum * (T(1) / T(State::whole_size)));
}

}  // namespace cubie
