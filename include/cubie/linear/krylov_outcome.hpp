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

/// Human-readable name of an outcome, for messages: the enumerator's own name.
constexpr const char* to_string(krylov_outcome o) {
    constexpr const char* names[] = {"converged", "max_iterations", "breakdown"};
    const auto code = static_cast<unsigned>(o);
    return code < sizeof(names) / sizeof(names[0]) ? names[code] : "unknown";
}

}  // namespace cubie
