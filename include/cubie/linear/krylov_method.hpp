#pragma once
// Krylov methods as compile-time policies of newton_krylov (linear/newton_krylov.hpp): which
// solver, and its iteration budget, fixed with the method so that a solver configuration is
// a type like every other choice of algorithm. A Krylov method policy is a type with
//
//   name                       const char*, for the method's name
//   solver<T, N>()             the solver object for N unknowns in T: a type with
//                              solve(apply, precondition, b, x, tol, iterations) as gmres
//                              and bicgstab have it (linear/krylov_outcome.hpp)
//   max_iterations(N)          the most iterations one solve may report
//
//   gmres_method<M, R>         restarted GMRES(M) with at most R restarts (default M = 10,
//                              R = 4), M capped at N: a cycle of N steps already spans the
//                              whole space, so a larger M would only hold more basis vectors
//                              (M + 1 vectors of N and an (M + 1) x M Hessenberg matrix per
//                              thread)
//   bicgstab_method<I>         BiCGSTAB with at most I iterations (default 50): seven vectors
//                              of N, two applications of the operator and of the
//                              preconditioner per iteration

#include <concepts>

#include "cubie/core/config.hpp"
#include "cubie/linear/bicgstab.hpp"
#include "cubie/linear/gmres.hpp"

namespace cubie {

template <int KrylovDimension = 10, int MaxRestarts = 4>
struct gmres_method {
    static_assert(KrylovDimension >= 1, "gmres needs a Krylov dimension of at least one");
    static_assert(MaxRestarts >= 0, "a negative number of restarts means nothing");
    static constexpr const char* name = "gmres";
    static constexpr int krylov_dimension = KrylovDimension;
    static constexpr int max_restarts = MaxRestarts;

    template <int N>
    static constexpr int dimension = KrylovDimension < N ? KrylovDimension : N;

    template <class T, int N>
    CUBIE_HD static gmres<T, N, dimension<N>> solver() {
        return {MaxRestarts};
    }
    static constexpr int max_iterations(int n) {
        return (MaxRestarts + 1) * (KrylovDimension < n ? KrylovDimension : n);
    }
};

template <int MaxIterations = 50>
struct bicgstab_method {
    static_assert(MaxIterations >= 1, "bicgstab needs at least one iteration");
    static constexpr const char* name = "bicgstab";
    static constexpr int iteration_limit = MaxIterations;

    template <class T, int N>
    CUBIE_HD static bicgstab<T, N> solver() {
        return {MaxIterations};
    }
    static constexpr int max_iterations(int) { return MaxIterations; }
};

/// The policies above, and any type that provides what they do.
template <class M>
concept krylov_method = requires {
    { M::name } -> std::convertible_to<const char*>;
    { M::max_iterations(1) } -> std::convertible_to<int>;
    M::template solver<double, 1>();
};

}  // namespace cubie
