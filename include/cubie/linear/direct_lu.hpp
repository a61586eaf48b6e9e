#pragma once
// The direct linear solver of simplified Newton iterations (linear/newton_linear_solver.hpp):
// J from the right-hand side (the system's own jacobian, else forward differences), M =
// I - h gamma J formed and factored once per step (by sparse_lu in the system's sparsity
// pattern where it declares one, else by dense_lu: linear/iteration_lu.hpp), one exact solve
// per Newton iteration. Up to N^2 values per thread: the choice for small systems and sparse
// ones, and the default of dirk.
// Several lanes of a trajectory (algorithms/on_lanes.hpp) share M's rows instead.

#include <cuda/std/array>

#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/linear/implicit_step_report.hpp"
#include "cubie/linear/iteration_lu.hpp"
#include "cubie/linear/krylov_outcome.hpp"
#include "cubie/linear/lane_group.hpp"
#include "cubie/linear/lane_parts.hpp"

namespace cubie {

struct direct_lu {
    static constexpr const char* name = "direct_lu";

    /// M for one step. With a Group of several lanes (linear/lane_group.hpp), given last to
    /// the constructor, each lane factors its rows of M together with the others
    /// (cooperative_lu), and each solve takes and returns the whole vector on every lane.
    template <class F, class State, lane_group Group = single_lane>
    class iteration_matrix {
        using T = typename F::value_type;
        static constexpr int n = static_cast<int>(cuda::std::tuple_size<State>::value);
        using lu_type = iteration_lu<T, n, F, Group>;

    public:
        CUBIE_HD iteration_matrix(const F& f, T t, const State& y, const State& dydt, T h_gamma,
                                  const tolerances<T, n>& /*tol*/, const Group& g = {})
            : g_(g) {
            typename lu_type::rows_type M;
            {
                typename dense_lu<T, n>::matrix J;
                f.jacobian(t, y, dydt, J);
                M = own_part(g, J);
            }
            constexpr int G = Group::size;
            const int lane = g.lane();
            CUBIE_UNROLL
            for (int m = 0; m < static_cast<int>(size_of<typename lu_type::rows_type>); ++m) {
                CUBIE_UNROLL
                for (int j = 0; j < n; ++j) {
                    // A select, not a conditional store (see rosenbrock.hpp).
                    const T scaled = M[m][j] * -h_gamma;
                    M[m][j] = j == lane + m * G ? scaled + T(1) : scaled;
                }
            }
            regular_ = lu_.factor(g, M);
        }

        /// False when M is singular to working precision (dense_lu's rule), or sparse_lu
        /// refuses its pivot order.
        CUBIE_HD bool valid() const { return regular_; }

        /// b becomes M^-1 b: one LU solve, one linear iteration.
        CUBIE_HD krylov_outcome solve(State& b, T /*tolerance*/,
                                      implicit_step_report& report) const {
            auto part = own_part(g_, b);
            b = lu_.solve_whole(g_, part);
            ++report.linear_iterations;
            return krylov_outcome::converged;
        }

    private:
        lu_type lu_;
        Group g_;
        bool regular_;
    };
};

}  // namespace cubie
