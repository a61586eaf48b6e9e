#pragma once
// Undamped harmonic oscillator x' = v, v' = -omega^2 x with omega as parameter;
// x(t) = x0 cos(omega t) + (v0 / omega) sin(omega t) from t0 = 0.

#include <cuda/std/array>

#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie::systems {

template <class T>
struct harmonic_oscillator {
    using value_type = T;
    static constexpr int n_states = 2;      // x, v
    static constexpr int n_parameters = 1;  // omega
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 2> state_names{"x", "v"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"omega"};

    CUBIE_HD void rhs(T, const state_t<harmonic_oscillator>& y,
                      const parameters_t<harmonic_oscillator>& p,
                      const drivers_t<harmonic_oscillator>&,
                      state_t<harmonic_oscillator>& dydt) const {
        dydt[0] = y[1];
        dydt[1] = -p[0] * p[0] * y[0];
    }
};

}  // namespace cubie::systems
