#pragma once
// LU factorisation of one N x N matrix whose zero entries are known at compile time (a
// system's sparsity_pattern, systems/sparsity_pattern.hpp), per thread: the iteration
// matrix I - h gamma J of a stiff system with many states, each depending on a few.
//
//   Q^T A Q = L U,  Q a permutation fixed at compile time
//
// The plan is made by the compiler from the pattern alone:
//   - the pivot order Q: at each step the diagonal entry with the least Markowitz count
//     (r - 1)(c - 1), r and c the entries left in its row and column, the first on a tie;
//     pivots stay on the diagonal, which I - h gamma J keeps structurally nonzero;
//   - the fill: every entry that elimination in that order can make nonzero;
//   - the operations: each multiplier and each update of L and U, by storage slot.
// Only the pattern's entries and the fill are stored, and every index is a constant, so
// the factors stay in registers where a dense matrix of the same order would spill. The
// POLLU problem's 20 x 20 Jacobian has 82 entries that can be nonzero; its factors store
// 94 (with the diagonal and the fill) against dense_lu's 400, and a factorisation takes 71
// updates against 2,470.
//
// No row is exchanged at run time. In its place, a factorisation that exchanges would have
// made much more accurate is refused, as dense_lu refuses a singular one:
//   - a multiplier |l_ik| = |a_ik / a_kk| above growth_limit, 2^(d/2) for d significand bits
//     (4096 in float, 6.7e7 in double), about 1 / sqrt(eps): elimination can grow the
//     entries, and their rounding errors, by as much, and at that bound still keeps half
//     the digits;
//   - a pivot not finite, zero or subnormal, or at most N * eps * sum |l_km u_mk| over the
//     terms subtracted from it (dense_lu's rule, with the sum it bounds).
// A NaN or infinite entry fails the factorisation where elimination carries it into a
// pivot (an infinite multiplier fails the bound too). Dense elimination carries every
// entry there; in a pattern, an entry that no later pivot depends on goes only into the
// solutions, and the step's error estimate is then not finite: the step is rejected.
// A refused factorisation fails the step (step_failure::singular_matrix) and the adaptive
// step shrinks: I - h gamma J tends to I, which every order factors. Matrices whose columns
// are dominated by their diagonals, as those of chemical kinetics (a species' loss rate
// bounds what it produces, times the stoichiometry) or of diffusion, have multipliers below
// 1 and are never refused. The RINGMOD circuit's are not: multipliers up to 1e5 in double,
// and rodas5p's steps and errors there are dense_lu's (132,337 steps against 132,334 at
// rtol 1e-7); a limit of 10, as in threshold pivoting, would have ended its trajectory.
//
// The arithmetic of each operation is dense_lu's (lu_element<T>, explicit rounding on the
// device), so the elements may be float or double, or complex with
// linear/complex_dense_lu.hpp included.
//
// FactorsInSharedMemory keeps the factors in the thread's words of the block's shared memory
// on the device (core/thread_shared.hpp) in place of registers, for a method whose other
// values fill them (implicit_runge_kutta.hpp's complex factors, rosenbrock.hpp's W): the
// factorisation works on them there, and each solve reads them there. A complex element takes two
// rows of words, its real and its imaginary parts. On the host the factors are a member array
// either way.

#include <cuda/std/array>
#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"
#include "cubie/core/thread_shared.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/systems/sparsity_pattern.hpp"

namespace cubie {

namespace detail {

/// The structure of L and U for a pattern: the pivot order and, in that order, which
/// entries are stored and where.
template <int N>
struct sparse_lu_structure {
    int order[N]{};    ///< step k pivots on row and column order[k] of A
    int slot[N][N]{};  ///< [k][l]: storage of entry (order[k], order[l]) of A, or -1
    int size = 0;      ///< the stored entries
};

template <int N>
constexpr sparse_lu_structure<N> plan_sparse_lu(const sparsity_pattern<N>& pattern) {
    bool entry[N][N]{};  // in A's indices: the pattern and the diagonal, then the fill
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) entry[i][j] = pattern(i, j) || i == j;
    bool eliminated[N]{};
    sparse_lu_structure<N> s;
    for (int k = 0; k < N; ++k) {
        int best = -1;
        long best_count = 0;
        for (int c = 0; c < N; ++c) {
            if (eliminated[c]) continue;
            long row = 0, column = 0;
            for (int j = 0; j < N; ++j) {
                row += !eliminated[j] && entry[c][j];
                column += !eliminated[j] && entry[j][c];
            }
            const long count = (row - 1) * (column - 1);
            if (best < 0 || count < best_count) {
                best = c;
                best_count = count;
            }
        }
        s.order[k] = best;
        eliminated[best] = true;
        for (int i = 0; i < N; ++i)
            if (!eliminated[i] && entry[i][best])
                for (int j = 0; j < N; ++j)
                    if (!eliminated[j] && entry[best][j]) entry[i][j] = true;
    }
    for (int k = 0; k < N; ++k)
        for (int l = 0; l < N; ++l) s.slot[k][l] = entry[s.order[k]][s.order[l]] ? s.size++ : -1;
    return s;
}

/// The updates a - l u of one factorisation in that structure.
template <int N>
constexpr int count_updates(const sparse_lu_structure<N>& s) {
    int c = 0;
    for (int k = 0; k < N; ++k)
        for (int i = k + 1; i < N; ++i)
            if (s.slot[i][k] >= 0)
                for (int j = k + 1; j < N; ++j) c += s.slot[k][j] >= 0;
    return c;
}

/// a[target] -= a[multiplier] a[pivot_row]: one update of the elimination.
struct sparse_lu_update {
    int target, multiplier, pivot_row;
    bool on_diagonal;  ///< target is a later pivot: its rounding enters the singularity rule
    int diagonal;      ///< the step of that pivot
};

/// x[to] -= a[slot] x[from]: one term of the triangular solves, or, factoring, the
/// multiplier a[slot] of row `to` at step `from`.
struct sparse_lu_term {
    int to, from, slot;
};

}  // namespace detail

