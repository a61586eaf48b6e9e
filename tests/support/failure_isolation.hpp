#pragma once
// The checks the stiff families share on the systems of failing_steps.hpp: a batch of two
// trajectories, the first of which fails its first step of 0.5 from t = 0, the second
// solvable. Whatever the first does, the second ends as it does alone.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "cubie/controllers/fixed_step.hpp"
#include "cubie/solver/solver.hpp"
#include "support/failing_steps.hpp"
#include "support/test_backend.hpp"

namespace cubie::testing {

/// The second trajectory of a batch of two, alone.
inline batch_inputs<double> second_alone(const batch_inputs<double>& inputs,
                                         std::vector<double>& y0, std::vector<double>& p) {
    y0 = {inputs.initial_states[1]};
    p = {inputs.parameters[1]};
    return {1, y0, p};
}

/// Adaptive steps from dt = 0.5 with no smaller step allowed (dt_min = 0.4): the first
/// trajectory ends with `failure` at its initial state 1, the second as it does alone.
template <class System, class Method, class Controller>
void check_failure_without_smaller_step(const batch_inputs<double>& inputs, status failure) {
    solve_settings<Controller> settings;
    settings.t_end = 1;
    settings.dt = 0.5;
    settings.dt_min = 0.4;
    const solver<System, Method, Controller> s;
    const auto result = s.solve(inputs, settings, test_backend{});
    CHECK(result.statuses[0] == failure);
    CHECK(result.status_message(0) == std::string(to_string(failure)));
    CHECK(result.final_state(0, 0) == 1);
    std::vector<double> y0, p;
    const auto alone = s.solve(second_alone(inputs, y0, p), settings, test_backend{});
    CHECK(result.statuses[1] == alone.statuses[0]);
    CHECK(result.final_state(0, 1) == alone.final_state(0, 0));
}

/// Fixed steps of 0.5 over [0, 1]: the first trajectory ends with `failure` at its last
/// finite state, 1; the second succeeds, within `tolerance` of its exact y(1).
template <class System, class Method>
void check_fixed_step_failure(const batch_inputs<double>& inputs, status failure, double exact,
                              double tolerance) {
    solve_settings<fixed_step> settings;
    settings.t_end = 1;
    settings.dt = 0.5;
    const auto result =
        solver<System, Method, fixed_step>{}.solve(inputs, settings, test_backend{});
    CHECK(result.statuses[0] == failure);
    CHECK(result.final_state(0, 0) == 1);
    CHECK(result.statuses[1] == status::success);
    CHECK(std::abs(result.final_state(0, 1) - exact) < tolerance);
}

/// Adaptive steps from dt = 0.5 at rtol = 1e-8, atol = 1e-12 on cubic_decay, p = (1e4, 0.1):
/// the first trajectory's Newton iterations diverge, its steps are rejected and retried
/// smaller until it reaches its exact y(1); the second takes the very steps and iterations it
/// takes alone. Returns the batch's result for the family's own counts.
template <class Method, class Controller>
batch_result<double> check_divergence_recovered(const batch_inputs<double>& inputs) {
    solve_settings<Controller> settings;
    settings.t_end = 1;
    settings.dt = 0.5;
    settings.rtol = {1e-8};
    settings.atol = {1e-12};
    const solver<cubic_decay<double>, Method, Controller> s;
    auto result = s.solve(inputs, settings, test_backend{});
    std::vector<double> y0, p;
    const auto alone = s.solve(second_alone(inputs, y0, p), settings, test_backend{});
    CHECK(result.statuses[0] == status::success);
    CHECK(result.rejected_steps[0] >= 1);
    const double exact = cubic_decay_solution(1e4, 1);
    CHECK(std::abs(result.final_state(0, 0) - exact) < 2 * (1e-12 + 1e-8 * exact));
    CHECK(result.statuses[1] == status::success);
    CHECK(result.final_state(0, 1) == alone.final_state(0, 0));
    CHECK(result.accepted_steps[1] == alone.accepted_steps[0]);
    CHECK(result.rejected_steps[1] == alone.rejected_steps[0]);
    CHECK(result.newton_iterations[1] == alone.newton_iterations[0]);
    CHECK(result.linear_iterations[1] == alone.linear_iterations[0]);
    return result;
}

}  // namespace cubie::testing
