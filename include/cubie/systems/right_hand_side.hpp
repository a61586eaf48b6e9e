#pragma once
// f(t, y) of one trajectory: the system's rhs with this trajectory's parameters and the
// batch's drivers evaluated at t. Steppers see only this callable, so a method never
// needs to know what a system's inputs are. Stiff methods also ask it for J = d f / d y and
// d f / d t: the system's own derivatives where it has them, else forward differences.
//
// Forward-difference increments (eps: machine epsilon of value_type):
//   column j:  h_j = sqrt(eps) * max(|y_j|, 1)
//   time:      h   = sqrt(eps) * max(|t|, 1)
// sqrt(eps) balances the truncation error (h/2 times the second derivative) against the
// rounding error (eps |f| / h); with no tolerance or declared scale at hand, 1 stands for
// the typical magnitude of a state or time near zero. Each increment is then replaced by
// (x + h) - x, the step the perturbed argument really took, so that rounding x + h does not
// add an error of order eps |x| / h to the difference quotient.
//
// Matrix-free methods ask for J v alone (jvp): the system's own jvp where it has one, else
// the directional difference (f(t, y + e v) - f(t, y)) / e with
//
//   e = sqrt(eps) * sum_i max(|y_i|, 1) |v_i| / sum_i v_i^2,
//
// computed on v / max_i |v_i| (so that neither sum overflows or underflows) and scaled back.
// It is the column increment's rule along v: for v = e_j it is exactly h_j, and in general
// the step e v moves each component by sqrt(eps) times its scale max(|y_i|, 1) on average
// over v's weight |v_i| (the choice of Dennis and Schnabel, Numerical Methods for
// Unconstrained Optimization, 5.6, with |y| for y so that no cancellation in y . v can
// shrink the step). Only the components v moves enter, so a large component that v leaves
// alone does not inflate e. The step cannot be replaced by the one taken, as for a column:
// with w = v / max_i |v_i|, rounding y_i + e w_i errs by up to eps |y_i| / 2, which adds up
// to |J_ki| eps |y_i| / (2 e) to (J w)_k, negligible unless w_i is small against the rest of
// w relative to its scale. v = 0 gives J v = 0 without evaluating f, and a v that is not
// finite gives NaN (a Krylov solver then stops).

#include <cuda/std/array>
#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/core/config.hpp"
#include "cubie/drivers/cubic_spline.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

namespace detail {

/// x + h for the forward-difference increment h = sqrt(eps) * max(|x|, 1), as rounded.
template <class T>
CUBIE_HD T difference_point(T x) {
    const T root_eps = cuda::std::sqrt(cuda::std::numeric_limits<T>::epsilon());
    return x + root_eps * cuda::std::fmax(cuda::std::fabs(x), T(1));
}

}  // namespace detail

template <class System>
using driver_splines_t =
    cuda::std::array<cubic_spline_view<typename System::value_type>, System::n_drivers>;

template <ode_system System>
struct right_hand_side {
    static_assert(
        !requires { System::jacobian_pattern.nonzero; } || has_jacobian_pattern<System>,
        "a system's jacobian_pattern is a sparsity_pattern<n_states>, beside its "
        "jacobian");
    using system_type = System;
    using value_type = typename System::value_type;
    using state_type = state_t<System>;

    const System& system;
    const parameters_t<System>& parameters;
    const driver_splines_t<System>& drivers;

    CUBIE_HD void operator()(value_type t, const state_type& y, state_type& dydt) const {
        const drivers_t<System> d = drivers_at(t);
        system.rhs(t, y, parameters, d, dydt);
    }

    /// The system's observables at (t, y).
    CUBIE_HD void observables(value_type t, const state_type& y,
                              observables_t<System>& out) const requires has_observables<System> {
        const drivers_t<System> d = drivers_at(t);
        system.observables(t, y, parameters, d, out);
    }

    static constexpr bool analytic_jacobian = has_jacobian<System>;

    /// J = d f / d y at (t, y): the system's own jacobian when it has one, else forward
    /// differences, one f evaluation per column, from dydt = f(t, y) the caller already has.
    CUBIE_HD void jacobian(value_type t, const state_type& y, const state_type& dydt,
                           jacobian_t<System>& J) const {
        if constexpr (analytic_jacobian) {
            system.jacobian(t, y, parameters, drivers_at(t), J);
        } else {
            difference_columns(t, y, [&](int j, const state_type& f, value_type inverse_h) {
                CUBIE_UNROLL
                for (int i = 0; i < System::n_states; ++i) J[i][j] = (f[i] - dydt[i]) * inverse_h;
            });
        }
    }

    static constexpr bool analytic_jvp = has_jvp<System>;

