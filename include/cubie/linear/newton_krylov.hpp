#pragma once
// Matrix-free Newton-Krylov: the linear solver of simplified Newton iterations
// (linear/newton_linear_solver.hpp) that never forms J. M = I - h gamma J is applied as
// v - h gamma J v with J v from the right-hand side at (t, y) of the step (the system's own
// jvp, else a directional difference: systems/right_hand_side.hpp), and M x = b is solved by a
// Krylov method (linear/krylov_method.hpp: gmres_method, bicgstab_method) with a
// preconditioning policy (linear/preconditioners.hpp: identity, Jacobi, Neumann). Per
// thread it holds O(N) values where direct_lu holds N^2.
//
// Scaling. The Newton iteration measures corrections in the weighted RMS norm of its
// tolerances, ||x||_w = ||S^-1 x||_2 / sqrt(N) with S = diag(atol_i + rtol_i |y_i|)
// (controllers/error_norm.hpp at y); the Krylov solvers stop on the 2-norm of the residual.
// So the solve runs on the scaled system S^-1 M S u = S^-1 b, x = S u, whose residual 2-norm
// is sqrt(N) times the weighted norm of b - M x: the solver then weighs every component by
// the error it may carry (a state of size 1e-5 with atol 1e-14 is not drowned by states of
// size 1), as SUNDIALS' scaled SPGMR does. S^-1 M S has M's diagonal, so the Jacobi and
// Neumann preconditioners are built from diag(M) = 1 - h gamma diag(J), which the
// right-hand side's jacobian_diagonal gives once per step (only when the preconditioning
// uses it). The operator is applied as (v - h gamma J v) S^-1 with v = S u, so that an M that
// is exactly zero stays exactly zero and the solver sees its breakdown.
//
// Tolerance. solve(b, tolerance, report) asks for ||b - M x||_w <= tolerance (the caller
// derives it from its Newton tolerance; algorithms/dirk/dirk.hpp). Relative to ||S^-1 b||_2 that is
// tolerance sqrt(N) / ||S^-1 b||_2, but never below 2 (N + 1) eps: the solvers recompute the
// residual b - A x, whose rounding error is about (N + 1) eps (|b| + |A| |x|), so a smaller
// relative residual could not be told from rounding and would only exhaust the iteration
// budget. Where |A| |x| is far above |b| the rounding lies above that floor all the same
// (the scaled M of Robertson's late steps has a condition number of 1e12): such a solve runs
// out of iterations with an x as good as rounding allows, and the Newton iteration goes on
// with it. A right-hand side already within the tolerance takes no iteration (x = 0).
//
// Outcomes (linear/krylov_outcome.hpp) go back to the Newton iteration unchanged: converged,
// max_iterations (x is the last iterate, an inexact correction the iteration may still use)
// or breakdown (the operator is singular on the Krylov space, or a value is not finite).
// report.linear_iterations counts the solver's iterations (gmres: Arnoldi steps; bicgstab:
// full or half iterations); the preconditioner's own applications of M (Neumann: K per
// application) are not counted.

#include <cuda/std/array>
#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/joined_name.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/implicit_step_report.hpp"
#include "cubie/linear/krylov_method.hpp"
#include "cubie/linear/krylov_outcome.hpp"
#include "cubie/linear/preconditioners.hpp"
#include "cubie/linear/vector_algebra.hpp"

namespace cubie {

template <krylov_method Method, class Preconditioning = jacobi_preconditioning>
struct newton_krylov {
    using method = Method;
    using preconditioning = Preconditioning;
    static constexpr const char* name = joined_name<Method, Preconditioning>::value;

    template <class F, class State>
    class iteration_matrix {
        using T = typename F::value_type;
        static constexpr int n = static_cast<int>(cuda::std::tuple_size<State>::value);
        using column = vector<T, n>;

    public:
        CUBIE_HD iteration_matrix(const F& f, T t, const State& y, const State& dydt, T h_gamma,
                                  const tolerances<T, n>& tol)
            : f_(f),
              t_(t),
              y_(y),
              dydt_(dydt),
              h_gamma_(h_gamma),
              jacobi_(diagonal(f, t, y, dydt, h_gamma)) {
            CUBIE_UNROLL
            for (int i = 0; i < n; ++i) {
                scale_[i] = error_scale(tol, y, y, i);
                inverse_scale_[i] = T(1) / scale_[i];
            }
        }

        /// Nothing can fail before a solve: a singular M shows as a breakdown.
        CUBIE_HD static constexpr bool valid() { return true; }

        /// b becomes x with ||b - M x||_w <= tolerance where the solver converges.
        CUBIE_HD krylov_outcome solve(State& b, T tolerance, implicit_step_report& report) const {
            column scaled;
            CUBIE_UNROLL
            for (int i = 0; i < n; ++i) scaled[i] = b[i] * inverse_scale_[i];
            const T floor = T(2 * (n + 1)) * cuda::std::numeric_limits<T>::epsilon();
            const T relative =
                cuda::std::fmax(tolerance * cuda::std::sqrt(T(n)) / linear::norm(scaled), floor);
            const auto apply = [this](const column& u, column& Mu) { this->apply(u, Mu); };
            column x{};
            int iterations = 0;
            const krylov_outcome outcome = Method::template solver<T, n>().solve(
                apply, Preconditioning::make(jacobi_, apply), scaled, x, relative, iterations);
            report.linear_iterations += static_cast<unsigned>(iterations);
            CUBIE_UNROLL
            for (int i = 0; i < n; ++i) b[i] = x[i] * scale_[i];
            return outcome;
        }

    private:
        /// Mu = S^-1 M S u.
        CUBIE_HD void apply(const column& u, column& Mu) const {
            State v, Jv;
            CUBIE_UNROLL
            for (int i = 0; i < n; ++i) v[i] = u[i] * scale_[i];
            f_.jvp(t_, y_, dydt_, v, Jv);
            CUBIE_UNROLL
            for (int i = 0; i < n; ++i) Mu[i] = (v[i] - h_gamma_ * Jv[i]) * inverse_scale_[i];
        }

        /// diag(M) = 1 - h gamma diag(J) where the preconditioning uses it, else 1.
        CUBIE_HD static column diagonal(const F& f, T t, const State& y, const State& dydt,
                                        T h_gamma) {
            column d;
            if constexpr (Preconditioning::uses_diagonal) {
                f.jacobian_diagonal(t, y, dydt, d);
                CUBIE_UNROLL
                for (int i = 0; i < n; ++i) d[i] = T(1) - h_gamma * d[i];
            } else {
                CUBIE_UNROLL
                for (int i = 0; i < n; ++i) d[i] = T(1);
            }
            return d;
        }

        const F& f_;
        T t_;
        const State& y_;
        const State& dydt_;
        T h_gamma_;
        jacobi_preconditioner<T, n> jacobi_;
        column scale_, inverse_scale_;
    };
};

}  // namespace cubie
