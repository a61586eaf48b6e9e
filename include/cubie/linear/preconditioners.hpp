#pragma once
// Preconditioners of gmres and bicgstab for A = I - h gamma J: callables
// precondition(r, z) that set z ~ A^-1 r. Both solvers precondition from the right, so a
// preconditioner changes the iteration count, never the solution or the stopping rule; it
// must be linear and nonsingular.
//
//   identity_preconditioner      z = r
//   jacobi_preconditioner        z = D^-1 r, D = diag(A), from the diagonal the caller has
//                                (1 - h gamma J_ii, from the Jacobian's diagonal or N jvps)
//   neumann_preconditioner       z = sum_{k=0..K} (D^-1 E)^k D^-1 r, A = D - E, truncated
//                                Neumann series of A^-1, at K applications of A
//
// The Neumann series converges to A^-1 r exactly when the spectral radius of G = D^-1 E is
// below 1, for instance when A is strictly diagonally dominant by rows or by columns; for
// I - h gamma J that holds for small enough h, and for any h when the stiff couplings are a
// species' own loss terms on J's diagonal. A P is then D (I - G^(K+1)) D^-1, its eigenvalues
// 1 - mu^(K+1) for the eigenvalues mu of G: clustered around 1 more tightly with each
// order. Otherwise the truncated series may amplify the residual or be singular; K = 0 is
// jacobi_preconditioner.
//
// Newton-Krylov methods (linear/newton_krylov.hpp) choose one by a preconditioning policy,
// a type with
//
//   name                                    const char*, for the method's name
//   uses_diagonal                           bool: the method must find diag(A) per step
//   make(jacobi, apply)                     the preconditioner for A given by apply(v, Av),
//                                           from diag(A)'s jacobi_preconditioner (ignored
//                                           when uses_diagonal is false)
//
// identity_preconditioning, jacobi_preconditioning and neumann_preconditioning<K>.

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"

namespace cubie {

struct identity_preconditioner {
    template <class Vector>
    CUBIE_HD void operator()(const Vector& r, Vector& z) const {
        z = r;
    }
};

template <class T, int N>
class jacobi_preconditioner {
public:
    /// From the diagonal of A. An entry without a finite, normal reciprocal (zero, subnormal,
    /// infinite or NaN) scales its component by 1 instead: that component is then simply
    /// not preconditioned, where 1 / d would make P singular or not finite, and the solver
    /// still converges to the same solution.
    CUBIE_HD explicit jacobi_preconditioner(const vector<T, N>& diagonal) {
        using limits = cuda::std::numeric_limits<T>;
        CUBIE_UNROLL
        for (int i = 0; i < N; ++i) {
            const T d = cuda::std::fabs(diagonal[i]);
            const bool invertible =
                d >= limits::min() && d <= limits::max() && T(1) / d <= limits::max();
            inverse_[i] = invertible ? T(1) / diagonal[i] : T(1);
        }
    }

    CUBIE_HD void operator()(const vector<T, N>& r, vector<T, N>& z) const {
        CUBIE_UNROLL
        for (int i = 0; i < N; ++i) z[i] = inverse_[i] * r[i];
    }

private:
    vector<T, N> inverse_;  ///< 1 / a_ii, or 1 where that does not exist
};

template <class T, int N, int K, class Apply>
class neumann_preconditioner {
    static_assert(K >= 0, "the Neumann series needs an order of at least 0");

public:
    /// With the diagonal's preconditioner and apply(v, Av), the operator the solver gets.
    CUBIE_HD neumann_preconditioner(const jacobi_preconditioner<T, N>& jacobi, const Apply& apply)
        : jacobi_(jacobi), apply_(apply) {}

    /// Horner's rule: z_0 = D^-1 r, z_k = D^-1 r + G z_(k-1) = z_(k-1) + D^-1 (r - A z_(k-1)),
    /// since G = D^-1 (D - A); one application of A per order.
    CUBIE_HD void operator()(const vector<T, N>& r, vector<T, N>& z) const {
        jacobi_(r, z);
        for (int k = 0; k < K; ++k) {
            vector<T, N> Az, correction;
            apply_(z, Az);
            CUBIE_UNROLL
            for (int i = 0; i < N; ++i) Az[i] = r[i] - Az[i];
            jacobi_(Az, correction);
            CUBIE_UNROLL
            for (int i = 0; i < N; ++i) z[i] += correction[i];
        }
    }

private:
    jacobi_preconditioner<T, N> jacobi_;
    Apply apply_;  ///< by value: a lambda capturing the operator's data by reference is small
};

/// neumann_preconditioner<T, N, K, Apply> with T, N and Apply deduced.
template <int K, class T, int N, class Apply>
CUBIE_HD neumann_preconditioner<T, N, K, Apply> make_neumann_preconditioner(
    const jacobi_preconditioner<T, N>& jacobi, const Apply& apply) {
    return {jacobi, apply};
}

/// Preconditioning policies of newton_krylov (see above).
struct identity_preconditioning {
    static constexpr const char* name = "identity";
    static constexpr bool uses_diagonal = false;
    template <class T, int N, class Apply>
    CUBIE_HD static identity_preconditioner make(const jacobi_preconditioner<T, N>&, const Apply&) {
        return {};
    }
};

struct jacobi_preconditioning {
    static constexpr const char* name = "jacobi";
    static constexpr bool uses_diagonal = true;
    template <class T, int N, class Apply>
    CUBIE_HD static const jacobi_preconditioner<T, N>& make(
        const jacobi_preconditioner<T, N>& jacobi, const Apply&) {
        return jacobi;
    }
};

/// The Neumann series to order K: K applications of A per application of P.
template <int K>
struct neumann_preconditioning {
    static_assert(K >= 0, "the Neumann series needs an order of at least 0");
    static constexpr const char* name = "neumann";
    static constexpr bool uses_diagonal = true;
    template <class T, int N, class Apply>
    CUBIE_HD static neumann_preconditioner<T, N, K, Apply> make(
        const jacobi_preconditioner<T, N>& jacobi, const Apply& apply) {
        return {jacobi, apply};
    }
};

}  // namespace cubie
