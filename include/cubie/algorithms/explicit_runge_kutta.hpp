#pragma once
// Generic explicit Runge-Kutta stepper over a Butcher tableau (see butcher_tableau.hpp).
//
// All loops over stages are unrolled at compile time and every coefficient is a constant
// of the working precision; products with zero coefficients are not emitted. Stage
// derivatives live in a fixed-size array that stays in registers on the GPU.
//
// Calling convention shared by the integration loop:
//   f         f(t, y, dydt): the trajectory's right-hand side (loop/right_hand_side.hpp)
//   dydt      holds f(t, y) on entry (the first stage, never re-evaluated on rejection)
//   y_new     receives the propagated solution at t + dt
//   dydt_new  receives f(t + dt, y_new) when the tableau is FSAL (untouched otherwise)

#include <cuda/std/array>
#include <cuda/std/cmath>

#include "cubie/algorithms/butcher_tableau.hpp"
#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"

namespace cubie {

template <explicit_tableau Tableau>
struct explicit_runge_kutta {
    static_assert(check_tableau<Tableau>(),
                  "inconsistent Butcher tableau: rows, weights or order conditions fail");

    using tableau = Tableau;
    static constexpr const char* name = Tableau::name;
    static constexpr int stages = Tableau::stages;
    static constexpr int order = Tableau::order;
    static constexpr bool fsal = is_fsal<Tableau>();
    static constexpr bool has_error_estimate = embedded_tableau<Tableau>;

    /// Order q of the local error estimate's leading term h^(q+1), for controller
    /// exponents 1/(q+1). Hairer's combined 5th/3rd-order estimate of DOP853 behaves
    /// like h^8.
    static constexpr int error_estimate_order = [] {
        if constexpr (dual_embedded_tableau<Tableau>)
            return Tableau::order - 1;
        else if constexpr (embedded_tableau<Tableau>)
            return Tableau::order < Tableau::embedded_order ? Tableau::order
                                                            : Tableau::embedded_order;
        else
            return 0;
    }();

    /// One step without error estimate (fixed-step integration). F is f(t, y, dydt), a
    /// right_hand_side (cubie/loop/right_hand_side.hpp).
    template <class F, class State, class T = typename F::value_type>
    CUBIE_HD static void step(const F& f, T t, T dt, const State& y, const State& dydt,
                              State& y_new, State& dydt_new) {
        stage_derivatives<State> k;
        compute_stages(f, t, dt, y, dydt, k, y_new);
        if constexpr (fsal) dydt_new = k[stages - 1];
    }

    /// One step returning the weighted RMS norm of its local error estimate.
    template <class F, class State, int N, class T = typename F::value_type>
    requires embedded_tableau<Tableau> CUBIE_HD static T step_with_error(
        const F& f, T t, T dt, const State& y, const State& dydt, State& y_new, State& dydt_new,
        const tolerances<T, N>& tol) {
        stage_derivatives<State> k;
        compute_stages(f, t, dt, y, dydt, k, y_new);
        if constexpr (fsal) dydt_new = k[stages - 1];

        const T r = weighted_rms_norm(combine<weights::error>(k, dt), tol, y, y_new);
        if constexpr (dual_embedded_tableau<Tableau>) {
            // Hairer's DOP853 estimate: r5^2 / sqrt(r5^2 + 0.01 r3^2), with r5 and r3 the
            // norms of the 5th- and 3rd-order differences.
            const T r3 = weighted_rms_norm(combine<weights::error_low>(k, dt), tol, y, y_new);
            const T denominator = cuda::std::sqrt(r * r + T(0.01) * r3 * r3);
            return denominator > T(0) ? r * r / denominator : T(0);
        } else {
            return r;
        }
    }

private:
    template <class State>
    using stage_derivatives = vector<State, stages>;

    template <class State>
    static constexpr cuda::std::size_t size_of = cuda::std::tuple_size<State>::value;

    enum class weights { solution, error, error_low };

    template <weights W>
    CUBIE_HD static constexpr double weight(int j) {
        if constexpr (W == weights::solution)
            return Tableau::b[j];
        else if constexpr (W == weights::error)
            return Tableau::b[j] - Tableau::b_hat[j];
        else
            return Tableau::b[j] - Tableau::b_hat_low[j];
    }

    /// dt * sum_j w_j k_j over the non-zero weights of kind W.
    template <weights W, class State, class T>
    CUBIE_HD static State combine(const stage_derivatives<State>& k, T dt) {
        State sum{};
        static_for<stages>([&](auto j) {
            constexpr double w = weight<W>(j);
            if constexpr (w != 0.0) {
                CUBIE_UNROLL
                for (cuda::std::size_t i = 0; i < size_of<State>; ++i)
                    sum[i] += (T(w) * dt) * k[j][i];
            }
        });
        return sum;
    }

    template <class F, class State, class T>
    CUBIE_HD static void compute_stages(const F& f, T t, T dt, const State& y, const State& dydt,
                                        stage_derivatives<State>& k, State& y_new) {
        k[0] = dydt;
        static_for<stages - 1>([&](auto stage_minus_one) {
            constexpr int s = stage_minus_one + 1;
            State y_stage = y;
            static_for<s>([&](auto j) {
                constexpr double a = Tableau::a[s][j];
                if constexpr (a != 0.0) {
                    CUBIE_UNROLL
                    for (cuda::std::size_t i = 0; i < size_of<State>; ++i)
                        y_stage[i] += (T(a) * dt) * k[j][i];
                }
            });
            constexpr double c = Tableau::c[s];
            f(t + T(c) * dt, y_stage, k[s]);
            // FSAL: the last stage point is the new solution (a[s-1] == b), bit for bit.
            if constexpr (fsal && s == stages - 1) y_new = y_stage;
        });
        if constexpr (!fsal) {
            const State increment = combine<weights::solution>(k, dt);
            CUBIE_UNROLL
            for (cuda::std::size_t i = 0; i < size_of<State>; ++i) y_new[i] = y[i] + increment[i];
        }
    }
};

}  // namespace cubie
