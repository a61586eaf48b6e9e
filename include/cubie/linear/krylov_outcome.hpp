#pragma once
// How an iterative linear solve (gmres, bicgstab) ended. The Newton iteration that calls
// the solver reads it to decide between accepting the correction, iterating again and
// rejecting the step.

namespace cubie {

enum class krylov_outcome : unsigned char {
    converged,       ///< ||b - A x|| <= tol ||b||, the residual recomputed from x
    max_iterations,  ///< the iteration budget ran out first; x is the last iterate
    breakdown,       ///< no further progress possible: a division by a quantity that cannot be
                     ///< told from zero (a singular operator), or a value not finite
};

/// Human-readable name of an outcome, for messages.
constexpr const char* to_string(krylov_outcome o) {
    switch (o) {
        case krylov_outcome::converged:
            return "converged";
        case krylov_outcome::max_iterations:
            return "max_iterations";
        case krylov_outcome::breakdown:
            return "breakdown";
    }
    return "unknown";
}

}  // namespace cubie
