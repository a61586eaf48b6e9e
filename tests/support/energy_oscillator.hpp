#pragma once
// A harmonic oscillator with observables, for the output tests: x' = v, v' = -omega^2 x
// (omega the parameter), x(t) = x0 cos(omega t) for v0 = 0. Observables: the energy
// (v^2 + omega^2 x^2) / 2, constant along a trajectory, and the kinetic part v^2 / 2.

#include <cuda/std/array>

#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie::testing {

template <class T>
struct energy_oscillator {
    using value_type = T;
    static constexpr int n_states = 2;
    static constexpr int n_parameters = 1;
    static constexpr int n_observables = 2;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 2> state_names{"x", "v"};
    static constexpr cuda::std::array<const char*, 2> observable_names{"energy", "kinetic"};

    CUBIE_HD void rhs(T, const state_t<energy_oscillator>& y,
                      const parameters_t<energy_oscillator>& p, const drivers_t<energy_oscillator>&,
                      state_t<energy_oscillator>& dydt) const {
        dydt[0] = y[1];
        dydt[1] = -p[0] * p[0] * y[0];
    }
    CUBIE_HD void observables(T, const state_t<energy_oscillator>& y,
                              const parameters_t<energy_oscillator>& p,
                              const drivers_t<energy_oscillator>&,
                              observables_t<energy_oscillator>& out) const {
        out[0] = (y[1] * y[1] + p[0] * p[0] * y[0] * y[0]) / 2;
        out[1] = y[1] * y[1] / 2;
    }
};

}  // namespace cubie::testing
