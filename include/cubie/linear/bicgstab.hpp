#pragma once
// BiCGSTAB (van der Vorst 1992) for one N x N system per thread, the operator given as a
// callable apply(v, Av): the short-recurrence alternative to gmres, with storage of seven
// vectors of N whatever the iteration count, at two applications of A and of P per
// iteration.
//
// Right preconditioning, as in gmres: the iteration runs on A P and x moves by P times its
// search directions, so the residual b - A x is the one the caller asked about.
//
// Stopping: when the recurred residual (s after the first half-step or r after the
// second) is at most tol ||b||, the residual b - A x is recomputed from x; only that one
// decides convergence (the recurrence drifts from it in floating point). When it fails the
// rule, the iteration restarts from it. iterations counts full or half iterations; b = 0
// returns x = 0 at once.
//
// Breakdown, with x left at the last finite iterate: ||b|| or a residual not finite, an
// update of x that is not finite, or a quantity the recurrences divide by that cannot be
// told from rounding noise, at most N eps times the norms of its factors:
//   - (r_hat, r): the shadow residual has become orthogonal to r (Lanczos breakdown);
//   - (r_hat, A P p): A P maps the search direction orthogonal to r_hat (A may be
//     singular);
//   - (A P s, s): omega vanishes, and the next direction would divide by it (the
//     minimal-residual half-step stagnates, as for a singular or strongly skew A).

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/krylov_outcome.hpp"
#include "cubie/linear/krylov_solver.hpp"
#include "cubie/linear/vector_algebra.hpp"

namespace cubie {

template <class T, int N>
struct bicgstab : krylov_solver<bicgstab<T, N>, T, N> {
    static_assert(N >= 1, "bicgstab needs at least one unknown");
    static_assert(cuda::std::numeric_limits<T>::is_iec559, "bicgstab works in float or double");

    int max_iterations;  ///< iterations before giving up

    CUBIE_HD bicgstab(int max_iterations_) : max_iterations(max_iterations_) {}

    /// The iteration of krylov_solver::solve, from a finite, non-zero b.
    template <class Apply, class Precondition>
    CUBIE_HD krylov_outcome iterate(const Apply& apply, const Precondition& precondition,
                                    const vector<T, N>& b, vector<T, N>& x, T target,
                                    int& iterations) const {
        vector<T, N> r, r_hat{}, p{}, v{};
        T rho = 1, alpha = 1, omega = 1;
        bool restart = true;
        linear::residual(apply, b, x, r);
        for (;;) {
            // Here r is b - A x recomputed after a restart, else the recurred residual.
            const T r_norm = linear::norm(r);
            if (!cuda::std::isfinite(r_norm)) return krylov_outcome::breakdown;
            if (r_norm <= target) {
                if (!restart) {
                    linear::residual(apply, b, x, r);
                    restart = true;
                    continue;
                }
                return krylov_outcome::converged;
            }
            if (iterations >= max_iterations) return krylov_outcome::max_iterations;
            ++iterations;

            if (restart) r_hat = r;
            const T rho_next = linear::dot(r_hat, r);
            if (negligible(rho_next, r_hat, r)) return krylov_outcome::breakdown;
            if (restart) {
                p = r;
            } else {
                const T beta = (rho_next / rho) * (alpha / omega);
                CUBIE_UNROLL
                for (int i = 0; i < N; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
            }
            rho = rho_next;
            restart = false;

            vector<T, N> p_hat;
            precondition(p, p_hat);
            apply(p_hat, v);
            const T sigma = linear::dot(r_hat, v);
            if (negligible(sigma, r_hat, v)) return krylov_outcome::breakdown;
            alpha = rho / sigma;
            vector<T, N> s;
            CUBIE_UNROLL
            for (int i = 0; i < N; ++i) s[i] = r[i] - alpha * v[i];
            if (linear::norm(s) <= target) {  // the half-step is enough
                if (!advance(x, alpha, p_hat, T(0), p_hat)) return krylov_outcome::breakdown;
                r = s;
                continue;
            }

            vector<T, N> s_hat, t;
            precondition(s, s_hat);
            apply(s_hat, t);
            const T ts = linear::dot(t, s);
            if (negligible(ts, t, s)) return krylov_outcome::breakdown;
            omega = ts / linear::dot(t, t);
            if (!advance(x, alpha, p_hat, omega, s_hat)) return krylov_outcome::breakdown;
            CUBIE_UNROLL
            for (int i = 0; i < N; ++i) r[i] = s[i] - omega * t[i];
        }
    }

private:
    /// (u, v) cannot be told from the rounding error of computing it, or is not finite.
    CUBIE_HD static bool negligible(T uv, const vector<T, N>& u, const vector<T, N>& v) {
        const T noise =
            T(N) * cuda::std::numeric_limits<T>::epsilon() * linear::norm(u) * linear::norm(v);
        return !(cuda::std::fabs(uv) > noise) || !cuda::std::isfinite(uv);
    }

    /// x += a u + c w unless that is not finite (false; x is then left as it was).
    CUBIE_HD static bool advance(vector<T, N>& x, T a, const vector<T, N>& u, T c,
                                 const vector<T, N>& w) {
        vector<T, N> next;
        CUBIE_UNROLL
        for (int i = 0; i < N; ++i) {
            next[i] = x[i] + a * u[i] + c * w[i];
            if (!cuda::std::isfinite(next[i])) return false;
        }
        x = next;
        return true;
    }
};

}  // namespace cubie
