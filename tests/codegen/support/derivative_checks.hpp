#pragma once
// Checks of a generated system's derivatives against central finite differences of its
// own rhs at random points: jacobian, jvp, time_derivative and driver_jacobian.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "cubie/systems/ode_system.hpp"

namespace cubie::testing {

/// Where the random points lie: each state at default_state +- state_spread, each
/// parameter at default_parameters times [0.8, 1.2], drivers and t uniform in ranges.
struct point_ranges {
    double state_spread = 1;
    double t_min = 0, t_max = 1;
    double driver_min = -1, driver_max = 1;
};

template <class S>
struct sample_point {
    double t = 0;
    state_t<S> y{};
    parameters_t<S> p{};
    drivers_t<S> d{};
};

template <class S>
sample_point<S> random_point(std::mt19937_64& rng, const point_ranges& r) {
    std::uniform_real_distribution<double> unit(-1, 1), scale(0.8, 1.2), t(r.t_min, r.t_max),
        driver(r.driver_min, r.driver_max);
    sample_point<S> x;
    x.t = t(rng);
    for (int i = 0; i < S::n_states; ++i) x.y[i] = S::default_state[i] + r.state_spread * unit(rng);
    for (int k = 0; k < S::n_parameters; ++k) x.p[k] = S::default_parameters[k] * scale(rng);
    for (int k = 0; k < S::n_drivers; ++k) x.d[k] = driver(rng);
    return x;
}

/// (f(x + h) - f(x - h)) / 2h for f = rhs, where shift(x, +-h) moves the point.
template <class S, class Shift>
state_t<S> central_difference(const S& sys, sample_point<S> x, double h, Shift shift) {
    sample_point<S> plus = x, minus = x;
    shift(plus, h);
    shift(minus, -h);
    state_t<S> fp, fm, out;
    sys.rhs(plus.t, plus.y, plus.p, plus.d, fp);
    sys.rhs(minus.t, minus.y, minus.p, minus.d, fm);
    for (int i = 0; i < S::n_states; ++i) out[i] = (fp[i] - fm[i]) / (2 * h);
    return out;
}

/// |a - b| small against the scale of the row it belongs to (derivatives of one f_i).
inline bool close(double a, double b, double row_scale, double tolerance) {
    return std::abs(a - b) <= tolerance * (row_scale + std::abs(b)) + 1e-300;
}

inline double step_for(double x) {
    return 1e-6 * std::max(std::abs(x), 1e-3);
}

template <class S>
void check_derivatives(const char* name, const point_ranges& ranges, int points = 5,
                       double tolerance = 1e-6) {
    static_assert(has_jvp<S> && has_time_derivative<S>);
    const S sys{};
    std::mt19937_64 rng(20240611);
    constexpr int n = S::n_states;
    for (int sample = 0; sample < points; ++sample) {
        const sample_point<S> x = random_point<S>(rng, ranges);
        CAPTURE(name);
        CAPTURE(sample);

        // Columns of J by differences in each state.
        jacobian_t<S> fd{};
        for (int j = 0; j < n; ++j) {
            const double h = step_for(x.y[j]);
            const state_t<S> column =
                central_difference(sys, x, h, [j](sample_point<S>& q, double dh) { q.y[j] += dh; });
            for (int i = 0; i < n; ++i) fd[i][j] = column[i];
        }
        state_t<S> row_scale{};
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) row_scale[i] = std::max(row_scale[i], std::abs(fd[i][j]));

        if constexpr (has_jacobian<S>) {
            jacobian_t<S> J;
            sys.jacobian(x.t, x.y, x.p, x.d, J);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                    CAPTURE(i);
                    CAPTURE(j);
                    CHECK(close(J[i][j], fd[i][j], row_scale[i], tolerance));
                }
        }

        // J v against the differences along v, and against the Jacobian's columns.
        state_t<S> v;
        std::uniform_real_distribution<double> unit(-1, 1);
        for (int j = 0; j < n; ++j) v[j] = unit(rng);
        state_t<S> jv;
        sys.jvp(x.t, x.y, x.p, x.d, v, jv);
        for (int i = 0; i < n; ++i) {
            double expected = 0, scale = 0;
            for (int j = 0; j < n; ++j) {
                expected += fd[i][j] * v[j];
                scale += std::abs(fd[i][j] * v[j]);
            }
            CAPTURE(i);
            CHECK(close(jv[i], expected, scale, tolerance));
        }

        // Partial derivative in t, with y, p and the driver values held.
        state_t<S> dfdt;
        sys.time_derivative(x.t, x.y, x.p, x.d, dfdt);
        const state_t<S> fd_t = central_difference(
            sys, x, step_for(x.t), [](sample_point<S>& q, double dh) { q.t += dh; });
        state_t<S> f;
        sys.rhs(x.t, x.y, x.p, x.d, f);
        for (int i = 0; i < n; ++i) {
            CAPTURE(i);
            // Scale: how large f_i's change over a unit of time could be, from f itself.
            CHECK(close(dfdt[i], fd_t[i], std::abs(fd_t[i]) + 1e-6 * std::abs(f[i]), tolerance));
        }

        if constexpr (S::n_drivers > 0) {
            vector<vector<double, S::n_drivers>, n> Jd;
            sys.driver_jacobian(x.t, x.y, x.p, x.d, Jd);
            for (int k = 0; k < S::n_drivers; ++k) {
                const state_t<S> column = central_difference(
                    sys, x, step_for(x.d[k]), [k](sample_point<S>& q, double dh) { q.d[k] += dh; });
                for (int i = 0; i < n; ++i) {
                    CAPTURE(i);
                    CAPTURE(k);
                    CHECK(close(Jd[i][k], column[i], row_scale[i], tolerance));
                }
            }
        }
    }
}

}  // namespace cubie::testing
