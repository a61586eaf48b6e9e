#pragma once
// The linear solver of an implicit method's simplified Newton iteration, as a policy: how
// M x = b is solved for the iteration matrix M = I - h gamma J, J = d f / d y at (t, y) of the
// step, one linearisation for every stage and iteration of the step.
//
//   direct_lu             (linear/direct_lu.hpp) forms J, factors M once per step (in the
//                         system's sparsity pattern where it declares one, else dense:
//                         linear/iteration_lu.hpp): up to N^2 values per thread, exact solves
//   newton_krylov<K, P>   (linear/newton_krylov.hpp) matrix-free: M v from J v products
//                         (right_hand_side::jvp), solved by the Krylov method K (gmres_method,
//                         bicgstab_method) with preconditioning P (identity, Jacobi,
//                         Neumann); O(N) values per thread, solves as accurate as asked
//
// A policy L is a type with
//
//   L::name                                   const char*, part of the method's name
//   typename L::template iteration_matrix<F, State>
//                                             M for a step, F a right_hand_side (value_type
//                                             T, N states) and State its state type:
//     iteration_matrix(f, t, y, dydt, h_gamma, tol)   sets up M at (t, y), dydt = f(t, y),
//                                             for the Newton iteration's weighted RMS norm
//                                             of tol (controllers/error_norm.hpp) at y
//     valid()                                 false when M cannot be used (direct_lu: singular
//                                             to working precision); the step then fails
//                                             with step_failure::singular_matrix
//     solve(b, tolerance, report)             b becomes x ~ M^-1 b; adds its iterations to
//                                             report.linear_iterations and returns how the
//                                             solve ended (linear/krylov_outcome.hpp).
//                                             tolerance is the residual b - M x allowed in
//                                             that weighted norm; a direct solve ignores it
//                                             and always converges, counting 1 iteration

#include <concepts>

#include "cubie/core/vector.hpp"

namespace cubie {

namespace detail {

/// What an iteration matrix may ask of F: right_hand_side's members, declared only.
struct archetype_right_hand_side {
    using value_type = double;
    using state_type = vector<double, 1>;
    void operator()(double t, const state_type& y, state_type& dydt) const;
    void jacobian(double t, const state_type& y, const state_type& dydt,
                  vector<state_type, 1>& J) const;
    void jvp(double t, const state_type& y, const state_type& dydt, const state_type& v,
             state_type& Jv) const;
    void jacobian_diagonal(double t, const state_type& y, const state_type& dydt,
                           state_type& diagonal) const;
};

}  // namespace detail

template <class L>
concept newton_linear_solver = requires {
    { L::name } -> std::convertible_to<const char*>;
    typename L::template iteration_matrix<detail::archetype_right_hand_side, vector<double, 1>>;
};

}  // namespace cubie
