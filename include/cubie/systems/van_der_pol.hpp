#pragma once
// Van der Pol oscillator x' = v, v' = mu (1 - x^2) v - x with mu as parameter; stiff for
// large mu.

#include <cuda/std/array>

#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie::systems {

template <class T>
struct van_der_pol {
    using value_type = T;
    static constexpr int n_states = 2;      // x, v
    static constexpr int n_parameters = 1;  // mu
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 2> state_names{"x", "v"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"mu"};

    CUBIE_HD void rhs(T, const state_t<van_der_pol>& y, const parameters_t<van_der_pol>& p,
                      const drivers_t<van_der_pol>&, state_t<van_der_pol>& dydt) const {
        dydt[0] = y[1];
        dydt[1] = p[0] * (T(1) - y[0] * y[0]) * y[1] - y[0];
    }
};

}  // namespace cubie::systems
