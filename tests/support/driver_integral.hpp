#pragma once
// x' = d_0(t): a system that integrates its one driver, for tests of driver splines.

#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie::testing {

struct driver_integral {
    using value_type = double;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 0;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 1;
    CUBIE_HD void rhs(double, const state_t<driver_integral>&, const parameters_t<driver_integral>&,
                      const drivers_t<driver_integral>& d, state_t<driver_integral>& dxdt) const {
        dxdt[0] = d[0];
    }
};

}  // namespace cubie::testing
