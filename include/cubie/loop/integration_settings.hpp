#pragma once
// What the integration loop reads: the settings of one integration in the working
// precision, controller exponents precomputed. Made from user-facing solve_settings by
// make_integration_settings (solve_settings.hpp); travels as a kernel argument.

#include <cstdint>

#include "cubie/algorithms/stepper.hpp"
#include "cubie/controllers/controller.hpp"
#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"
#include "cubie/systems/right_hand_side.hpp"

namespace cubie {

struct no_controller_parameters {};

template <class Controller, class T, bool = Controller::adaptive>
struct controller_parameters_of {
    using type = no_controller_parameters;
};
template <class Controller, class T>
struct controller_parameters_of<Controller, T, true> {
    using type = typename Controller::template parameters<T>;
};

template <stepper Algorithm, step_controller Controller, ode_system System>
struct integration_settings {
    using value_type = typename System::value_type;
    using controller_parameters = typename controller_parameters_of<Controller, value_type>::type;

    value_type t0, t_end, dt, dt_min, dt_max;
    value_type duration;  ///< t_end - t0, computed in double and rounded once
    std::uint32_t max_steps;
    std::uint32_t fixed_steps;  ///< fixed step only: number of steps, the last shortened
    value_type last_dt;         ///< fixed step only: the last step's length
    tolerances<value_type, System::n_states> tol;
    controller_parameters controller;
    driver_splines_t<System> drivers;  ///< set by the backend: memory it can read

    /// The same settings for another stepper of the same system and controller (a variant of
    /// the method: core/thread_shared.hpp).
    template <stepper Other>
    integration_settings<Other, Controller, System> for_stepper() const {
        return {t0,        t_end,       dt,      dt_min, dt_max,     duration,
                max_steps, fixed_steps, last_dt, tol,    controller, drivers};
    }

    /// The same settings over [from, to], for a loop that integrates in pieces (adaptive
    /// controllers only: a fixed step's count is validated on the host). The span is
    /// taken in double, as make_integration_settings takes it.
    CUBIE_HD integration_settings over(double from, double to) const
        requires(Controller::adaptive) {
        integration_settings piece = *this;
        piece.t0 = value_type(from);
        piece.t_end = value_type(to);
        piece.duration = value_type(to - from);
        return piece;
    }
};

}  // namespace cubie
