#pragma once
// The Stepper concept: one step of a method, as integrate() takes it. Every family's
// generic stepper (explicit_runge_kutta, dirk, rosenbrock, implicit_runge_kutta) models it.
//
//   name, order              static constexpr: the method's name and order
//   fsal                     static constexpr bool: a step leaves f(t + h, y_new) in dydt_new
//   has_error_estimate       static constexpr bool: adaptive controllers need it
//   step(f, t, h, y, dydt, y_new, dydt_new)
//                            y_new = y(t + h) from y and dydt = f(t, y); f is the
//                            trajectory's right_hand_side (systems/right_hand_side.hpp)
//   step_with_error(f, t, h, y, dydt, y_new, dydt_new, tolerances) -> T
//                            the same, returning the weighted RMS norm of the local error
//                            (controllers/error_norm.hpp); where has_error_estimate
//
// Optional members, used where present:
//
//   implicit = true          the steps above take an implicit_step_report& last
//                            (linear/implicit_step_report.hpp)
//   has_dense_output = true  dense_stages_t<State>, step_with_error(..., tolerances, k),
//                            prepare_dense_output(f, t, h, y, k) and
//                            interpolate(h, y, k, theta, y_out): the step's interpolant
//   keeps_dydt_across_rejections = false
//                            the step reads dydt only before its later stages, which are
//                            short of registers: the adaptive loop evaluates f(t, y) again
//                            after a rejected step rather than keep it through them, where
//                            neither FSAL, events nor interpolated outputs need it kept
//                            (loop/adaptive_loop.hpp)

#include <concepts>

#include "cubie/controllers/error_norm.hpp"
#include "cubie/linear/implicit_step_report.hpp"
#include "cubie/systems/ode_system.hpp"
#include "cubie/systems/right_hand_side.hpp"

namespace cubie {

/// Algorithms whose steps take an implicit_step_report (implicit = true).
template <class Algorithm>
constexpr bool is_implicit() {
    return requires {
        requires Algorithm::implicit;
    };
}

/// Algorithms with a continuous extension, an interpolant of the step (has_dense_output =
/// true).
template <class Algorithm>
constexpr bool has_dense_output() {
    return requires {
        requires Algorithm::has_dense_output;
    };
}

/// Whether the adaptive loop keeps f(t, y) across a rejected step: unless the algorithm
/// says not to (keeps_dydt_across_rejections = false).
template <class Algorithm>
constexpr bool keeps_dydt_across_rejections() {
    return !requires {
        requires !Algorithm::keeps_dydt_across_rejections;
    };
}

namespace detail {

/// The smallest system, with a Jacobian, that a stepper's calls are checked against.
struct stepper_probe {
    using value_type = float;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 0;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    void rhs(float, const state_t<stepper_probe>&, const parameters_t<stepper_probe>&,
             const drivers_t<stepper_probe>&, state_t<stepper_probe>&) const;
    void jacobian(float, const state_t<stepper_probe>&, const parameters_t<stepper_probe>&,
                  const drivers_t<stepper_probe>&, jacobian_t<stepper_probe>&) const;
};

template <class A>
concept plain_step = requires(const right_hand_side<stepper_probe>& f, float t,
                              const state_t<stepper_probe>& y, state_t<stepper_probe>& y_new) {
    A::step(f, t, t, y, y, y_new, y_new);
};

template <class A>
concept reporting_step = requires(const right_hand_side<stepper_probe>& f, float t,
                                  const state_t<stepper_probe>& y, state_t<stepper_probe>& y_new,
                                  implicit_step_report& report) {
    A::step(f, t, t, y, y, y_new, y_new, report);
};

template <class A>
concept plain_step_with_error = requires(const right_hand_side<stepper_probe>& f, float t,
                                         const state_t<stepper_probe>& y,
                                         state_t<stepper_probe>& y_new,
                                         const tolerances<float, 1>& tol) {
    { A::step_with_error(f, t, t, y, y, y_new, y_new, tol) } -> std::same_as<float>;
};

template <class A>
concept reporting_step_with_error = requires(const right_hand_side<stepper_probe>& f, float t,
                                             const state_t<stepper_probe>& y,
                                             state_t<stepper_probe>& y_new,
                                             const tolerances<float, 1>& tol,
                                             implicit_step_report& report) {
    { A::step_with_error(f, t, t, y, y, y_new, y_new, tol, report) } -> std::same_as<float>;
};

}  // namespace detail

template <class A>
concept stepper = requires {
    { A::name } -> std::convertible_to<const char*>;
    { A::order } -> std::convertible_to<int>;
    { A::fsal } -> std::convertible_to<bool>;
    { A::has_error_estimate } -> std::convertible_to<bool>;
}
&&(is_implicit<A>() ? detail::reporting_step<A> : detail::plain_step<A>);

/// A stepper with an error estimate, as adaptive controllers need.
template <class A>
concept embedded_stepper = stepper<A> && A::has_error_estimate &&
    (is_implicit<A>() ? detail::reporting_step_with_error<A> : detail::plain_step_with_error<A>);

}  // namespace cubie
