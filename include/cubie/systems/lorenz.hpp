#pragma once
// Lorenz (1963) system with rho as the per-trajectory parameter:
//   x' = sigma (y - x),  y' = x (rho - z) - y,  z' = x y - beta z,
// sigma = 10 and beta = 8/3 compiled in.

#include <cuda/std/array>

#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie::systems {

template <class T>
struct lorenz {
    using value_type = T;
    static constexpr int n_states = 3;
    static constexpr int n_parameters = 1;  // rho
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 3> state_names{"x", "y", "z"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"rho"};
    static constexpr T sigma = T(10);
    static constexpr T beta = T(8.0 / 3.0);

    CUBIE_HD void rhs(T, const state_t<lorenz>& y, const parameters_t<lorenz>& p,
                      const drivers_t<lorenz>&, state_t<lorenz>& dydt) const {
        dydt[0] = sigma * (y[1] - y[0]);
        dydt[1] = y[0] * (p[0] - y[2]) - y[1];
        dydt[2] = y[0] * y[1] - beta * y[2];
    }
};

}  // namespace cubie::systems
