#pragma once
// Which LU factors the iteration matrix I - h gamma J of a stiff step (Rosenbrock W, the
// Newton matrices of direct_lu and of implicit Runge-Kutta methods), for a right-hand side
// F on one thread or on the lanes of a Group:
//
//   sparse_lu in the system's jacobian_pattern   one lane, a system that declares its
//                                                pattern, and factors that keep at most
//                                                half of the N^2 entries
//   lane_lu (dense_lu, cooperative_lu)           otherwise: partial pivoting, whole rows
//
// A system whose pattern leaves little out gains nothing from sparse_lu and would lose row
// exchanges. dense_jacobian<System> (systems/dense_jacobian.hpp) hides a pattern, to factor
// with row exchanges anyway.

#include <cuda/std/type_traits>

#include "cubie/linear/cooperative_lu.hpp"
#include "cubie/linear/lane_group.hpp"
#include "cubie/linear/sparse_lu.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

namespace detail {

template <class System, bool Patterned = has_jacobian_pattern<System>>
struct pattern_saves_half : cuda::std::false_type {};

template <class System>
struct pattern_saves_half<System, true>
    : cuda::std::bool_constant<2 * plan_sparse_lu(System::jacobian_pattern).size <=
                               System::n_states * System::n_states> {};

template <class F>
concept has_system = requires {
    typename F::system_type;
};

template <class T, int N, class F, bool Sparse>
struct thread_lu_choice {
    using type = dense_lu<T, N>;
};

template <class T, int N, class F>
struct thread_lu_choice<T, N, F, true> {
    using type = sparse_lu<T, typename F::system_type>;
};

template <class F>
constexpr bool sparse_for() {
    if constexpr (has_system<F>)
        return pattern_saves_half<typename F::system_type>::value;
    else
        return false;
}

}  // namespace detail

/// Whether System's iteration matrices are factored in its pattern on one thread.
template <class System>
inline constexpr bool factored_in_pattern = detail::pattern_saves_half<System>::value;

/// The LU of an N x N iteration matrix for F (elements T: real, or complex for implicit
/// Runge-Kutta methods) on one thread.
template <class T, int N, class F>
using thread_lu = typename detail::thread_lu_choice<T, N, F, detail::sparse_for<F>()>::type;

/// The same on the lanes of Group, called as cooperative_lu is.
template <class T, int N, class F, lane_group Group>
using iteration_lu =
    cuda::std::conditional_t<Group::size == 1, detail::one_lane_lu<thread_lu<T, N, F>>,
                             cooperative_lu<T, N, Group>>;

}  // namespace cubie
