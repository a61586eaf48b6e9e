#pragma once
// Generic explicit Runge-Kutta stepper over a Butcher tableau (see butcher_tableau.hpp).
//
// All loops over stages are unrolled at compile time and every coefficient is a constant
// of the working precision; products with zero coefficients are not emitted. Stage
// derivatives live in a fixed-size array that stays in registers on the GPU.
//
// Calling convention shared by the integration loop:
//   f         f(t, y, dydt): the trajectory's right-hand side (systems/right_hand_side.hpp)
//   dydt      holds f(t, y) on entry (the first stage, never re-evaluated on rejection)
//   y_new     receives the propagated solution at t + dt
//   dydt_new  receives f(t + dt, y_new) when the tableau is FSAL (untouched otherwise)
//
// Dense output, for tableaus that have it (dense_output_tableau): step_with_error can hand
// back its stage derivatives; after an accepted step, prepare_dense_output evaluates the
// interpolant's extra stages once, and interpolate gives y(t + theta dt) for any theta in
// [0, 1] from them, as often as needed.

#include <cuda/std/array>
#include <cuda/std/cmath>
#include <cuda/std/type_traits>

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"
#include "cubie/core/step_size_math.hpp"
#include "cubie/core/vector.hpp"

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
    static constexpr bool has_dense_output = dense_output_tableau<Tableau>;

    /// Order q of the interpolant (local error h^(q+1) at every theta); 0 without one.
    static constexpr int dense_order = [] {
        if constexpr (dense_output_tableau<Tableau>)
            return Tableau::dense_order;
        else
            return 0;
    }();

    /// Stage derivatives of a step followed by the interpolant's extra stages (the step's
    /// stages alone for a method without dense output).
    template <class State>
    using dense_stages_t = vector<State, stages + detail::extra_dense_stages<Tableau>()>;

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

    /// The weights of stage S's point (row S of a; S == stages: the new solution's, b)
    /// summed as a step applies them in T: T(w_l) (1 + sum_j T(w_j / w_l)), in exact
    /// arithmetic. It is the row's sum (c_S; 1 for b) to within T's rounding of one weight
    /// (stage_ratios' absorber), or of the sum itself where every factor is exact in T.
    template <int S, class T>
    static constexpr double applied_weight_sum() {
        using weights = cuda::std::conditional_t<S == stages, solution_weights, stage_weights<S>>;
        using ratios = stage_ratios<weights, T>;
        double sum = 1;
        for (int j = ratios::lead + 1; j < weights::count; ++j)
            if (weights::at(j) != 0.0) sum += static_cast<double>(static_cast<T>(ratios::at(j)));
        return static_cast<double>(static_cast<T>(weights::at(ratios::lead))) * sum;
    }

    /// One step without error estimate (fixed-step integration). F is f(t, y, dydt), a
    /// right_hand_side (cubie/systems/right_hand_side.hpp).
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
        return step_and_error_norm(f, t, dt, y, dydt, y_new, dydt_new, tol, k);
    }

    /// As above, and hands back the stage derivatives k[0..stages-1] for dense output.
    template <class F, class State, int N, class T = typename F::value_type>
    requires embedded_tableau<Tableau> CUBIE_HD static T step_with_error(
        const F& f, T t, T dt, const State& y, const State& dydt, State& y_new, State& dydt_new,
        const tolerances<T, N>& tol, dense_stages_t<State>& k) {
        return step_and_error_norm(f, t, dt, y, dydt, y_new, dydt_new, tol, k);
    }

    /// After an accepted step from (t, y) of size dt whose stage derivatives are in k:
    /// evaluates the interpolant's extra stages into k (nothing for methods without any).
    template <class F, class State, class T = typename F::value_type>
    requires dense_output_tableau<Tableau> CUBIE_HD static void prepare_dense_output(
        const F& f, T t, T dt, const State& y, dense_stages_t<State>& k) {
        static_for<detail::extra_dense_stages<Tableau>()>(
            [&](auto extra) { evaluate_stage<stages + extra>(f, t, dt, y, k); });
    }

    /// y(t + theta dt), 0 <= theta <= 1, from the step's start y and the prepared stages k.
    template <class State, class T>
    requires dense_output_tableau<Tableau> CUBIE_HD static void interpolate(
        T dt, const State& y, const dense_stages_t<State>& k, T theta, State& out) {
        State increment{};
        static_for<Tableau::dense_stages>([&](auto j) {
            if constexpr (highest_power(j) >= 0) {
                const T w = dense_weight<j>(theta) * dt;
                CUBIE_UNROLL
                for (cuda::std::size_t i = 0; i < size_of<State>; ++i) increment[i] += w * k[j][i];
            }
        });
        CUBIE_UNROLL
        for (cuda::std::size_t i = 0; i < size_of<State>; ++i) out[i] = y[i] + increment[i];
    }

    /// The same y(t + theta dt), each component summed power by power of theta - 1/2 by
    /// Horner's rule (sum over n of u^n sum_j c_jn k_j): a few values live at a time rather
    /// than every stage's weight. The events' root search takes it (loop/step_interpolant.hpp):
    /// inlined into the integration loop, the weights' registers were held through the loop.
    /// It rounds differently from interpolate.
    template <class State, class T>
    requires dense_output_tableau<Tableau> CUBIE_HD static void interpolate_by_powers(
        T dt, const State& y, const dense_stages_t<State>& k, T theta, State& out) {
        constexpr int top = [] {
            int highest = 0;
            for (int j = 0; j < Tableau::dense_stages; ++j)
                highest = highest_power(j) > highest ? highest_power(j) : highest;
            return highest;
        }();
        const T u = theta - T(0.5);
        CUBIE_UNROLL
        for (cuda::std::size_t i = 0; i < size_of<State>; ++i) {
            T sum = 0;
            static_for<top + 1>([&](auto below_top) {
                T power{};  // sum_j c_jn k_j, n = top - below_top
                static_for<Tableau::dense_stages>([&](auto j) {
                    constexpr double c = centred_coefficient(j, top - below_top);
                    if constexpr (c != 0.0) power += T(c) * k[j][i];
                });
                sum = sum * u + power;
            });
            out[i] = y[i] + dt * theta * sum;
        }
    }