/// Patterned: a type with a static constexpr sparsity_pattern<N> jacobian_pattern, such as
/// a generated system (named by its type, so that kernels' names stay short).
template <class T, class Patterned, bool FactorsInSharedMemory = false>
class sparse_lu {
    static constexpr int N = cuda::std::remove_cvref_t<decltype(Patterned::jacobian_pattern)>::size;
    using element = lu_element<T>;
    using real = typename element::real;

    static constexpr detail::sparse_lu_structure<N> structure =
        detail::plan_sparse_lu(Patterned::jacobian_pattern);
    static constexpr int size = structure.size;

    /// Column k's multipliers l_ik (rows after k), and row k's entries u_kj (columns after
    /// k), over every k: each list in order of k, with where each k's part begins.
    static constexpr int lower_count() {
        int c = 0;
        for (int k = 0; k < N; ++k)
            for (int i = k + 1; i < N; ++i) c += structure.slot[i][k] >= 0;
        return c;
    }
    static constexpr int upper_count() {
        int c = 0;
        for (int k = 0; k < N; ++k)
            for (int j = k + 1; j < N; ++j) c += structure.slot[k][j] >= 0;
        return c;
    }
    static constexpr int update_count() { return detail::count_updates(structure); }
    struct term_lists {
        cuda::std::array<detail::sparse_lu_term, lower_count()> lower{};
        cuda::std::array<detail::sparse_lu_term, upper_count()> upper{};
        cuda::std::array<detail::sparse_lu_update, update_count()> updates{};
        int lower_begin[N + 1]{}, upper_begin[N + 1]{}, updates_begin[N + 1]{};
    };
    static constexpr term_lists make_lists() {
        term_lists t;
        int lo = 0, up = 0, u = 0;
        for (int k = 0; k < N; ++k) {
            t.lower_begin[k] = lo;
            t.upper_begin[k] = up;
            t.updates_begin[k] = u;
            for (int i = k + 1; i < N; ++i)
                if (structure.slot[i][k] >= 0) t.lower[lo++] = {i, k, structure.slot[i][k]};
            for (int j = k + 1; j < N; ++j)
                if (structure.slot[k][j] >= 0) t.upper[up++] = {k, j, structure.slot[k][j]};
            for (int i = k + 1; i < N; ++i) {
                if (structure.slot[i][k] < 0) continue;
                for (int j = k + 1; j < N; ++j)
                    if (structure.slot[k][j] >= 0)
                        t.updates[u++] = {structure.slot[i][j], structure.slot[i][k],
                                          structure.slot[k][j], i == j, i};
            }
        }
        t.lower_begin[N] = lo;
        t.upper_begin[N] = up;
        t.updates_begin[N] = u;
        return t;
    }
    static constexpr term_lists lists = make_lists();

    /// body(c) for every c in [Begin, End), c a compile-time constant.
    template <int Begin, int End, class Body>
    CUBIE_HD static void for_range(Body&& body) {
        static_for<End - Begin>(
            [&](auto q) { body(cuda::std::integral_constant<int, Begin + q>{}); });
    }

public:
    using matrix = vector<vector<T, N>, N>;  ///< row-major: A[i][j]

    /// The largest multiplier |l_ik| a factorisation accepts (see above).
    static constexpr real growth_limit = [] {
        real limit = 1;
        for (int bit = 0; bit < cuda::std::numeric_limits<real>::digits / 2; ++bit) limit *= 2;
        return limit;
    }();

    /// Entries stored: the pattern's, the diagonal and the fill.
    static constexpr int stored_entries = size;
    /// Updates a - l u of one factorisation, against N (N - 1) (2 N - 1) / 6 dense.
    static constexpr int update_operations = update_count();

