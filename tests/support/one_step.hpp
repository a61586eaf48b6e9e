#pragma once
// One step_with_error of an implicit method, outside any loop: how the stiff tests look at
// a single step's error estimate, its iteration counts and why it failed.

#include "cubie/controllers/error_norm.hpp"
#include "cubie/linear/implicit_step_report.hpp"
#include "cubie/systems/ode_system.hpp"
#include "cubie/systems/right_hand_side.hpp"

namespace cubie::testing {

/// One step_with_error of Method from (0, y) with step h at atol = rtol = tolerance: the
/// error norm it returns, with its new state in y_new and its counts in report.
template <class Method, class System>
double one_step(const System& system, const parameters_t<System>& p, const state_t<System>& y,
                double h, double tolerance, implicit_step_report& report, state_t<System>& y_new) {
    const driver_splines_t<System> no_drivers{};
    const right_hand_side<System> f{system, p, no_drivers};
    tolerances<double, System::n_states> tol;
    for (int i = 0; i < System::n_states; ++i) tol.atol[i] = tol.rtol[i] = tolerance;
    state_t<System> dydt, dydt_new;
    f(0, y, dydt);
    return Method::step_with_error(f, 0.0, h, y, dydt, y_new, dydt_new, tol, report);
}

}  // namespace cubie::testing
