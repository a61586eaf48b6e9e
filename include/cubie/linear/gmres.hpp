#pragma once
// Restarted GMRES(M) (Saad and Schultz 1986) for one N x N system per thread, the operator
// given as a callable apply(v, Av): the matrix-free linear solver of Newton-Krylov
// iterations for I - h gamma J, where dense_lu would hold N^2 values.
//
// A cycle builds an orthonormal basis v_0, ..., v_j of the Krylov space of A P from the
// residual r (modified Gram-Schmidt: the classical variant loses orthogonality much faster
// at the same cost), and turns the (j + 2) x (j + 1) Hessenberg matrix H of A P in that
// basis into triangular form R with Givens rotations as it grows, so that |g_{j+1}| is the
// residual norm of the least-squares solution without forming it. After at most M steps
// x += P (V y), y = R^-1 g. Right preconditioning: GMRES minimises b - A x itself, not
// P (b - A x), so the stopping rule measures the residual the caller asked about. P must
// be a fixed linear map, since V y is preconditioned once, at the end of a cycle.
//
// Storage per thread: M + 1 basis vectors of N and an (M + 1) x M Hessenberg matrix; M is
// meant to be small (M >= N ends in one cycle in exact arithmetic, at dense_lu's N^2).
//
// Stopping: a cycle ends when |g_{j+1}| <= tol ||b|| or after M steps; x is then updated
// and the residual b - A x recomputed from it. Only that residual decides convergence (the
// rotations' estimate drifts from it in floating point); otherwise the next cycle starts
// from it. iterations counts Arnoldi steps, one application of P and of A each; a cycle
// adds one more of each for the update and its residual. b = 0 returns x = 0 at once.
//
// Breakdown, with x left at the last completed cycle's iterate:
//   - ||b|| or ||b - A x|| not finite;
//   - a new diagonal entry of R, the part of A P v_j independent of the earlier columns,
//     at most N eps ||A P v_j|| or not finite: A P is singular on the Krylov space to
//     working precision (the rule of dense_lu's pivots), so y is not determined;
//   - an update of x that is not finite.
// The Arnoldi step also ends a cycle early when the new basis vector is at most
// N eps ||A P v_j|| before normalisation: the space is invariant, and normalising rounding
// noise would only pollute the basis; the cycle's solution is then exact up to rounding.

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/krylov_outcome.hpp"
#include "cubie/linear/krylov_solver.hpp"
#include "cubie/linear/vector_algebra.hpp"

namespace cubie {

template <class T, int N, int M>
struct gmres : krylov_solver<gmres<T, N, M>, T, N> {
    static_assert(N >= 1, "gmres needs at least one unknown");
    static_assert(M >= 1, "gmres needs a Krylov dimension of at least one");
    static_assert(cuda::std::numeric_limits<T>::is_iec559, "gmres works in float or double");

    int max_restarts;  ///< cycles after the first: at most (max_restarts + 1) M iterations

    CUBIE_HD gmres(int max_restarts_) : max_restarts(max_restarts_) {}

    /// The iteration of krylov_solver::solve, from a finite, non-zero b.
    template <class Apply, class Precondition>
    CUBIE_HD krylov_outcome iterate(const Apply& apply, const Precondition& precondition,
                                    const vector<T, N>& b, vector<T, N>& x, T target,
                                    int& iterations) const {
        vector<T, N> r;
        linear::residual(apply, b, x, r);
        T r_norm = linear::norm(r);
        for (int cycle = 0;; ++cycle) {
            if (!cuda::std::isfinite(r_norm)) return krylov_outcome::breakdown;
            if (r_norm <= target) return krylov_outcome::converged;
            if (cycle > max_restarts) return krylov_outcome::max_iterations;

            vector<vector<T, N>, M + 1> V{};
            vector<vector<T, M + 1>, M> H{};  // column-major: H[j][i] = h_ij
            vector<T, M> cosine, sine;
            vector<T, M + 1> g{};
            CUBIE_UNROLL
            for (int i = 0; i < N; ++i) V[0][i] = r[i] / r_norm;
            g[0] = r_norm;
            int columns = 0;
            CUBIE_UNROLL
            for (int j = 0; j < M; ++j) {
                vector<T, N> z, w;
                precondition(V[j], z);
                apply(z, w);
                ++iterations;
                const T negligible =
                    T(N) * cuda::std::numeric_limits<T>::epsilon() * linear::norm(w);
                vector<T, M + 1>& h = H[j];
                CUBIE_UNROLL
                for (int i = 0; i <= j; ++i) {
                    h[i] = linear::dot(w, V[i]);
                    CUBIE_UNROLL
                    for (int k = 0; k < N; ++k) w[k] -= h[i] * V[i][k];
                }
                h[j + 1] = linear::norm(w);
                // NaN in w counts as invariant; its R entry below ends the solve.
                const bool invariant = !(h[j + 1] > negligible);
                if (invariant) {
                    h[j + 1] = T(0);
                } else {
                    CUBIE_UNROLL
                    for (int k = 0; k < N; ++k) V[j + 1][k] = w[k] / h[j + 1];
                }
                CUBIE_UNROLL
                for (int i = 0; i < j; ++i) {
                    const T upper = cosine[i] * h[i] + sine[i] * h[i + 1];
                    h[i + 1] = cosine[i] * h[i + 1] - sine[i] * h[i];
                    h[i] = upper;
                }
                const T diagonal = cuda::std::hypot(h[j], h[j + 1]);
                if (!(diagonal > negligible) || !cuda::std::isfinite(diagonal))
                    return krylov_outcome::breakdown;
                cosine[j] = h[j] / diagonal;
                sine[j] = h[j + 1] / diagonal;
                h[j] = diagonal;
                h[j + 1] = T(0);
                g[j + 1] = -sine[j] * g[j];
                g[j] = cosine[j] * g[j];
                columns = j + 1;
                if (invariant || cuda::std::fabs(g[j + 1]) <= target) break;
            }

            // y = R^-1 g by back substitution; y stays 0 beyond the cycle's columns.
            vector<T, M> y{};
            CUBIE_UNROLL
            for (int k = 0; k < M; ++k) {
                const int i = M - 1 - k;
                if (i >= columns) continue;
                T sum = g[i];
                CUBIE_UNROLL
                for (int j = i + 1; j < M; ++j) sum -= H[j][i] * y[j];
                y[i] = sum / H[i][i];
            }
            vector<T, N> combination{};
            CUBIE_UNROLL
            for (int i = 0; i < M; ++i) {
                if (i >= columns) break;  // later basis vectors were never written
                CUBIE_UNROLL
                for (int k = 0; k < N; ++k) combination[k] += y[i] * V[i][k];
            }
            vector<T, N> update;
            precondition(combination, update);
            vector<T, N> next;
            CUBIE_UNROLL
            for (int k = 0; k < N; ++k) {
                next[k] = x[k] + update[k];
                if (!cuda::std::isfinite(next[k])) return krylov_outcome::breakdown;
            }
            x = next;
            linear::residual(apply, b, x, r);
            r_norm = linear::norm(r);
        }
    }
};

}  // namespace cubie