    /// Step k pivots on row and column pivot_order(k) of A.
    static constexpr int pivot_order(int k) { return structure.order[k]; }

    /// Factors A, reading only the entries the pattern (and the diagonal) allows. False when
    /// the rules above refuse it; after a failure, solve() must not be called until a
    /// factorisation succeeds.
    CUBIE_HD bool factor(const matrix& A) {
        using limits = cuda::std::numeric_limits<real>;
        static_for<N>([&](auto k) {
            static_for<N>([&](auto l) {
                constexpr int s = structure.slot[k][l];
                constexpr int row = structure.order[k], column = structure.order[l];
                // The fill starts at zero: a '.' of the pattern is zero whatever A holds there.
                if constexpr (s >= 0)
                    set_factor(s, Patterned::jacobian_pattern(row, column) || row == column
                                      ? A[row][column]
                                      : T(0));
            });
        });
        vector<real, N> subtracted{};  // per pivot: sum |l u| of the updates it took
        real largest_multiplier = 0;
        bool regular = true;
        static_for<N>([&](auto k) {
            constexpr int diagonal = structure.slot[k][k];
            const T pivot_entry = factor_at(diagonal);
            const real pivot = element::magnitude(pivot_entry);
            const real negligible = real(N) * limits::epsilon() * subtracted[k];
            const bool usable =
                pivot > negligible && pivot >= limits::min() && pivot <= limits::max();
            regular = regular && usable;
            // The diagonal keeps 1 / u_kk; a refused pivot is replaced, so that no division
            // by zero runs (the results are not used).
            const T inverse = element::reciprocal(usable ? pivot_entry : T(1));
            set_factor(diagonal, inverse);
            for_range<lists.lower_begin[k], lists.lower_begin[k + 1]>([&](auto q) {
                constexpr int s = lists.lower[q].slot;
                const T multiplier = element::product(factor_at(s), inverse);
                set_factor(s, multiplier);
                largest_multiplier =
                    cuda::std::fmax(largest_multiplier, element::magnitude(multiplier));
            });
            for_range<lists.updates_begin[k], lists.updates_begin[k + 1]>([&](auto q) {
                constexpr detail::sparse_lu_update u = lists.updates[q];
                const T l = factor_at(u.multiplier), v = factor_at(u.pivot_row);
                if constexpr (u.on_diagonal)
                    subtracted[u.diagonal] += element::magnitude(l) * element::magnitude(v);
                set_factor(u.target, element::minus_product(factor_at(u.target), l, v));
            });
        });
        // fmax passes over a NaN multiplier: it goes on as a non-finite entry (above). A test
        // of each multiplier instead made the kernels 7 to 60% slower (bench/RESULTS.md).
        return regular && largest_multiplier <= growth_limit;
    }

    /// Solves A x = b in place (b becomes x) with the last successful factorisation.
    CUBIE_HD void solve(vector<T, N>& b) const {
        vector<T, N> x;  // in pivot order
        static_for<N>([&](auto k) {
            constexpr int row = structure.order[k];
            x[k] = b[row];
        });
        for_range<0, lists.lower.size()>([&](auto q) {
            constexpr detail::sparse_lu_term t = lists.lower[q];
            x[t.to] = element::minus_product(x[t.to], factor_at(t.slot), x[t.from]);
        });
        static_for<N>([&](auto r) {
            constexpr int k = N - 1 - r;
            for_range<lists.upper_begin[k], lists.upper_begin[k + 1]>([&](auto q) {
                constexpr detail::sparse_lu_term t = lists.upper[q];
                x[k] = element::minus_product(x[k], factor_at(t.slot), x[t.from]);
            });
            constexpr int diagonal = structure.slot[k][k];
            x[k] = element::product(x[k], factor_at(diagonal));
        });
        static_for<N>([&](auto k) {
            constexpr int row = structure.order[k];
            b[row] = x[k];
        });
    }

private:
    /// Reals per element: its real and imaginary parts where it is complex.
    static constexpr int words = int(sizeof(T) / sizeof(real));
    using factors =
        cuda::std::conditional_t<FactorsInSharedMemory, thread_shared_rows<real, words, size>,
                                 vector<T, size>>;

    CUBIE_HD T factor_at(int s) const {
        if constexpr (!FactorsInSharedMemory)
            return lu_[s];
        else if constexpr (words == 1)
            return lu_[0][s];
        else
            return T(real(lu_[0][s]), real(lu_[1][s]));
    }
    CUBIE_HD void set_factor(int s, const T& value) {
        if constexpr (!FactorsInSharedMemory) {
            lu_[s] = value;
        } else if constexpr (words == 1) {
            lu_[0][s] = value;
        } else {
            lu_[0][s] = value.real();
            lu_[1][s] = value.imag();
        }
    }

    factors lu_{};  ///< L (unit diagonal implied), U, 1/u_kk: by the plan's slots
};

}  // namespace cubie
