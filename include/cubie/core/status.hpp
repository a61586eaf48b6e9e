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

/// The name of each status, at its code (result files write them as a legend): the
/// enumerators' own names.
inline constexpr const char* status_names[] = {
    "success",
    "max_steps_exceeded",
    "step_size_underflow",
    "nonfinite_state",
    "nonfinite_input",
    "cancelled",
    "singular_matrix",
    "newton_divergence",
    "linear_solver_failure",
    "terminated_by_event",
};
static_assert(sizeof(status_names) / sizeof(status_names[0]) ==
                  static_cast<unsigned>(status::terminated_by_event) + 1,
              "status_names names every status, the last one included");

/// Human-readable name of a status, for messages and CSV output.
constexpr const char* to_string(status s) {
    const auto code = static_cast<unsigned>(s);
    return code < sizeof(status_names) / sizeof(status_names[0]) ? status_names[code] : "unknown";
}

/// Whether a trajectory ended as asked: at t_end, or where one of its events terminated it.
constexpr bool succeeded(status s) {
    return s == status::success || s == status::terminated_by_event;
}

}  // namespace cubie
