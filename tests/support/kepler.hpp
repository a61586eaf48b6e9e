#pragma once
// Kepler two-body problem (mu = 1, semi-major axis 1) with its analytic solution, a
// nonlinear system on which every order condition of a Runge-Kutta method is visible.

#include <cmath>

#include "cubie/core/config.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie::testing {

template <class T>
struct kepler {
    using value_type = T;
    static constexpr int n_states = 4;  // x, y, vx, vy
    static constexpr int n_parameters = 0;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;

    CUBIE_HD void rhs(T, const state_t<kepler>& s, const parameters_t<kepler>&,
                      const drivers_t<kepler>&, state_t<kepler>& dsdt) const {
        using std::sqrt;
        const T r2 = s[0] * s[0] + s[1] * s[1];
        const T inv_r3 = T(1) / (r2 * sqrt(r2));
        dsdt[0] = s[2];
        dsdt[1] = s[3];
        dsdt[2] = -s[0] * inv_r3;
        dsdt[3] = -s[1] * inv_r3;
    }
};

/// State at periapsis (t = 0) of the orbit with eccentricity e.
inline state_t<kepler<double>> kepler_initial_state(double e) {
    return {1 - e, 0, 0, std::sqrt((1 + e) / (1 - e))};
}

/// Analytic state at time t: Newton's method on Kepler's equation E - e sin E = t.
inline state_t<kepler<double>> kepler_solution(double e, double t) {
    double E = t;
    for (int i = 0; i < 50; ++i) E -= (E - e * std::sin(E) - t) / (1 - e * std::cos(E));
    const double b = std::sqrt(1 - e * e);
    const double denom = 1 - e * std::cos(E);
    return {std::cos(E) - e, b * std::sin(E), -std::sin(E) / denom, b * std::cos(E) / denom};
}

}  // namespace cubie::testing
