#pragma once
// Drivers: time-dependent inputs of a system (a forcing, an injected current), sampled at
// knots t_0 < t_1 < ... < t_n, shared by every trajectory of a batch and interpolated on
// the device by cubic splines. The fit runs once on the host
// (cubie/drivers/cubic_spline_fit.hpp); evaluation, here, is __host__ __device__ and reads
// two flat arrays, so it works the same from a kernel and from the host backend.
//
//   s(t) = c0 + c1 dt + c2 dt^2 + c3 dt^3,   dt = t - t_k,   t_k <= t < t_{k+1}
//
// Outside [t_0, t_n] the end polynomials extrapolate, as SciPy's CubicSpline does, unless
// the spline wraps around: then t is taken modulo the period t_n - t_0 (periodic forcing).

#include <cuda/std/array>
#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"

namespace cubie {

/// A fitted spline as the device reads it: n_intervals + 1 knots and, for interval k,
/// the coefficients c0..c3 at coefficients[4 k .. 4 k + 3]. Views do not own memory.
template <class T>
struct cubic_spline_view {
    const T* knots = nullptr;
    const T* coefficients = nullptr;
    int n_intervals = 0;
    bool wrap = false;  ///< t modulo (t_n - t_0): periodic forcing

    /// s(t).
    CUBIE_HD T value(T t) const {
        const int k = locate(t);
        const T* c = coefficients + 4 * k;
        const T dt = t - knots[k];
        return c[0] + dt * (c[1] + dt * (c[2] + dt * c[3]));
    }

    /// s'(t): what a driver adds to a time derivative (see driver_jacobian).
    CUBIE_HD T derivative(T t) const {
        const int k = locate(t);
        const T* c = coefficients + 4 * k;
        const T dt = t - knots[k];
        return c[1] + dt * (T(2) * c[2] + dt * T(3) * c[3]);
    }

private:
    /// The interval whose polynomial gives s(t), after wrapping t into the period.
    CUBIE_HD int locate(T& t) const {
        const T first = knots[0];
        if (wrap) {
            const T period = knots[n_intervals] - first;
            t = first + cuda::std::fmod(t - first, period);
            if (t < first) t += period;
        }
        int low = 0, high = n_intervals;  // knots[low] <= t < knots[high], or an end
        while (high - low > 1) {
            const int middle = (low + high) / 2;
            if (t >= knots[middle])
                low = middle;
            else
                high = middle;
        }
        return low;
    }
};

/// The drivers' values at t, one spline per driver, in the system's driver order.
template <class T, cuda::std::size_t N>
CUBIE_HD void driver_values(const cuda::std::array<cubic_spline_view<T>, N>& splines, T t,
                            vector<T, static_cast<int>(N)>& d) {
    CUBIE_UNROLL
    for (cuda::std::size_t k = 0; k < N; ++k) d[k] = splines[k].value(t);
}

/// The drivers' rates of change at t.
template <class T, cuda::std::size_t N>
CUBIE_HD void driver_rates(const cuda::std::array<cubic_spline_view<T>, N>& splines, T t,
                           vector<T, static_cast<int>(N)>& rates) {
    CUBIE_UNROLL
    for (cuda::std::size_t k = 0; k < N; ++k) rates[k] = splines[k].derivative(t);
}

}  // namespace cubie
