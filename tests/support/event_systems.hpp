#pragma once
// Systems and events of the events suite, with their analytic solutions.
//
//   falling_ball      h' = v, v' = -g: a ball dropped from h0 at rest bounces off h = 0
//                     with restitution e (a parameter); the second parameter is a height
//                     whose falling crossing ends the trajectory (a value below 0: never)
//   leaky_neuron      v' = (I - v) / tau, a leaky integrate-and-fire neuron: the drive I
//                     a parameter; v reset to 0 at v = 1, so it spikes every
//                     tau ln(I / (I - 1)) for I > 1
//   clock             x' = 1, an event at t = p[0]: crossings exactly at t0 and t_end
//   dosed_decay       c' = -k c with k = p[0]: where c falls through 1/2, a dose p[1] is
//                     added and k doubles (an affect on the parameters)
//   oscillator_bands  x = cos(t) of the harmonic oscillator crossing +-1/2: a vector
//                     condition, both directions
// and the adaptive settings the suite solves them with.

#include <cmath>
#include <vector>

#include "cubie/batch/solve_settings.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/events/event.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie::testing {

/// PI over [0, t_end] at atol = rtol = tol, steps of at most dt_max, the first dt.
inline solve_settings<pi_controller> event_settings(double t_end, double tol, double dt_max,
                                                    double dt = 1e-3) {
    solve_settings<pi_controller> s;
    s.t_end = t_end;
    s.dt = dt;
    s.dt_max = dt_max;
    s.atol = s.rtol = {tol};
    return s;
}

template <class T>
struct falling_ball {
    using value_type = T;
    static constexpr int n_states = 2, n_parameters = 2, n_observables = 0, n_drivers = 0;
    static constexpr T g = T(9.81);
    CUBIE_HD void rhs(T, const state_t<falling_ball>& y, const parameters_t<falling_ball>&,
                      const drivers_t<falling_ball>&, state_t<falling_ball>& dydt) const {
        dydt[0] = y[1];
        dydt[1] = -g;
    }
    /// Its Jacobian, for the stiff methods.
    CUBIE_HD void jacobian(T, const state_t<falling_ball>&, const parameters_t<falling_ball>&,
                           const drivers_t<falling_ball>&, jacobian_t<falling_ball>& J) const {
        J = {};
        J[0][1] = T(1);
    }

    /// The ground: v = -e v where h falls to 0.
    struct ground {
        static constexpr const char* name = "ground";
        static constexpr crossing direction = crossing::falling;
        static constexpr event_action action = event_action::affect;
        static constexpr int capacity = 8;
        CUBIE_HD T condition(T, const state_t<falling_ball>& y, const parameters_t<falling_ball>&,
                             const drivers_t<falling_ball>&) const {
            return y[0];
        }
        CUBIE_HD void affect(T, state_t<falling_ball>& y, parameters_t<falling_ball>& p,
                             const drivers_t<falling_ball>&) const {
            y[1] = -p[0] * y[1];
        }
    };
    /// The ground again, watching both directions: leaving it after a bounce is no crossing.
    struct ground_either : ground {
        static constexpr crossing direction = crossing::either;
    };
    /// The top of each flight (v falls through 0): recorded only.
    struct apex {
        static constexpr const char* name = "apex";
        static constexpr crossing direction = crossing::falling;
        static constexpr event_action action = event_action::record;
        static constexpr int capacity = 8;
        CUBIE_HD T condition(T, const state_t<falling_ball>& y, const parameters_t<falling_ball>&,
                             const drivers_t<falling_ball>&) const {
            return y[1];
        }
    };
    /// The trajectory ends where h falls through p[1].
    struct below {
        static constexpr const char* name = "below";
        static constexpr crossing direction = crossing::falling;
        static constexpr event_action action = event_action::terminate;
        CUBIE_HD T condition(T, const state_t<falling_ball>& y, const parameters_t<falling_ball>& p,
                             const drivers_t<falling_ball>&) const {
            return y[0] - p[1];
        }
    };
};

/// Bounces of a ball dropped from h0 at rest at t = 0 with restitution e: the time of
/// bounce k (from 0), and its speed just before it.
struct bounce_analytic {
    double h0, e, g = 9.81;
    double first() const { return std::sqrt(2 * h0 / g); }
    double speed(int k) const { return g * first() * std::pow(e, k); }
    double time(int k) const {
        double t = first();
        for (int j = 1; j <= k; ++j) t += 2 * speed(j) / g;
        return t;
    }
    /// The apex after bounce k: its time and height.
    double apex_time(int k) const { return time(k) + speed(k + 1) / g; }
    double apex_height(int k) const { return speed(k + 1) * speed(k + 1) / (2 * g); }
};

