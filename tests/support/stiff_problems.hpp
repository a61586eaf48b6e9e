#pragma once
// Two stiff, non-autonomous problems with exact solutions, for the convergence orders of the
// stiff methods (fixed steps, double; see support/convergence.hpp for the measurement):
//
//   Prothero-Robinson  y' = -lambda (y - sin t) + cos t, y(0) = 0, y = sin t; lambda = 10 over
//                      [0, 2].
//   stiff pair         y' = A (y - g(t)) + g'(t), g = sin t (1, 1), A with eigenvalues -1 along
//                      (1, 1) and -lambda = -1000 along (1, -1); y(0) = (2, 0) starts both
//                      modes at 1: y = g + e^-t (1, 1) + e^(-lambda t) (1, -1), over [0, 2].
//
// Both systems give their Jacobian and df/dt analytically.

#include <cuda/std/array>
#include <cuda/std/cmath>

#include <cmath>

#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"
#include "support/convergence.hpp"

namespace cubie::testing {

template <class T>
struct prothero_robinson {
    using value_type = T;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 1;  // lambda
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 1> state_names{"y"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"lambda"};

    CUBIE_HD void rhs(T t, const state_t<prothero_robinson>& y,
                      const parameters_t<prothero_robinson>& p, const drivers_t<prothero_robinson>&,
                      state_t<prothero_robinson>& dydt) const {
        dydt[0] = -p[0] * (y[0] - cuda::std::sin(t)) + cuda::std::cos(t);
    }
    CUBIE_HD void jacobian(T, const state_t<prothero_robinson>&,
                           const parameters_t<prothero_robinson>& p,
                           const drivers_t<prothero_robinson>&,
                           jacobian_t<prothero_robinson>& J) const {
        J[0][0] = -p[0];
    }
    CUBIE_HD void time_derivative(T t, const state_t<prothero_robinson>&,
                                  const parameters_t<prothero_robinson>& p,
                                  const drivers_t<prothero_robinson>&,
                                  state_t<prothero_robinson>& dfdt) const {
        dfdt[0] = p[0] * cuda::std::cos(t) - cuda::std::sin(t);
    }
};

template <class T>
struct stiff_pair {
    using value_type = T;
    static constexpr int n_states = 2;
    static constexpr int n_parameters = 1;  // lambda, the stiff mode's rate
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 2> state_names{"y1", "y2"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"lambda"};

    /// A = [[d, o], [o, d]]: eigenvalues d + o = -1 and d - o = -lambda.
    CUBIE_HD static void coupling(T lambda, T& d, T& o) {
        d = -(1 + lambda) / 2;
        o = (lambda - 1) / 2;
    }
    CUBIE_HD void rhs(T t, const state_t<stiff_pair>& y, const parameters_t<stiff_pair>& p,
                      const drivers_t<stiff_pair>&, state_t<stiff_pair>& dydt) const {
        T d, o;
        coupling(p[0], d, o);
        const T e0 = y[0] - cuda::std::sin(t), e1 = y[1] - cuda::std::sin(t);
        dydt[0] = d * e0 + o * e1 + cuda::std::cos(t);
        dydt[1] = o * e0 + d * e1 + cuda::std::cos(t);
    }
    CUBIE_HD void jacobian(T, const state_t<stiff_pair>&, const parameters_t<stiff_pair>& p,
                           const drivers_t<stiff_pair>&, jacobian_t<stiff_pair>& J) const {
        T d, o;
        coupling(p[0], d, o);
        J[0] = {d, o};
        J[1] = {o, d};
    }
    /// -A g' + g'' with A (1, 1) = -(1, 1).
    CUBIE_HD void time_derivative(T t, const state_t<stiff_pair>&, const parameters_t<stiff_pair>&,
                                  const drivers_t<stiff_pair>&, state_t<stiff_pair>& dfdt) const {
        dfdt[0] = dfdt[1] = cuda::std::cos(t) - cuda::std::sin(t);
    }
};

struct prothero_robinson_problem {
    template <class Algorithm>
    double error(int n_steps) const {
        return fixed_step_error<prothero_robinson<double>, Algorithm>(2, n_steps, {0}, {10},
                                                                      {std::sin(2.0)});
    }
};

struct stiff_pair_problem {
    template <class Algorithm>
    double error(int n_steps) const {
        const double smooth = std::sin(2.0) + std::exp(-2.0), stiff = std::exp(-2000.0);
        return fixed_step_error<stiff_pair<double>, Algorithm>(2, n_steps, {2, 0}, {1000},
                                                               {smooth + stiff, smooth - stiff});
    }
};

}  // namespace cubie::testing
