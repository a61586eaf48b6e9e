#pragma once
// Which LU factors the iteration matrix I - h gamma J of a stiff step (Rosenbrock W, the
// Newton matrices of direct_lu and of implicit Runge-Kutta methods), for a right-hand side
// F on one thread or on the lanes of a Group:
//
//   sparse_lu in the system's jacobian_pattern   one lane, a system that declares its
//                                                pattern, factors that keep at most half
//                                                of the N^2 entries, and an elimination
//                                                within dense_lu's unrolling budget
//   dense_lu, or cooperative_lu on lanes         otherwise: partial pivoting, whole rows
//
// A system whose pattern leaves little out gains nothing from sparse_lu and would lose row
// exchanges. dense_jacobian<System> (systems/dense_jacobian.hpp) hides a pattern, to factor
// with row exchanges anyway.

#include <cuda/std/type_traits>

#include "cubie/linear/cooperative_lu.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/linear/lane_group.hpp"
#include "cubie/linear/sparse_lu.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

namespace detail {

/// A one-thread LU (dense_lu, sparse_lu) behind cooperative_lu's calls: one lane holds
/// every row.
template <class LU>
class one_lane_lu : public LU {
public:
    using rows_type = typename LU::matrix;
    using part = typename rows_type::value_type;
    template <lane_group Group>
    CUBIE_HD bool factor(const Group&, const rows_type& rows) {
        return LU::factor(rows);
    }
    template <lane_group Group>
    CUBIE_HD void solve(const Group&, part& b) const {
        LU::solve(b);
    }
    template <lane_group Group>
    CUBIE_HD part solve_whole(const Group&, part& b) const {
        LU::solve(b);
        return b;
    }
};

/// Whether System's pattern pays for a factorisation in elements of Cost real multiply-adds:
/// its factors keep at most half the N^2 entries, and its updates unroll within dense_lu's
/// budget (cost times operations at most 20^3), beyond which nvcc's time grows out of hand.
template <class System, int Cost, bool Patterned = has_jacobian_pattern<System>>
struct pattern_pays : cuda::std::false_type {};

template <class System, int Cost>
struct pattern_pays<System, Cost, true> {
    static constexpr int n = System::n_states;
    static constexpr auto structure = plan_sparse_lu(System::jacobian_pattern);
    static constexpr bool value =
        2 * structure.size <= n * n && Cost * count_updates(structure) <= 20 * 20 * 20;
};

template <class F>
concept has_system = requires {
    typename F::system_type;
};

template <class T, int N, class F, bool Sparse, bool FactorsInSharedMemory>
struct thread_lu_choice {
    using type = dense_lu<T, N>;
};

template <class T, int N, class F, bool FactorsInSharedMemory>
struct thread_lu_choice<T, N, F, true, FactorsInSharedMemory> {
    using type = sparse_lu<T, typename F::system_type, FactorsInSharedMemory>;
};

template <class T, class F>
constexpr bool sparse_for() {
    if constexpr (has_system<F>)
        return pattern_pays<typename F::system_type, lu_element<T>::cost>::value;
    else
        return false;
}

}  // namespace detail

/// Whether System's iteration matrices in elements T (real, or complex) are factored in its
/// pattern on one thread.
template <class T, class System>
inline constexpr bool factored_in_pattern_as =
    detail::pattern_pays<System, lu_element<T>::cost>::value;

/// Entries a thread's factors of System's iteration matrix in elements T keep: the pattern's
/// stored entries where it is factored in it, else N^2.
template <class T, class System>
constexpr int thread_factor_entries() {
    if constexpr (factored_in_pattern_as<T, System>)
        return sparse_lu<T, System>::stored_entries;
    else
        return System::n_states * System::n_states;
}

/// Whether System's real iteration matrices are factored in its pattern on one thread.
template <class System>
inline constexpr bool factored_in_pattern =
    factored_in_pattern_as<typename System::value_type, System>;

/// The LU of an N x N iteration matrix for F (elements T: real, or complex for implicit
/// Runge-Kutta methods) on one thread; FactorsInSharedMemory keeps the factors of a pattern
/// in the thread's shared memory (sparse_lu.hpp), which a dense one ignores.
template <class T, int N, class F, bool FactorsInSharedMemory = false>
using thread_lu = typename detail::thread_lu_choice<T, N, F, detail::sparse_for<T, F>(),
                                                    FactorsInSharedMemory>::type;

/// The same on the lanes of Group, called as cooperative_lu is (which keeps its rows in
/// registers).
template <class T, int N, class F, lane_group Group, bool FactorsInSharedMemory = false>
using iteration_lu =
    cuda::std::conditional_t<Group::size == 1,
                             detail::one_lane_lu<thread_lu<T, N, F, FactorsInSharedMemory>>,
                             cooperative_lu<T, N, Group>>;

}  // namespace cubie
