#pragma once
// Generic explicit Runge-Kutta stepper over a Butcher tableau (see butcher_tableau.hpp).
//
// All loops over stages are unrolled at compile time and every coefficient is a constant
// of the working precision; products with zero coefficients are not emitted. Stage
// derivatives live in a fixed-size array that stays in registers on the GPU.
//
// Calling convention shared by the integration loop:
//   dydt      holds f(t, y) on entry (the first stage, never re-evaluated on rejection)
//   y_new     receives the propagated solution at t + dt
//   dydt_new  receives f(t + dt, y_new) when the tableau is FSAL (untouched otherwise)

#include <cuda/std/cmath>

#include "cubie/algorithms/butcher_tableau.hpp"
#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"
#include "cubie/systems/ode_system.hpp"

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
        if constexpr (dual_embedded_tableau<Tableau>) return Tableau::order - 1;
        else if constexpr (embedded_tableau<Tableau>)
            return Tableau::order < Tableau::embedded_order ? Tableau::order
                                                            : Tableau::embedded_order;
        else return 0;
    }();

    /// One step without error estimate (fixed-step integration).
    template <ode_system System, class T = typename System::value_type>
    CUBIE_HD static void step(const System& sys, T t, T dt, const state_t<System>& y,
                              const state_t<System>& dydt, const parameters_t<System>& p,
                              const drivers_t<System>& d, state_t<System>& y_new,
                              state_t<System>& dydt_new) {
        stage_derivatives<System> k;
        compute_stages(sys, t, dt, y, dydt, p, d, k, y_new);
        if constexpr (fsal) dydt_new = k[stages - 1];
    }

    /// One step returning the weighted RMS norm of its local error estimate.
    template <ode_system System, class T = typename System::value_type>
        requires embedded_tableau<Tableau>
    CUBIE_HD static T step_with_error(const System& sys, T t, T dt, const state_t<System>& y,
                                      const state_t<System>& dydt,
                                      const parameters_t<System>& p,
                                      const drivers_t<System>& d, state_t<System>& y_new,
                                      state_t<System>& dydt_new,
                                      const tolerances<T, System::n_states>& tol) {
        stage_derivatives<System> k;
        compute_stages(sys, t, dt, y, dydt, p, d, k, y_new);
        if constexpr (fsal) dydt_new = k[stages - 1];

        const T r = weighted_rms_norm(combine<weights::error, System>(k, dt), tol, y, y_new);
        if constexpr (dual_embedded_tableau<Tableau>) {
            // Hairer's DOP853 estimate: r5^2 / sqrt(r5^2 + 0.01 r3^2), with r5 and r3 the
            // norms of the 5th- and 3rd-order differences.
            const T r3 = weighted_rms_norm(combine<weights::error_low, System>(k, dt), tol, y, y_new);
            const T denominator = cuda::std::sqrt(r * r + T(0.01) * r3 * r3);
            return denominator > T(0) ? r * r / denominator : T(0);
        } else {
            return r;
        }
    }

private:
    template <class System>
    using stage_derivatives = vector<state_t<System>, stages>;

    enum class weights { solution, error, error_low };

    template <weights W>
    CUBIE_HD static constexpr double weight(int j) {
        if constexpr (W == weights::solution) return Tableau::b[j];
        else if constexpr (W == weights::error) return Tableau::b[j] - Tableau::b_hat[j];
        else return Tableau::b[j] - Tableau::b_hat_low[j];
    }

    /// dt * sum_j w_j k_j over the non-zero weights of kind W.
    template <weights W, class System, class T>
    CUBIE_HD static state_t<System> combine(const stage_derivatives<System>& k, T dt) {
        state_t<System> sum{};
        static_for<stages>([&](auto j) {
            constexpr double w = weight<W>(j);
            if constexpr (w != 0.0) {
CUBIE_UNROLL
                for (int i = 0; i < System::n_states; ++i) sum[i] += (T(w) * dt) * k[j][i];
            }
        });
        return sum;
    }

    template <ode_system System, class T>
    CUBIE_HD static void compute_stages(const System& sys, T t, T dt,
                                        const state_t<System>& y,
                                        const state_t<System>& dydt,
                                        const parameters_t<System>& p,
                                        const drivers_t<System>& d,
                                        stage_derivatives<System>& k,
                                        state_t<System>& y_new) {
        constexpr int n = System::n_states;
        k[0] = dydt;
        static_for<stages - 1>([&](auto stage_minus_one) {
            constexpr int s = stage_minus_one + 1;
            state_t<System> y_stage = y;
            static_for<s>([&](auto j) {
                constexpr double a = Tableau::a[s][j];
                if constexpr (a != 0.0) {
CUBIE_UNROLL
                    for (int i = 0; i < n; ++i) y_stage[i] += (T(a) * dt) * k[j][i];
                }
            });
            constexpr double c = Tableau::c[s];
            sys.rhs(t + T(c) * dt, y_stage, p, d, k[s]);
            // FSAL: the last stage point is the new solution (a[s-1] == b), bit for bit.
            if constexpr (fsal && s == stages - 1) y_new = y_stage;
        });
        if constexpr (!fsal) {
            const state_t<System> increment = combine<weights::solution, System>(k, dt);
CUBIE_UNROLL
            for (int i = 0; i < n; ++i) y_new[i] = y[i] + increment[i];
        }
    }
};

}  // namespace cubie
