#pragma once
// Fitting a driver's cubic spline on the host, once per batch: the slopes at the knots
// solve a tridiagonal system (cyclic for periodic splines) in double precision; the
// coefficients are then stored in the working precision for cubic_spline_view.
//
//   cubie::cubic_spline<float> force(t, samples, {cubie::spline_boundary::periodic,
//                                                 .wrap = true});
//   cubie::cubic_spline_view<float> v = force.view();   // host pointers
//
// Boundary conditions are those of SciPy's CubicSpline: natural (s'' = 0 at both ends),
// clamped (given end slopes), not-a-knot (s''' continuous at t_1 and t_{n-1}; SciPy's
// default) and periodic (s, s', s'' equal at both ends; needs y_0 = y_n).

#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/drivers/cubic_spline.hpp"

namespace cubie {

enum class spline_boundary { natural, clamped, not_a_knot, periodic };

struct spline_options {
    spline_boundary boundary = spline_boundary::not_a_knot;
    double start_slope = 0;  ///< clamped only: s'(t_0)
    double end_slope = 0;    ///< clamped only: s'(t_n)
    bool wrap = false;       ///< evaluate t modulo t_n - t_0 (periodic forcing)
};

namespace detail {

/// Solves the tridiagonal system sub[i] x[i-1] + diag[i] x[i] + super[i] x[i+1] = rhs[i]
/// (Thomas algorithm); rhs becomes x.
inline void solve_tridiagonal(std::vector<double> sub, std::vector<double> diag,
                              std::vector<double> super, std::vector<double>& rhs) {
    const std::size_t n = diag.size();
    for (std::size_t i = 1; i < n; ++i) {
        const double w = sub[i] / diag[i - 1];
        diag[i] -= w * super[i - 1];
        rhs[i] -= w * rhs[i - 1];
    }
    rhs[n - 1] /= diag[n - 1];
    for (std::size_t i = n - 1; i-- > 0;) rhs[i] = (rhs[i] - super[i] * rhs[i + 1]) / diag[i];
}

/// Slopes s_i at the knots for the given boundary condition (SciPy's equations).
inline std::vector<double> spline_slopes(std::span<const double> t, std::span<const double> y,
                                         const spline_options& options) {
    const std::size_t n = t.size() - 1;  // intervals
    std::vector<double> dx(n), m(n);
    for (std::size_t k = 0; k < n; ++k) {
        dx[k] = t[k + 1] - t[k];
        m[k] = (y[k + 1] - y[k]) / dx[k];
    }
    // Interior rows: dx_i s_{i-1} + 2 (dx_{i-1} + dx_i) s_i + dx_{i-1} s_{i+1} = ...
    auto interior = [&](std::size_t i, double& a, double& b, double& c, double& r) {
        const std::size_t before = (i + n - 1) % n;  // i - 1, cyclically for periodic
        a = dx[i % n];
        b = 2 * (dx[before] + dx[i % n]);
        c = dx[before];
        r = 3 * (dx[i % n] * m[before] + dx[before] * m[i % n]);
    };

    if (options.boundary == spline_boundary::periodic) {
        // Unknowns s_0..s_{n-1} (s_n = s_0): a cyclic system, solved by Sherman-Morrison
        // as a tridiagonal one plus a rank-one correction of its two corners.
        std::vector<double> a(n), b(n), c(n), r(n);
        for (std::size_t i = 0; i < n; ++i) interior(i, a[i], b[i], c[i], r[i]);
        const double alpha = c[n - 1], beta = a[0], gamma = -b[0];
        std::vector<double> diag = b;
        diag[0] -= gamma;
        diag[n - 1] -= alpha * beta / gamma;
        std::vector<double> x = r, u(n, 0.0);
        solve_tridiagonal(a, diag, c, x);
        u[0] = gamma;
        u[n - 1] = alpha;
        solve_tridiagonal(a, diag, c, u);
        const double factor =
            (x[0] + beta * x[n - 1] / gamma) / (1 + u[0] + beta * u[n - 1] / gamma);
        for (std::size_t i = 0; i < n; ++i) x[i] -= factor * u[i];
        x.push_back(x[0]);
        return x;
    }

    std::vector<double> a(n + 1, 0.0), b(n + 1, 0.0), c(n + 1, 0.0), r(n + 1, 0.0);
    for (std::size_t i = 1; i < n; ++i) interior(i, a[i], b[i], c[i], r[i]);
    switch (options.boundary) {
        case spline_boundary::natural:
            b[0] = 2, c[0] = 1, r[0] = 3 * m[0];
            a[n] = 1, b[n] = 2, r[n] = 3 * m[n - 1];
            break;
        case spline_boundary::clamped:
            b[0] = 1, r[0] = options.start_slope;
            b[n] = 1, r[n] = options.end_slope;
            break;
        case spline_boundary::not_a_knot: {
            const double d0 = dx[0] + dx[1], dn = dx[n - 1] + dx[n - 2];
            b[0] = dx[1], c[0] = d0;
            r[0] = ((dx[0] + 2 * d0) * dx[1] * m[0] + dx[0] * dx[0] * m[1]) / d0;
            a[n] = dn, b[n] = dx[n - 2];
            r[n] =
                (dx[n - 1] * dx[n - 1] * m[n - 2] + (2 * dn + dx[n - 1]) * dx[n - 2] * m[n - 1]) /
                dn;
            break;
        }
        case spline_boundary::periodic:
            break;
    }
    solve_tridiagonal(a, b, c, r);
    return r;
}

inline void check_spline_samples(std::span<const double> t, std::span<const double> y,
                                 const spline_options& options) {
    auto fail = [](const std::string& why) { throw std::invalid_argument("cubic spline: " + why); };
    if (t.size() != y.size())
        fail(std::to_string(t.size()) + " knots but " + std::to_string(y.size()) + " samples");
    const bool needs_four = options.boundary == spline_boundary::not_a_knot ||
                            options.boundary == spline_boundary::periodic;
    if (t.size() < (needs_four ? 4u : 2u))
        fail("needs at least " + std::string(needs_four ? "4" : "2") + " samples, got " +
             std::to_string(t.size()));
    for (std::size_t k = 0; k < t.size(); ++k) {
        if (!std::isfinite(t[k]) || !std::isfinite(y[k]))
            fail("sample " + std::to_string(k) + " is not finite");
        if (k > 0 && !(t[k] > t[k - 1]))
            fail("knots must increase strictly; t[" + std::to_string(k) + "] does not");
    }
    if (options.boundary == spline_boundary::periodic && y.front() != y.back())
        fail("a periodic spline needs its first and last samples equal");
    if (options.boundary == spline_boundary::clamped &&
        !(std::isfinite(options.start_slope) && std::isfinite(options.end_slope)))
        fail("clamped end slopes must be finite");
}

}  // namespace detail

/// A driver's spline, fitted on the host and owning its knots and coefficients (working
/// precision T). view() hands them to cubic_spline_view; copy them to the device for a
/// kernel.
template <class T>
class cubic_spline {
public:
    cubic_spline(std::span<const double> given_knots, std::span<const double> y,
                 const spline_options& options = {})
        : wrap_(options.wrap) {
        detail::check_spline_samples(given_knots, y, options);
        // Fitted on the knots as T holds them, where the solve evaluates the spline: fitted
        // on the given ones, its pieces would not meet where T rounds the knots apart.
        for (std::size_t k = 0; k < given_knots.size(); ++k) {
            knots_.push_back(narrow(given_knots[k], "knot " + std::to_string(k)));
            if (k > 0 && !(knots_[k] > knots_[k - 1]))
                throw std::invalid_argument(
                    "cubic spline: knots " + std::to_string(k - 1) + " and " + std::to_string(k) +
                    " are equal in the working precision; space them further apart or solve "
                    "in double");
        }
        const std::vector<double> t(knots_.begin(), knots_.end());
        const std::vector<double> s = detail::spline_slopes(t, y, options);
        const std::size_t n = t.size() - 1;
        coefficients_.resize(4 * n);
        for (std::size_t k = 0; k < n; ++k) {
            const double dx = t[k + 1] - t[k];
            const double m = (y[k + 1] - y[k]) / dx;
            const std::string interval = "interval " + std::to_string(k);
            coefficients_[4 * k + 0] = narrow(y[k], interval);
            coefficients_[4 * k + 1] = narrow(s[k], interval);
            coefficients_[4 * k + 2] = narrow((3 * m - 2 * s[k] - s[k + 1]) / dx, interval);
            coefficients_[4 * k + 3] = narrow((s[k] + s[k + 1] - 2 * m) / (dx * dx), interval);
        }
    }

    /// Points into this spline's arrays: none of a temporary, which would dangle.
    cubic_spline_view<T> view() const& {
        return {knots_.data(), coefficients_.data(), static_cast<int>(knots_.size()) - 1, wrap_};
    }
    cubic_spline_view<T> view() const&& = delete;
    const std::vector<T>& knots() const { return knots_; }
    const std::vector<T>& coefficients() const { return coefficients_; }

private:
    /// A value in T, refused where T cannot hold it: valid in double is not enough, the
    /// solve evaluates the spline in T.
    static T narrow(double value, const std::string& where) {
        if (!(std::abs(value) <= double(std::numeric_limits<T>::max())))
            throw std::invalid_argument("cubic spline: " + where +
                                        " overflows the working precision (samples or slopes "
                                        "beyond its range); rescale the driver or solve in "
                                        "double");
        return static_cast<T>(value);
    }

    std::vector<T> knots_;
    std::vector<T> coefficients_;
    bool wrap_;
};

}  // namespace cubie
