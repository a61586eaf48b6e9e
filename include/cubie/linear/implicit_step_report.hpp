#pragma once
// What an implicit step tells the loop besides its error: the work its Newton and linear
// iterations did, and why it failed when it did. The loop adds the work to the trajectory's
// step_counters (rejected attempts included), and a trajectory that cannot recover ends
// with the status of its last failure (core/status.hpp).
//
// Implicit algorithms declare `static constexpr bool implicit = true` and take an
// implicit_step_report& after the other arguments of their steps (algorithms/stepper.hpp).
// A failed step sets `failure`; step_with_error then returns an infinite error norm (the
// controllers reject it with their smallest factor) and the fixed-step `step` writes NaN
// into y_new.

#include <cstdint>

#include "cubie/core/status.hpp"

namespace cubie {

enum class step_failure : std::uint8_t {
    none,
    singular_matrix,        ///< the iteration matrix (I - h gamma J, W, ...) is singular to
                            ///< working precision or holds a NaN or infinity
    newton_divergence,      ///< the Newton iteration diverged or could not converge in its
                            ///< iteration limit
    linear_solver_failure,  ///< an iterative linear solve broke down or ran out of iterations
};

struct implicit_step_report {
    std::uint32_t newton_iterations = 0;
    std::uint32_t linear_iterations = 0;  ///< Krylov iterations; one per direct (LU) solve
    step_failure failure = step_failure::none;
};

/// The status of a trajectory that ends on a failed implicit step.
constexpr status status_of(step_failure f) {
    switch (f) {
        case step_failure::singular_matrix:
            return status::singular_matrix;
        case step_failure::newton_divergence:
            return status::newton_divergence;
        case step_failure::linear_solver_failure:
            return status::linear_solver_failure;
        case step_failure::none:
            break;
    }
    return status::success;
}

}  // namespace cubie