private:
    template <class State>
    using stage_derivatives = vector<State, stages>;

    /// Weights over the stages, each a count and at(j): of the new solution (b), of stage S's
    /// point (row S of a; rows past the last stage: the interpolant's extra stages), and of
    /// the error estimates (b - b_hat, and DOP853's b - b_hat_low).
    struct solution_weights {
        static constexpr int count = stages;
        CUBIE_HD static constexpr double at(int j) { return Tableau::b[j]; }
    };
    template <int S>
    struct stage_weights {
        static constexpr int count = S;
        CUBIE_HD static constexpr double at(int j) { return detail::extended_a<Tableau>(S, j); }
    };
    struct error_weights {
        static constexpr int count = stages;
        CUBIE_HD static constexpr double at(int j) { return Tableau::b[j] - Tableau::b_hat[j]; }
    };
    struct error_low_weights {
        static constexpr int count = stages;
        CUBIE_HD static constexpr double at(int j) { return Tableau::b[j] - Tableau::b_hat_low[j]; }
    };

    /// dt * sum_j w_j k_j over the non-zero weights.
    template <class Weights, class Stages, class T>
    CUBIE_HD static auto combine(const Stages& k, T dt) {
        using State = cuda::std::remove_cvref_t<decltype(k[0])>;
        State sum{};
        static_for<Weights::count>([&](auto j) {
            constexpr double w = Weights::at(j);
            if constexpr (w != 0.0) {
                CUBIE_UNROLL
                for (cuda::std::size_t i = 0; i < size_of<State>; ++i)
                    sum[i] += (T(w) * dt) * k[j][i];
            }
        });
        return sum;
    }

    /// y + dt sum_j w_j k_j, computed as y + (w_l dt) (k_l + sum_{j > l} r_j k_j) with w_l
    /// the first non-zero weight and r_j = w_j / w_l (stage_ratios), so that y is rounded once:
    /// - Adding the terms to y one at a time rounds y once per term: each stage point then
    ///   carries a few ulps of y of noise, which every stage derivative and the error
    ///   estimate inherit. Where steps are small that noise rivals dt k itself: in float,
    ///   Tsit5 on Pleiades ended 47% more trajectories with a step-size underflow than the
    ///   hand-written kernel, which rounds y once (bench/RESULTS.md).
    /// - y + (dt sum_j w_j k_j) would take one more instruction per component (the sum
    ///   starts from a product); this takes one multiply-add per stage and component, as the
    ///   term-by-term sum does.
    template <class Weights, class State, class Stages, class T>
    CUBIE_HD static State plus_weighted_stages(const State& y, const Stages& k, T dt) {
        using ratios = stage_ratios<Weights, T>;
        if constexpr (ratios::lead == Weights::count) {
            return y;
        } else {
            State sum = k[ratios::lead];
            static_for<Weights::count>([&](auto j) {
                if constexpr (j > ratios::lead && Weights::at(j) != 0.0) {
                    constexpr T ratio = T(ratios::at(j));
                    CUBIE_UNROLL
                    for (cuda::std::size_t i = 0; i < size_of<State>; ++i)
                        sum[i] += ratio * k[j][i];
                }
            });
            const T scale = T(Weights::at(ratios::lead)) * dt;
            State out = y;
            CUBIE_UNROLL
            for (cuda::std::size_t i = 0; i < size_of<State>; ++i) out[i] += scale * sum[i];
            return out;
        }
    }

    /// The factors r_j = w_j / w_l of plus_weighted_stages, as they are rounded to T, but
    /// for the absorber, the smallest whose ratio T cannot hold exactly, which takes up what
    /// the rounding of the others and of w_l lost: T(w_l) (1 + sum_j T(r_j)) then equals
    /// the weights' sum (the stage's c, 1 for the solution) but for the rounding of that
    /// one factor. Exact factors stay exact (RK4's 2, 2 and 1: a factor of 1 - 2^-24
    /// instead of 1 cost its kernel 11%). Each factor rounded on its own
    /// leaves an error in that sum of up to |w| 2^-24 in float, the same in every step:
    /// the method then drifts at that rate along the solution, which the dynamics of a
    /// problem can amplify (float Tsit5 on Lorenz at 1e-6: 3 times the mean error of
    /// adding terms to y one at a time, whose constant weights happened to sum closer).
    template <class Weights, class T>
    struct stage_ratios {
        static constexpr int lead = [] {
            for (int j = 0; j < Weights::count; ++j)
                if (Weights::at(j) != 0.0) return j;
            return Weights::count;
        }();
        static constexpr double rounded(int j) {
            return static_cast<double>(static_cast<T>(Weights::at(j) / Weights::at(lead)));
        }
        static constexpr int absorber = [] {
            const auto magnitude = [](int j) {
                return Weights::at(j) < 0 ? -Weights::at(j) : Weights::at(j);
            };
            int smallest = Weights::count;
            for (int j = lead + 1; j < Weights::count; ++j)
                if (Weights::at(j) != 0.0 && rounded(j) != Weights::at(j) / Weights::at(lead) &&
                    (smallest == Weights::count || magnitude(j) < magnitude(smallest)))
                    smallest = j;
            return smallest;
        }();
        static constexpr double at(int j) {
            if (j != absorber) return rounded(j);
            double total = 0, others = 1;  // the weights' sum; k_l's factor, exactly 1
            for (int m = 0; m < Weights::count; ++m) {
                total += Weights::at(m);
                if (m > lead && m != absorber && Weights::at(m) != 0.0) others += rounded(m);
            }
            return total / static_cast<double>(static_cast<T>(Weights::at(lead))) - others;
        }
    };

    /// Stage S of the step, or of the interpolant's extension when S >= stages: returns its
    /// point y + dt sum_j a_Sj k_j after storing f(t + c_S dt, point) in k[S].
    template <int S, class F, class State, class Stages, class T>
    CUBIE_HD static State evaluate_stage(const F& f, T t, T dt, const State& y, Stages& k) {
        const State y_stage = plus_weighted_stages<stage_weights<S>>(y, k, dt);
        constexpr double c = detail::extended_c<Tableau>(S);
        f(t + T(c) * dt, y_stage, k[S]);
        return y_stage;
    }

    template <class F, class State, class Stages, class T>
    CUBIE_HD static void compute_stages(const F& f, T t, T dt, const State& y, const State& dydt,
                                        Stages& k, State& y_new) {
        k[0] = dydt;
        static_for<stages - 1>([&](auto stage_minus_one) {
            constexpr int s = stage_minus_one + 1;
            const State y_stage = evaluate_stage<s>(f, t, dt, y, k);
            // FSAL: the last stage point is the new solution (a[s-1] == b), bit for bit.
            if constexpr (fsal && s == stages - 1) y_new = y_stage;
        });
        if constexpr (!fsal) y_new = plus_weighted_stages<solution_weights>(y, k, dt);
    }

    template <class F, class State, int N, class Stages, class T>
    CUBIE_HD static T step_and_error_norm(const F& f, T t, T dt, const State& y, const State& dydt,
                                          State& y_new, State& dydt_new,
                                          const tolerances<T, N>& tol, Stages& k) {
        compute_stages(f, t, dt, y, dydt, k, y_new);
        if constexpr (fsal) dydt_new = k[stages - 1];

        const T r = weighted_rms_norm(combine<error_weights>(k, dt), tol, y, y_new);
        if constexpr (dual_embedded_tableau<Tableau>) {
            // Hairer's DOP853 estimate: r5^2 / sqrt(r5^2 + 0.01 r3^2), with r5 and r3 the
            // norms of the 5th- and 3rd-order differences.
            const T r3 = weighted_rms_norm(combine<error_low_weights>(k, dt), tol, y, y_new);
            const T denominator = step_size_sqrt(r * r + T(0.01) * r3 * r3);
            return denominator > T(0) ? step_size_divide(r * r, denominator) : T(0);
        } else {
            return r;
        }
    }

    /// Index p - 1 of the highest power of theta in b_j(theta); -1 when b_j vanishes.
    CUBIE_HD static constexpr int highest_power(int j) {
        for (int p = Tableau::dense_degree - 1; p >= 0; --p)
            if (Tableau::b_dense[j][p] != 0.0) return p;
        return -1;
    }

    /// Coefficient of (theta - 1/2)^n in b_j(theta) / theta, from the monomial coefficients
    /// of the tableau: sum_{m >= n} b_dense[j][m] C(m, n) (1/2)^(m - n).
    CUBIE_HD static constexpr double centred_coefficient(int j, int n) {
        double sum = 0, binomial = 1, half_power = 1;
        for (int m = n; m < Tableau::dense_degree; ++m) {
            sum += Tableau::b_dense[j][m] * binomial * half_power;
            binomial = binomial * (m + 1) / (m + 1 - n);
            half_power *= 0.5;
        }
        return sum;
    }

    /// b_J(theta) = theta g(theta), g by Horner's rule in theta - 1/2. The monomial
    /// coefficients of high-order interpolants reach 1e4 and cancel to O(1) on [0, 1]; about
    /// the interval's centre they are far smaller, so rounding them to T costs far less
    /// (Verner 9's weights in float: 2e-6 against 6e-4). theta = 0 still gives 0 exactly.
    template <int J, class T>
    CUBIE_HD static T dense_weight(T theta) {
        constexpr int top = highest_power(J);
        const T u = theta - T(0.5);
        T w = T(centred_coefficient(J, top));
        static_for<top>([&](auto below_top) {
            constexpr double q = centred_coefficient(J, top - 1 - below_top);
            if constexpr (q != 0.0)
                w = w * u + T(q);
            else
                w = w * u;
        });
        return w * theta;
    }
};

}  // namespace cubie
