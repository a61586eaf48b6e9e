#pragma once
// What the implicit families' steps hand back when their iteration fails (a singular
// matrix, a diverging Newton iteration), and the tolerances a fixed step's Newton
// iteration works to, having none from the user.

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"

namespace cubie {

/// A fixed step that failed: NaN in y_new, which the loop reports as a non-finite state.
template <class State>
CUBIE_HD void fail_fixed_step(State& y_new) {
    CUBIE_UNROLL
    for (cuda::std::size_t i = 0; i < size_of<State>; ++i)
        y_new[i] = cuda::std::numeric_limits<typename State::value_type>::quiet_NaN();
}

/// An adaptive step that failed: y_new = y and an infinite error norm, which the controller
/// rejects, shrinking the step.
template <class State>
CUBIE_HD typename State::value_type fail_adaptive_step(const State& y, State& y_new) {
    y_new = y;
    return cuda::std::numeric_limits<typename State::value_type>::infinity();
}

/// Tolerances for the Newton iteration of a fixed step, which reaches kappa of them: its
/// error eta ||dY|| then stays within sqrt(eps) (1 + |y|).
template <class T, int N>
CUBIE_HD tolerances<T, N> fixed_step_newton_tolerances(double kappa) {
    return uniform_tolerances<T, N>(cuda::std::sqrt(cuda::std::numeric_limits<T>::epsilon()) /
                                    T(kappa));
}

}  // namespace cubie
