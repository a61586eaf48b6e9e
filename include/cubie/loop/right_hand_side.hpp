#pragma once
// f(t, y) of one trajectory: the system's rhs with this trajectory's parameters and the
// batch's drivers evaluated at t. Steppers see only this callable, so a method never
// needs to know what a system's inputs are.

#include <cuda/std/array>

#include "cubie/core/config.hpp"
#include "cubie/drivers/cubic_spline.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

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
};

}  // namespace cubie
