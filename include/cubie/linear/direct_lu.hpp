#pragma once
// The direct linear solver of simplified Newton iterations (linear/newton_linear_solver.hpp):
// J from the right-hand side (the system's own jacobian, else forward differences), M =
// I - h gamma J formed and factored by dense_lu once per step, one exact solve per Newton
// iteration. N^2 values per thread: the choice for small systems, and the default of dirk.

#include <cuda/std/array>

#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/linear/implicit_step_report.hpp"
#include "cubie/linear/krylov_outcome.hpp"

namespace cubie {

struct direct_lu {
    static constexpr const char* name = "direct_lu";

    template <class F, class State>
    class iteration_matrix {
        using T = typename F::value_type;
        static constexpr int n = static_cast<int>(cuda::std::tuple_size<State>::value);
        using lu_type = dense_lu<T, n>;

    public:
        CUBIE_HD iteration_matrix(const F& f, T t, const State& y, const State& dydt, T h_gamma,
                                  const tolerances<T, n>& /*tol*/) {
            typename lu_type::matrix M;
            f.jacobian(t, y, dydt, M);
            CUBIE_UNROLL
            for (int i = 0; i < n; ++i) {
                CUBIE_UNROLL
                for (int j = 0; j < n; ++j) M[i][j] *= -h_gamma;
                M[i][i] += T(1);
            }
            regular_ = lu_.factor(M);
        }

        /// False when M is singular to working precision (dense_lu's rule).
        CUBIE_HD bool valid() const { return regular_; }

        /// b becomes M^-1 b: one LU solve, one linear iteration.
        CUBIE_HD krylov_outcome solve(State& b, T /*tolerance*/,
                                      implicit_step_report& report) const {
            lu_.solve(b);
            ++report.linear_iterations;
            return krylov_outcome::converged;
        }

    private:
        lu_type lu_;
        bool regular_;
    };
};

}  // namespace cubie
