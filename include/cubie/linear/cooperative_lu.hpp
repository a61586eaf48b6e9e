#pragma once
// LU factorisation with partial pivoting of one N x N matrix by the lanes of a lane_group
// (lane_group.hpp) together: the linear solver of a trajectory integrated by several lanes.
// Lane l holds rows l, l + G, l + 2G, ... (G = Group::size), R = ceil(N / G) of them, and
// the same elements of every vector it solves for; no lane holds the whole matrix.
//
// The arithmetic is dense_lu's (dense_lu.hpp), operation for operation, so that the factors
// and solutions are the same bits: the same pivot (the largest magnitude of column k among
// the rows not yet pivoted, the first in dense_lu's row order on a tie, a NaN at the
// diagonal kept), the same singularity rule, each element updated by the same products in
// the same order, the back substitution's sums in the same order. Only where the rows are
// differs: dense_lu exchanges rows (LINPACK's way), here they stay with their lanes and
// each keeps the position dense_lu would have given it; a pivoted row's position is the
// step that chose it.
//
// Per step k: the pivot by a butterfly reduction (log2 G exchanges), the pivot row's
// entries right of k broadcast one by one (N - k - 1), and every lane eliminating column k
// from its own rows. solve(): one broadcast per step forward, and backward one per
// unknown, which every lane keeps (the sums run over all later unknowns).

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/linear/lane_group.hpp"
#include "cubie/linear/lane_parts.hpp"

namespace cubie {

template <class T, int N, lane_group Group>
class cooperative_lu {
    using element = lu_element<T>;
    using real = typename element::real;
    static constexpr int G = Group::size;
    static_assert(N >= 1, "cooperative_lu needs at least one row");

public:
    static constexpr int rows_per_lane = (N + G - 1) / G;
    static constexpr int R = rows_per_lane;
    using rows_type = vector<vector<T, N>, R>;  ///< a lane's rows: [m] is row lane() + m G
    using part = vector<T, R>;  ///< a lane's part of a vector: [m] is element lane() + m G

    /// Factors the matrix whose rows the lanes hold (each its own, `rows`). False, on every
    /// lane, when it is singular to working precision (dense_lu's rule); solve() must then
    /// not be called until a factorisation succeeds.
    CUBIE_HD bool factor(const Group& g, const rows_type& rows) {
        using limits = cuda::std::numeric_limits<real>;
        const int lane = g.lane();
        lu_ = rows;
        vector<real, R> multipliers{};  // per row: sum of |l| taken so far
        CUBIE_UNROLL
        for (int m = 0; m < R; ++m) position_[m] = row_of(lane, m);

        bool regular = true;
        for_each_step([&](int k) {
            if (!regular) return;
            const candidate pivot = pivot_of(g, k);
            // The pivot row takes position k, the row there the pivot's former one.
            CUBIE_UNROLL
            for (int m = 0; m < R; ++m) {
                if (row_of(lane, m) == pivot.row)
                    position_[m] = k;
                else if (position_[m] == k)
                    position_[m] = pivot.position;
            }
            const int owner = pivot.row % G, mine = pivot.row / G;
            real above = 0;  // max over earlier pivot rows of |u_mk|
            CUBIE_UNROLL
            for (int m = 0; m < R; ++m)
                if (held(lane, m) && position_[m] < k)
                    above = cuda::std::fmax(above, element::magnitude(lu_[m][k]));
            for (int mask = G / 2; mask >= 1; mask /= 2)
                above = cuda::std::fmax(above, g.exchange(above, mask));
            const real pivot_multipliers = g.broadcast(pick(multipliers, mine), owner);
            const real negligible = real(N) * limits::epsilon() * pivot_multipliers * above;
            regular = pivot.magnitude > negligible && pivot.magnitude >= limits::min() &&
                      pivot.magnitude <= limits::max();
            if (!regular) return;
            pivot_row_[k] = pivot.row;

            const T inverse = element::reciprocal(g.broadcast(pick_column(mine, k), owner));
            vector<T, R> l{};
            CUBIE_UNROLL
            for (int m = 0; m < R; ++m) {
                if (lane == owner && m == mine) lu_[m][k] = inverse;
                if (eliminated(lane, m, k)) {
                    l[m] = element::product(lu_[m][k], inverse);
                    lu_[m][k] = l[m];
                    multipliers[m] += element::magnitude(l[m]);
                }
            }
            for_each_column_after(k, [&](int j) {
                const T u = g.broadcast(pick_column(mine, j), owner);
                CUBIE_UNROLL
                for (int m = 0; m < R; ++m)
                    if (eliminated(lane, m, k))
                        lu_[m][j] = element::minus_product(lu_[m][j], l[m], u);
            });
        });
        return regular;
    }

    /// Solves A x = b with the last successful factorisation: b holds the lane's elements of
    /// the right-hand side (equations lane() + m G) and becomes its elements of x (unknowns
    /// lane() + m G).
    CUBIE_HD void solve(const Group& g, part& b) const { b = own_part(g, solve_whole(g, b)); }

