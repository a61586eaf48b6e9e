#pragma once
// Generic Rosenbrock (linearly implicit Runge-Kutta) stepper over a tableau in Hairer and
// Wanner's transformed form (see rosenbrock_tableau.hpp): per step, one Jacobian J and one
// df/dt from the right-hand side, one LU factorisation of W = I / (h gamma) - J, and one
// solve with it per stage,
//
//   W U_i = f(t + alpha_i h, y + sum_{j<i} a_ij U_j) + sum_{j<i} (c_ij / h) U_j + gamma_i h f_t,
//   y_new = y + sum_i m_i U_i,   error = sum_i (m_i - m_hat_i) U_i.
//
// A stage whose point (alpha_i and row a_i) is the first stage's, or the previous stage's,
// takes that stage's f instead of evaluating it again (ROS3P, Rodas3P).
//
// The calling convention is explicit_runge_kutta's, so integrate() and the solver take a
// Rosenbrock method unchanged: f is a right_hand_side (systems/right_hand_side.hpp), which also
// gives J (analytic or by differences) and df/dt; dydt holds f(t, y) on entry; dydt_new is
// untouched (no FSAL).
//
// The method is implicit (linear/implicit_step_report.hpp): its report counts one linear
// iteration per stage (one LU solve each) and no Newton iterations. A singular W
// (dense_lu::factor fails: W is singular to working precision, or J holds a NaN or Inf)
// fails the step with step_failure::singular_matrix: step_with_error returns an infinite
// error norm, so the trajectory retries with a smaller step (W tends to I / (h gamma)) and
// ends with status::singular_matrix if the step underflows first; the fixed-step `step`
// writes NaN into y_new and ends the trajectory with that status. Either way only that
// trajectory is affected.

#include <cuda/std/array>
#include <cuda/std/limits>

#include "cubie/algorithms/failed_step.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"
#include "cubie/algorithms/weighted_stages.hpp"
#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/linear/implicit_step_report.hpp"

namespace cubie {

template <rosenbrock_tableau Tableau>
struct rosenbrock {
    static_assert(check_rosenbrock_tableau<Tableau>(),
                  "inconsistent Rosenbrock tableau: structure, row sums or order conditions fail");

    using tableau = Tableau;
    static constexpr const char* name = Tableau::name;
    static constexpr int stages = Tableau::stages;
    static constexpr int order = Tableau::order;
    /// Order kept when the system's jacobian is only approximate (rosenbrock_tableau.hpp).
    static constexpr int w_order = rosenbrock_w_order<Tableau>();
    static constexpr bool fsal = false;
    static constexpr bool implicit = true;
    static constexpr bool has_error_estimate = true;
    static constexpr bool has_dense_output = false;

    /// Order q of the local error estimate's leading term h^(q+1).
    static constexpr int error_estimate_order =
        Tableau::order < Tableau::embedded_order ? Tableau::order : Tableau::embedded_order;

    /// One step without error estimate (fixed-step integration); NaN in y_new when W is
    /// singular.
    template <class F, class State, class T = typename F::value_type>
    CUBIE_HD static void step(const F& f, T t, T dt, const State& y, const State& dydt,
                              State& y_new, State& /*dydt_new*/, implicit_step_report& report) {
        stage_increments<State> U;
        if (compute_stages(f, t, dt, y, dydt, U, report))
            y_new = advance(y, U);
        else
            fail_fixed_step(y_new);
    }

    /// One step returning the weighted RMS norm of its local error estimate; infinite (and
    /// y_new = y) when W is singular.
    template <class F, class State, int N, class T = typename F::value_type>
    CUBIE_HD static T step_with_error(const F& f, T t, T dt, const State& y, const State& dydt,
                                      State& y_new, State& /*dydt_new*/,
                                      const tolerances<T, N>& tol, implicit_step_report& report) {
        stage_increments<State> U;
        if (!compute_stages(f, t, dt, y, dydt, U, report)) return fail_adaptive_step(y, y_new);
        y_new = advance(y, U);
        State error{};
        add_weighted_stages<stages>(error, U, T(1),
                                    [](int j) { return Tableau::m[j] - Tableau::m_hat[j]; });
        return weighted_rms_norm(error, tol, y, y_new);
    }

private:
    template <class State>
    using stage_increments = vector<State, stages>;

    /// Stages I and J evaluate f at the same point: same time, same combination of the U_j.
    CUBIE_HD static constexpr bool same_point(int i, int j) {
        if (Tableau::alpha[i] != Tableau::alpha[j]) return false;
        for (int k = 0; k < stages; ++k)
            if (Tableau::a[i][k] != Tableau::a[j][k]) return false;
        return true;
    }

    /// y + sum_j m_j U_j.
    template <class State>
    CUBIE_HD static State advance(const State& y, const stage_increments<State>& U) {
        return with_weighted_stages<stages>(y, U, typename State::value_type(1),
                                            [](int j) { return Tableau::m[j]; });
    }

    /// The stage increments U of a step from (t, y); false when W is singular.
    template <class F, class State, class T>
    CUBIE_HD static bool compute_stages(const F& f, T t, T dt, const State& y, const State& dydt,
                                        stage_increments<State>& U, implicit_step_report& report) {
        constexpr int n = static_cast<int>(size_of<State>);
        using lu_type = dense_lu<T, n>;
        typename lu_type::matrix W;
        f.jacobian(t, y, dydt, W);
        const T diagonal = T(1) / (dt * T(Tableau::gamma));
        CUBIE_UNROLL
        for (int i = 0; i < n; ++i) {
            CUBIE_UNROLL
            for (int j = 0; j < n; ++j) W[i][j] = -W[i][j];
            W[i][i] += diagonal;
        }
        lu_type lu;
        if (!lu.factor(W)) {
            report.failure = step_failure::singular_matrix;
            return false;
        }
        report.linear_iterations += stages;

        State dfdt;
        f.time_derivative(t, y, dydt, dfdt);
        const T inverse_dt = T(1) / dt;
        State f_stage = dydt;  // f at the current stage's point
        static_for<stages>([&](auto s) {
            if constexpr (s > 0 && !same_point(s, s - 1)) {
                if constexpr (same_point(s, 0)) {
                    f_stage = dydt;
                } else {
                    State point = y;
                    static_for<s>([&](auto j) {
                        constexpr double a = Tableau::a[s][j];
                        if constexpr (a != 0.0) {
                            CUBIE_UNROLL
                            for (int i = 0; i < n; ++i) point[i] += T(a) * U[j][i];
                        }
                    });
                    f(t + T(Tableau::alpha[s]) * dt, point, f_stage);
                }
            }
            State& rhs = U[s];
            rhs = f_stage;
            constexpr double g = Tableau::gamma_sum[s];
            if constexpr (g != 0.0) {
                const T scale = T(g) * dt;
                CUBIE_UNROLL
                for (int i = 0; i < n; ++i) rhs[i] += scale * dfdt[i];
            }
            static_for<s>([&](auto j) {
                constexpr double c = Tableau::c[s][j];
                if constexpr (c != 0.0) {
                    const T scale = T(c) * inverse_dt;
                    CUBIE_UNROLL
                    for (int i = 0; i < n; ++i) rhs[i] += scale * U[j][i];
                }
            });
            lu.solve(rhs);
        });
        return true;
    }
};

}  // namespace cubie
