#pragma once
// The start every Krylov solver (gmres, bicgstab) shares: the solve's interface, and the
// cases that end before any iteration. A solver derives from krylov_solver<Solver, T, N>
// and provides iterate(apply, precondition, b, x, target, iterations), which runs until
// ||b - A x|| <= target, starting from a finite, non-zero b.

#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/krylov_outcome.hpp"
#include "cubie/linear/vector_algebra.hpp"

namespace cubie {

template <class Solver, class T, int N>
struct krylov_solver {
    /// Solves A x = b, A given by apply(v, Av) and P ~ A^-1 by precondition(r, z); x holds
    /// the initial guess and the solution. Converged once ||b - A x|| <= tol ||b||. A b that
    /// is not finite is a breakdown; b = 0 converges to x = 0 at once.
    template <class Apply, class Precondition>
    CUBIE_HD krylov_outcome solve(const Apply& apply, const Precondition& precondition,
                                  const vector<T, N>& b, vector<T, N>& x, T tol,
                                  int& iterations) const {
        iterations = 0;
        const T b_norm = linear::norm(b);
        if (!cuda::std::isfinite(b_norm)) return krylov_outcome::breakdown;
        if (b_norm == T(0)) {
            x = {};
            return krylov_outcome::converged;
        }
        return static_cast<const Solver&>(*this).iterate(apply, precondition, b, x, tol * b_norm,
                                                         iterations);
    }
};

}  // namespace cubie
