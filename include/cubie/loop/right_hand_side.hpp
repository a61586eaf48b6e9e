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
    using value_type = typename System::value_type;
    using state_type = state_t<System>;

    const System& system;
    const parameters_t<System>& parameters;
    const driver_splines_t<System>& drivers;

    CUBIE_HD void operator()(value_type t, const state_type& y, state_type& dydt) const {
        drivers_t<System> d{};
        if constexpr (System::n_drivers > 0) driver_values(drivers, t, d);
        system.rhs(t, y, parameters, d, dydt);
    }

    /// The system's observables at (t, y).
    CUBIE_HD void observables(value_type t, const state_type& y,
                              observables_t<System>& out) const requires has_observables<System> {
        drivers_t<System> d{};
        if constexpr (System::n_drivers > 0) driver_values(drivers, t, d);
        system.observables(t, y, parameters, d, out);
    }

    static constexpr bool analytic_jacobian = has_jacobian<System>;

    /// J = d f / d y at (t, y): the system's own jacobian when it has one, else forward
    /// differences, one f evaluation per column, from dydt = f(t, y) the caller already has.
    CUBIE_HD void jacobian(value_type t, const state_type& y, const state_type& dydt,
                           jacobian_t<System>& J) const {
        drivers_t<System> d{};
        if constexpr (System::n_drivers > 0) driver_values(drivers, t, d);
        if constexpr (analytic_jacobian) {
            system.jacobian(t, y, parameters, d, J);
        } else {
            state_type perturbed = y;
            CUBIE_UNROLL
            for (int j = 0; j < System::n_states; ++j) {
                perturbed[j] = detail::difference_point(y[j]);
                const value_type inverse_h = value_type(1) / (perturbed[j] - y[j]);
                state_type f;
                system.rhs(t, perturbed, parameters, d, f);
                perturbed[j] = y[j];
                CUBIE_UNROLL
                for (int i = 0; i < System::n_states; ++i) J[i][j] = (f[i] - dydt[i]) * inverse_h;
            }
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
            drivers_t<System> d{};
            if constexpr (System::n_drivers > 0) driver_values(drivers, t, d);
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
};

}  // namespace cubie
