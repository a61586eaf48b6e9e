#pragma once
// The System concept: what an ODE right-hand side must provide.
//
//   value_type                        float or double, the working precision
//   n_states, n_parameters,
//   n_observables, n_drivers          static constexpr int sizes
//   rhs(t, y, p, drivers, dydt) const writes dy/dt at (t, y) for parameters p
//
// Optional members, used where present:
//
//   observables(t, y, p, drivers, out) const     named intermediate quantities
//   jacobian(t, y, p, drivers, J) const          J[i][j] = d f_i / d y_j (dense)
//   jvp(t, y, p, drivers, v, Jv) const           Jacobian-vector product J v
//   time_derivative(t, y, p, drivers, dfdt) const  partial f / partial t, drivers held fixed
//   driver_jacobian(t, y, p, drivers, Jd) const  Jd[i][k] = d f_i / d driver_k
//   jacobian_pattern                             static constexpr sparsity_pattern<n_states>:
//                                                the entries jacobian can write nonzero
//   rhs_at(i, t, y, p, drivers) const            dy_i/dt alone, y read by index (generated)
//
// Constants of a model are static constexpr members and compile into the kernel;
// parameters vary per trajectory and arrive at run time. All arrays are fixed-size
// cubie::vector values, so a system costs registers, never memory traffic.

#include <concepts>
#include <type_traits>

#include "cubie/core/vector.hpp"
#include "cubie/systems/sparsity_pattern.hpp"

namespace cubie {

/// A system's state: n_states values, unless an overload of state_of for the system says
/// otherwise (a lane's share of a state dealt out over lanes, loop/lane_system.hpp). An
/// overload rather than a trait class: a system's own declarations name its state while
/// the system is incomplete, which a trait instantiated on it could not read.
template <class S>
auto state_of(const S*) -> vector<typename S::value_type, S::n_states>;
template <class S>
using state_t = decltype(state_of(static_cast<const S*>(nullptr)));
template <class S>
using parameters_t = vector<typename S::value_type, S::n_parameters>;
template <class S>
using drivers_t = vector<typename S::value_type, S::n_drivers>;

template <class S>
using observables_t = vector<typename S::value_type, S::n_observables>;
template <class S>
using jacobian_t = vector<state_t<S>, S::n_states>;  ///< row i: d f_i / d y

template <class S>
concept ode_system = std::floating_point<typename S::value_type> &&(S::n_states >= 1) &&
                     (S::n_parameters >= 0) && (S::n_observables >= 0) && (S::n_drivers >= 0) &&
                     requires(const S& sys, typename S::value_type t, const state_t<S>& y,
                              const parameters_t<S>& p, const drivers_t<S>& d, state_t<S>& dydt) {
    sys.rhs(t, y, p, d, dydt);
};

/// A system that gives one component of dy/dt alone, from a state read by index (the
/// generator writes rhs_at): what a lane evaluates when an explicit method deals the state
/// out over lanes (loop/lane_system.hpp).
template <class S>
concept has_rhs_at = ode_system<S> &&
    requires(const S& sys, typename S::value_type t, const typename S::value_type* y,
             const parameters_t<S>& p, const drivers_t<S>& d) {
    { sys.rhs_at(0, t, y, p, d) } -> std::same_as<typename S::value_type>;
};

template <class S>
concept has_observables = ode_system<S> &&
    requires(const S& sys, typename S::value_type t, const state_t<S>& y, const parameters_t<S>& p,
             const drivers_t<S>& d, observables_t<S>& out) {
    sys.observables(t, y, p, d, out);
};

template <class S>
concept has_jacobian = ode_system<S> &&
    requires(const S& sys, typename S::value_type t, const state_t<S>& y, const parameters_t<S>& p,
             const drivers_t<S>& d, jacobian_t<S>& J) {
    sys.jacobian(t, y, p, d, J);
};

/// The entries of J a system's jacobian can make nonzero, declared (the code generator
/// does): stiff methods then factor I - h gamma J in that pattern (linear/iteration_lu.hpp).
template <class S>
concept has_jacobian_pattern = has_jacobian<S> &&
    std::same_as<std::remove_cvref_t<decltype(S::jacobian_pattern)>, sparsity_pattern<S::n_states>>;

template <class S>
concept has_jvp = ode_system<S> &&
    requires(const S& sys, typename S::value_type t, const state_t<S>& y, const parameters_t<S>& p,
             const drivers_t<S>& d, const state_t<S>& v, state_t<S>& jv) {
    sys.jvp(t, y, p, d, v, jv);
};

/// With drivers, a time_derivative alone misses the drivers' share of df/dt: with a
/// driver_jacobian it is that times the drivers' rates (systems/right_hand_side.hpp).
template <class S>
concept has_driver_jacobian = ode_system<S> &&
    requires(const S& sys, typename S::value_type t, const state_t<S>& y, const parameters_t<S>& p,
             const drivers_t<S>& d, vector<drivers_t<S>, S::n_states>& Jd) {
    sys.driver_jacobian(t, y, p, d, Jd);
};

template <class S>
concept has_time_derivative = ode_system<S> &&
    requires(const S& sys, typename S::value_type t, const state_t<S>& y, const parameters_t<S>& p,
             const drivers_t<S>& d, state_t<S>& dfdt) {
    sys.time_derivative(t, y, p, d, dfdt);
};

}  // namespace cubie