    /// The same, returning the whole of x on every lane (the back substitution gives every
    /// lane every unknown); b is left in an unspecified state.
    CUBIE_HD vector<T, N> solve_whole(const Group& g, part& b) const {
        const int lane = g.lane();
        // Forward: equation by equation in pivot order, L's column k from the later ones.
        for_each_step([&](int k) {
            const int owner = pivot_row_[k] % G, mine = pivot_row_[k] / G;
            const T bk = g.broadcast(pick(b, mine), owner);
            CUBIE_UNROLL
            for (int m = 0; m < R; ++m)
                if (held(lane, m) && position_[m] > k)
                    b[m] = element::minus_product(b[m], lu_[m][k], bk);
        });
        // Backward: unknown k from the pivot row of step k, the later unknowns in ascending
        // order as dense_lu sums them; every lane keeps every unknown.
        vector<T, N> x{};
        for_each_step([&](int r) {
            const int k = N - 1 - r;
            const int owner = pivot_row_[k] % G, mine = pivot_row_[k] / G;
            T xk{};
            if (lane == owner) {
                CUBIE_UNROLL
                for (int m = 0; m < R; ++m) {
                    if (m != mine) continue;
                    T sum = b[m];
                    for_each_column_after(
                        k, [&](int j) { sum = element::minus_product(sum, lu_[m][j], x[j]); });
                    xk = element::product(sum, lu_[m][k]);
                }
            }
            x[k] = g.broadcast(xk, owner);
        });
        return x;
    }

private:
    /// A row competing to be step k's pivot: the largest magnitude wins, the first in
    /// dense_lu's order on a tie; a NaN at position k wins (dense_lu's scan starts there and
    /// no comparison with NaN replaces it), elsewhere it loses (it never replaces).
    struct candidate {
        real magnitude;
        int position;
        int row;
        int forced;  ///< a NaN at position k
    };

    CUBIE_HD static candidate better(const candidate& a, const candidate& b) {
        if (a.forced != b.forced) return a.forced > b.forced ? a : b;
        if (a.magnitude != b.magnitude) return a.magnitude > b.magnitude ? a : b;
        return a.position <= b.position ? a : b;
    }

    /// Step k's pivot, the same on every lane.
    CUBIE_HD candidate pivot_of(const Group& g, int k) const {
        const int lane = g.lane();
        candidate best{real(-1), N, -1, 0};
        CUBIE_UNROLL
        for (int m = 0; m < R; ++m) {
            if (!held(lane, m) || position_[m] < k) continue;
            const real a = element::magnitude(lu_[m][k]);
            candidate c{a, position_[m], row_of(lane, m), 0};
            if (cuda::std::isnan(a)) {
                c.forced = position_[m] == k ? 1 : 0;
                if (!c.forced) c.magnitude = real(-1);
            }
            best = better(best, c);
        }
        for (int mask = G / 2; mask >= 1; mask /= 2) {
            const candidate other{g.exchange(best.magnitude, mask), g.exchange(best.position, mask),
                                  g.exchange(best.row, mask), g.exchange(best.forced, mask)};
            best = better(best, other);
        }
        return best;
    }

    CUBIE_HD static constexpr int row_of(int lane, int m) { return lane + m * G; }
    CUBIE_HD static constexpr bool held(int lane, int m) { return row_of(lane, m) < N; }
    /// Row m of the lane is eliminated at step k: held and not pivoted yet.
    CUBIE_HD bool eliminated(int lane, int m, int k) const {
        return held(lane, m) && position_[m] > k;
    }

    /// v[mine] where mine is known only at run time, without indexing by it (which would
    /// put v in local memory).
    template <class V>
    CUBIE_HD static auto pick(const V& v, int mine) {
        auto value = v[0];
        CUBIE_UNROLL
        for (int m = 1; m < R; ++m)
            if (m == mine) value = v[m];
        return value;
    }
    CUBIE_HD T pick_column(int mine, int j) const {
        T value = lu_[0][j];
        CUBIE_UNROLL
        for (int m = 1; m < R; ++m)
            if (m == mine) value = lu_[m][j];
        return value;
    }

    /// body(k) for k = 0 .. N - 1, and body(j) for j = k + 1 .. N - 1: unrolled while a
    /// lane's share of the factorisation, R N^2 multiply-adds, stays within dense_lu's
    /// budget, so that the rows' indices are constants and they stay in registers.
    static constexpr bool unrolled = element::cost * R * N * N <= 20 * 20 * 20;
    template <class Body>
    CUBIE_HD static void for_each_step(Body&& body) {
        if constexpr (unrolled) {
            CUBIE_UNROLL
            for (int k = 0; k < N; ++k) body(k);
        } else {
            for (int k = 0; k < N; ++k) body(k);
        }
    }
    template <class Body>
    CUBIE_HD static void for_each_column_after(int k, Body&& body) {
        if constexpr (unrolled) {
            CUBIE_UNROLL
            for (int j = k + 1; j < N; ++j) body(j);
        } else {
            for (int j = k + 1; j < N; ++j) body(j);
        }
    }

    rows_type lu_{};              ///< L left of the diagonal, U right of it, 1/u_kk on it
    vector<int, R> position_{};   ///< dense_lu's row position of each row: a pivot's, its step
    vector<int, N> pivot_row_{};  ///< the row chosen at step k
};

}  // namespace cubie
