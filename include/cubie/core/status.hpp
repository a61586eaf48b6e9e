#pragma once
// Per-trajectory outcome of an integration. A failing trajectory records why it stopped
// and leaves every other trajectory of the batch untouched.

#include <cstdint>

#include "cubie/core/config.hpp"

namespace cubie {

enum class status : std::uint8_t {
    success = 0,              ///< reached t_end
    max_steps_exceeded = 1,   ///< attempted steps (accepted + rejected) reached max_steps
    step_size_underflow = 2,  ///< the controller asked for a step below dt_min or below
                              ///< the floating-point resolution of t
    nonfinite_state = 3,      ///< the state or its error estimate became NaN or infinite
    nonfinite_input = 4,      ///< the initial state or a parameter was NaN or infinite
    cancelled = 5,            ///< never started: the solve was cancelled (solve_control)
    // An implicit method's step kept failing until the step size underflowed (or, with a
    // fixed step, failed once); the status names the last failure.
    singular_matrix = 6,        ///< the iteration matrix was singular to working precision
    newton_divergence = 7,      ///< the Newton iteration diverged or did not converge
    linear_solver_failure = 8,  ///< an iterative linear solver broke down or did not converge
    // Not a failure: an event whose action is terminate (events/event.hpp) ended the
    // trajectory where its condition crossed zero, before t_end.
    terminated_by_event = 9,  ///< stopped by an event; the state is the one at the event
};

/// Every status, in the order of their codes (result files write their names as a legend).
inline constexpr status all_statuses[] = {
    status::success,
    status::max_steps_exceeded,
    status::step_size_underflow,
    status::nonfinite_state,
    status::nonfinite_input,
    status::cancelled,
    status::singular_matrix,
    status::newton_divergence,
    status::linear_solver_failure,
    status::terminated_by_event,
};
static_assert(
    [] {
        for (unsigned code = 0; code < sizeof(all_statuses) / sizeof(status); ++code)
            if (static_cast<unsigned>(all_statuses[code]) != code) return false;
        return true;
    }(),
    "all_statuses lists every status at its own code");

/// Human-readable name of a status, for messages and CSV output.
constexpr const char* to_string(status s) {
    switch (s) {
        case status::success:
            return "success";
        case status::max_steps_exceeded:
            return "max_steps_exceeded";
        case status::step_size_underflow:
            return "step_size_underflow";
        case status::nonfinite_state:
            return "nonfinite_state";
        case status::nonfinite_input:
            return "nonfinite_input";
        case status::cancelled:
            return "cancelled";
        case status::singular_matrix:
            return "singular_matrix";
        case status::newton_divergence:
            return "newton_divergence";
        case status::linear_solver_failure:
            return "linear_solver_failure";
        case status::terminated_by_event:
            return "terminated_by_event";
    }
    return "unknown";
}

/// Whether a trajectory ended as asked: at t_end, or where one of its events terminated it.
constexpr bool succeeded(status s) {
    return s == status::success || s == status::terminated_by_event;
}

}  // namespace cubie
