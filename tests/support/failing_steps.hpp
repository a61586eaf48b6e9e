#pragma once
// One-state systems on which an implicit step fails on purpose, for the tests of how the
// stiff methods report and recover from failures:
//
//   relaxation   y' = p (y - 1): y = 1 stays put for any p, and every iteration matrix is
//                c / h - p for a method constant c (1 / gamma, an eigenvalue of A^-1, ...),
//                singular exactly when h p = c (exactly in floating point when both are
//                powers of two).
//   cubic_decay  y' = -p y^3, y(0) = 1: y = 1 / sqrt(1 + 2 p t). For h p >> 1 the stages lie
//                far below y while a simplified Newton iteration keeps the slope -3 p y^2 of
//                the step's start: it diverges, though every iteration matrix is regular.
//   pole         y' = p / (1 - t): infinite at t = 1, where a step of 1 from t = 0 puts a
//                stiffly accurate method's last stage; its Jacobian is 0, so the Newton
//                correction there is infinite.
//
// They give their Jacobian analytically, relaxation and cubic_decay also df/dt (the
// Rosenbrock methods' tests take them), relaxation its jvp.

#include <cuda/std/array>

#include <cmath>

#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie::testing {

template <class T>
struct relaxation {
    using value_type = T;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 1;  // p
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 1> state_names{"y"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"p"};

    CUBIE_HD void rhs(T, const state_t<relaxation>& y, const parameters_t<relaxation>& p,
                      const drivers_t<relaxation>&, state_t<relaxation>& dydt) const {
        dydt[0] = p[0] * (y[0] - 1);
    }
    CUBIE_HD void jacobian(T, const state_t<relaxation>&, const parameters_t<relaxation>& p,
                           const drivers_t<relaxation>&, jacobian_t<relaxation>& J) const {
        J[0][0] = p[0];
    }
    CUBIE_HD void jvp(T, const state_t<relaxation>&, const parameters_t<relaxation>& p,
                      const drivers_t<relaxation>&, const state_t<relaxation>& v,
                      state_t<relaxation>& Jv) const {
        Jv[0] = p[0] * v[0];
    }
    CUBIE_HD void time_derivative(T, const state_t<relaxation>&, const parameters_t<relaxation>&,
                                  const drivers_t<relaxation>&, state_t<relaxation>& dfdt) const {
        dfdt[0] = 0;
    }
};

template <class T>
struct cubic_decay {
    using value_type = T;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 1;  // p
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 1> state_names{"y"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"p"};

    CUBIE_HD void rhs(T, const state_t<cubic_decay>& y, const parameters_t<cubic_decay>& p,
                      const drivers_t<cubic_decay>&, state_t<cubic_decay>& dydt) const {
        dydt[0] = -p[0] * y[0] * y[0] * y[0];
    }
    CUBIE_HD void jacobian(T, const state_t<cubic_decay>& y, const parameters_t<cubic_decay>& p,
                           const drivers_t<cubic_decay>&, jacobian_t<cubic_decay>& J) const {
        J[0][0] = -3 * p[0] * y[0] * y[0];
    }
    CUBIE_HD void time_derivative(T, const state_t<cubic_decay>&, const parameters_t<cubic_decay>&,
                                  const drivers_t<cubic_decay>&, state_t<cubic_decay>& dfdt) const {
        dfdt[0] = 0;
    }
};

template <class T>
struct pole {
    using value_type = T;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 1;  // p
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 1> state_names{"y"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"p"};

    CUBIE_HD void rhs(T t, const state_t<pole>&, const parameters_t<pole>& p,
                      const drivers_t<pole>&, state_t<pole>& dydt) const {
        dydt[0] = p[0] / (1 - t);
    }
    CUBIE_HD void jacobian(T, const state_t<pole>&, const parameters_t<pole>&,
                           const drivers_t<pole>&, jacobian_t<pole>& J) const {
        J[0][0] = 0;
    }
};

inline double cubic_decay_solution(double p, double t) {
    return 1 / std::sqrt(1 + 2 * p * t);
}

}  // namespace cubie::testing