template <class T>
struct leaky_neuron {
    using value_type = T;
    static constexpr int n_states = 1, n_parameters = 1, n_observables = 0, n_drivers = 0;
    static constexpr T tau = T(0.02);
    CUBIE_HD void rhs(T, const state_t<leaky_neuron>& y, const parameters_t<leaky_neuron>& p,
                      const drivers_t<leaky_neuron>&, state_t<leaky_neuron>& dydt) const {
        dydt[0] = (p[0] - y[0]) / tau;
    }
    CUBIE_HD void jacobian(T, const state_t<leaky_neuron>&, const parameters_t<leaky_neuron>&,
                           const drivers_t<leaky_neuron>&, jacobian_t<leaky_neuron>& J) const {
        J[0][0] = -1 / tau;
    }
    /// A spike at v = 1, and the reset to 0.
    struct spike {
        static constexpr const char* name = "spike";
        static constexpr crossing direction = crossing::rising;
        static constexpr event_action action = event_action::affect;
        static constexpr int capacity = 16;
        CUBIE_HD T condition(T, const state_t<leaky_neuron>& y, const parameters_t<leaky_neuron>&,
                             const drivers_t<leaky_neuron>&) const {
            return y[0] - 1;
        }
        CUBIE_HD void affect(T, state_t<leaky_neuron>& y, parameters_t<leaky_neuron>&,
                             const drivers_t<leaky_neuron>&) const {
            y[0] = 0;
        }
    };
    /// The spike period of drive I from v = 0.
    static double period(double drive) { return double(tau) * std::log(drive / (drive - 1)); }
};

template <class T>
struct clock {
    using value_type = T;
    static constexpr int n_states = 1, n_parameters = 1, n_observables = 0, n_drivers = 0;
    CUBIE_HD void rhs(T, const state_t<clock>&, const parameters_t<clock>&, const drivers_t<clock>&,
                      state_t<clock>& dydt) const {
        dydt[0] = 1;
    }
    CUBIE_HD void jacobian(T, const state_t<clock>&, const parameters_t<clock>&,
                           const drivers_t<clock>&, jacobian_t<clock>& J) const {
        J[0][0] = 0;
    }
    /// t reaches p[0].
    template <event_action Action>
    struct alarm {
        static constexpr const char* name = "alarm";
        static constexpr crossing direction = crossing::rising;
        static constexpr event_action action = Action;
        CUBIE_HD T condition(T t, const state_t<clock>&, const parameters_t<clock>& p,
                             const drivers_t<clock>&) const {
            return t - p[0];
        }
    };
};

template <class T>
struct dosed_decay {
    using value_type = T;
    static constexpr int n_states = 1, n_parameters = 2, n_observables = 0, n_drivers = 0;
    CUBIE_HD void rhs(T, const state_t<dosed_decay>& y, const parameters_t<dosed_decay>& p,
                      const drivers_t<dosed_decay>&, state_t<dosed_decay>& dydt) const {
        dydt[0] = -p[0] * y[0];
    }
    struct dose {
        static constexpr const char* name = "dose";
        static constexpr crossing direction = crossing::falling;
        static constexpr event_action action = event_action::affect;
        static constexpr int capacity = 4;
        CUBIE_HD T condition(T, const state_t<dosed_decay>& y, const parameters_t<dosed_decay>&,
                             const drivers_t<dosed_decay>&) const {
            return y[0] - T(0.5);
        }
        CUBIE_HD void affect(T, state_t<dosed_decay>& y, parameters_t<dosed_decay>& p,
                             const drivers_t<dosed_decay>&) const {
            y[0] += p[1];
            p[0] *= 2;
        }
    };
};

/// x of the harmonic oscillator (x' = v, v' = -omega^2 x) crossing +1/2 and -1/2.
template <class System>
struct oscillator_bands {
    using T = typename System::value_type;
    static constexpr const char* name = "band";
    static constexpr crossing direction = crossing::either;
    static constexpr event_action action = event_action::record;
    static constexpr int capacity = 4;
    CUBIE_HD vector<T, 2> condition(T, const state_t<System>& y, const parameters_t<System>&,
                                    const drivers_t<System>&) const {
        return {y[0] - T(0.5), y[0] + T(0.5)};
    }
};

}  // namespace cubie::testing