    /// Jv = J v at (t, y): the system's own jvp when it has one (drivers at t, held fixed as
    /// in jacobian), else the directional forward difference above, one f evaluation, from
    /// dydt = f(t, y) the caller already has.
    CUBIE_HD void jvp(value_type t, const state_type& y, const state_type& dydt,
                      const state_type& v, state_type& Jv) const {
        if constexpr (analytic_jvp) {
            const drivers_t<System> d = drivers_at(t);
            system.jvp(t, y, parameters, d, v, Jv);
        } else {
            value_type largest = 0;
            bool finite = true;
            CUBIE_UNROLL
            for (int i = 0; i < System::n_states; ++i) {
                finite = finite && cuda::std::isfinite(v[i]);
                largest = cuda::std::fmax(largest, cuda::std::fabs(v[i]));
            }
            if (!finite || largest == value_type(0)) {
                const value_type fill =
                    finite ? value_type(0) : cuda::std::numeric_limits<value_type>::quiet_NaN();
                CUBIE_UNROLL
                for (int i = 0; i < System::n_states; ++i) Jv[i] = fill;
                return;
            }
            const value_type inverse_largest = value_type(1) / largest;
            state_type direction;  // v / max |v_i|: its largest component is +-1
            value_type weighted = 0, squared = 0;
            CUBIE_UNROLL
            for (int i = 0; i < System::n_states; ++i) {
                direction[i] = v[i] * inverse_largest;
                weighted += cuda::std::fmax(cuda::std::fabs(y[i]), value_type(1)) *
                            cuda::std::fabs(direction[i]);
                squared += direction[i] * direction[i];
            }
            const value_type e = cuda::std::sqrt(cuda::std::numeric_limits<value_type>::epsilon()) *
                                 weighted / squared;
            state_type perturbed;
            CUBIE_UNROLL
            for (int i = 0; i < System::n_states; ++i) perturbed[i] = y[i] + e * direction[i];
            state_type f;
            (*this)(t, perturbed, f);
            const value_type scale = largest / e;
            CUBIE_UNROLL
            for (int i = 0; i < System::n_states; ++i) Jv[i] = (f[i] - dydt[i]) * scale;
        }
    }

    /// The diagonal of J at (t, y), for Jacobi preconditioning, where possible without the
    /// N^2 values of J:
    ///   - with the system's jvp, its products with the N unit vectors: N jvps, though once
    ///     inlined and unrolled the zero components of e_j fold away and little more than
    ///     J's diagonal terms remain;
    ///   - with a jacobian but no jvp, J's diagonal: J is formed once, N^2 values for the
    ///     moment (such hand-written systems are small);
    ///   - else the diagonal of the forward-difference Jacobian, the same values as
    ///     jacobian's from the same N f evaluations, from dydt = f(t, y).
    CUBIE_HD void jacobian_diagonal(value_type t, const state_type& y, const state_type& dydt,
                                    state_type& diagonal) const {
        if constexpr (analytic_jvp) {
            const drivers_t<System> d = drivers_at(t);
            CUBIE_UNROLL
            for (int j = 0; j < System::n_states; ++j) {
                state_type unit{}, column;
                unit[j] = value_type(1);
                system.jvp(t, y, parameters, d, unit, column);
                diagonal[j] = column[j];
            }
        } else if constexpr (analytic_jacobian) {
            jacobian_t<System> J;
            jacobian(t, y, dydt, J);
            CUBIE_UNROLL
            for (int j = 0; j < System::n_states; ++j) diagonal[j] = J[j][j];
        } else {
            difference_columns(t, y, [&](int j, const state_type& f, value_type inverse_h) {
                diagonal[j] = (f[j] - dydt[j]) * inverse_h;
            });
        }
    }

    /// d f / d t at (t, y): the system's own time_derivative when it has one, else a forward
    /// difference in t (drivers make f depend on t), from dydt = f(t, y). The system's
    /// time_derivative holds the drivers fixed; their share, driver_jacobian times the
    /// drivers' rates, is added, and a driven system without driver_jacobian takes the
    /// difference.
    CUBIE_HD void time_derivative(value_type t, const state_type& y, const state_type& dydt,
                                  state_type& dfdt) const {
        constexpr bool drivers_covered = System::n_drivers == 0 || has_driver_jacobian<System>;
        if constexpr (has_time_derivative<System> && drivers_covered) {
            const drivers_t<System> d = drivers_at(t);
            system.time_derivative(t, y, parameters, d, dfdt);
            if constexpr (System::n_drivers > 0) {
                drivers_t<System> rates;
                driver_rates(drivers, t, rates);
                vector<drivers_t<System>, System::n_states> Jd;
                system.driver_jacobian(t, y, parameters, d, Jd);
                CUBIE_UNROLL
                for (int i = 0; i < System::n_states; ++i) {
                    CUBIE_UNROLL
                    for (int k = 0; k < System::n_drivers; ++k) dfdt[i] += Jd[i][k] * rates[k];
                }
            }
        } else {
            const value_type t_h = detail::difference_point(t);
            const value_type inverse_h = value_type(1) / (t_h - t);
            state_type f;
            (*this)(t_h, y, f);
            CUBIE_UNROLL
            for (int i = 0; i < System::n_states; ++i) dfdt[i] = (f[i] - dydt[i]) * inverse_h;
        }
    }
    /// The drivers' values at t (none for a system without drivers).
    CUBIE_HD drivers_t<System> drivers_at(value_type t) const {
        drivers_t<System> d{};
        if constexpr (System::n_drivers > 0) driver_values(drivers, t, d);
        return d;
    }

private:
    /// Calls column(j, f, inverse_h) for each column j of the forward-difference Jacobian:
    /// f at y with component j moved to its difference point, and 1 over the move. One f
    /// evaluation per column.
    template <class Column>
    CUBIE_HD void difference_columns(value_type t, const state_type& y, Column&& column) const {
        const drivers_t<System> d = drivers_at(t);
        state_type perturbed = y;
        CUBIE_UNROLL
        for (int j = 0; j < System::n_states; ++j) {
            perturbed[j] = detail::difference_point(y[j]);
            const value_type inverse_h = value_type(1) / (perturbed[j] - y[j]);
            state_type f;
            system.rhs(t, perturbed, parameters, d, f);
            perturbed[j] = y[j];
            column(j, f, inverse_h);
        }
    }
};

}  // namespace cubie
