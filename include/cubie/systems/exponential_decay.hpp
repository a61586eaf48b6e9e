#pragma once
// Linear decay y' = -k y with the rate k as parameter; y(t) = y0 exp(-k (t - t0)).

#include <cuda/std/array>

#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie::systems {

template <class T>
struct exponential_decay {
    using value_type = T;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 1;  // k
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 1> state_names{"y"};
    static constexpr cuda::std::array<const char*, 1> parameter_names{"k"};

    CUBIE_HD void rhs(T, const state_t<exponential_decay>& y,
                      const parameters_t<exponential_decay>& p, const drivers_t<exponential_decay>&,
                      state_t<exponential_decay>& dydt) const {
        dydt[0] = -p[0] * y[0];
    }
};

}  // namespace cubie::systems
