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
// Where the last stages' points each extend the one before and the solution extends the
// last (Rodas3P, Rodas4, Rodas5P), the early increments go into the later stages' sums over
// c once no point needs them (sums_from), and fewer vectors are live at once. Only the order
// in which those stages add their terms changes. With f(t, y) not kept through the stages
// either (keeps_dydt_across_rejections), rodas5p's Pollution kernels in float went from 288
// bytes of local memory a thread to none.
//
// The calling convention is explicit_runge_kutta's, so integrate() and the solver take a
// Rosenbrock method unchanged: f is a right_hand_side (systems/right_hand_side.hpp), which also
// gives J (analytic or by differences) and df/dt; dydt holds f(t, y) on entry; dydt_new is
// untouched (no FSAL).
//
// The method is implicit (linear/implicit_step_report.hpp): its report counts one linear
// iteration per stage (one LU solve each) and no Newton iterations. W is factored by
// linear/iteration_lu.hpp's choice: in the system's sparsity pattern where it declares one,
// else densely with row exchanges. A singular W (the LU's factor fails: W is singular to
// working precision, J holds a NaN or Inf, or the pattern's pivot order would be unstable)
// fails the step with step_failure::singular_matrix: step_with_error returns an infinite
// error norm, so the trajectory retries with a smaller step (W tends to I / (h gamma)) and
// ends with status::singular_matrix if the step underflows first; the fixed-step `step`
// writes NaN into y_new and ends the trajectory with that status. Either way only that
// trajectory is affected.

#include <cuda/std/array>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "cubie/algorithms/failed_step.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock_tableau.hpp"
#include "cubie/algorithms/weighted_stages.hpp"
#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"
#include "cubie/core/thread_shared.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/linear/implicit_step_report.hpp"
#include "cubie/linear/iteration_lu.hpp"
#include "cubie/linear/lane_group.hpp"
#include "cubie/linear/lane_parts.hpp"

namespace cubie {

/// FactorsInSharedMemory: the variant the cuda backend's kernels take where the factors of
/// W in the system's pattern fit shared memory and crowd the registers (thread_shared_variant,
/// at the end of this file; factors_to_shared_memory); a user names rosenbrock<Tableau>
/// (rodas5p, ...).
template <rosenbrock_tableau Tableau, bool FactorsInSharedMemory = false>
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
    /// Lanes can take a step together (algorithms/on_lanes.hpp), and the solver gives a
    /// larger system's trajectories several (measured faster on Pollution).
    static constexpr bool cooperative = true;
    static constexpr bool lanes_by_default = true;

    /// Bytes of the factors of System's W, on one thread in its pattern; 0 where W is
    /// factored densely.
    template <class System>
    static constexpr int factor_bytes() {
        using T = typename System::value_type;
        if constexpr (factored_in_pattern<System>)
            return thread_factor_entries<T, System>() * int(sizeof(T));
        else
            return 0;
    }

    /// Values a step keeps for System, as the choice below counts them: the stage
    /// increments (s N) and the factors of W.
    template <class System>
    static constexpr int step_values() {
        return stages * System::n_states +
               thread_factor_entries<typename System::value_type, System>();
    }

    /// Whether W's factors in System's pattern go to shared memory on the device
    /// (core/thread_shared.hpp) in the variant that keeps them there: where a step keeps
    /// more than thread_shared_past_values (step_values), and the factors take at most
    /// thread_shared_most_bytes. Rodas5P on Lorenz 96 at 32 sites in float (468 values; 212
    /// entries, 848 bytes) then spills nothing, where it spilled 2,248 bytes a thread, and
    /// its kernel took 32.1 ms in place of 47.8 at 2^20 trajectories on one H200
    /// (bench/RESULTS.md). Rosenbrock23 there (308 values), without spills too, took 1.4 to
    /// 2.8 times as long with the variant, and Rodas4 (404) 1.4 to 2.6 times: the spills they
    /// keep in registers fit the L1 cache that the factors take.
    template <class System>
    static constexpr bool factors_to_shared_memory = thread_shared_pays(factor_bytes<System>(),
                                                                        step_values<System>());
    /// Bytes of shared memory a thread keeps the factors in for System; 0 in registers.
    template <class System>
    static constexpr int thread_shared_bytes = (FactorsInSharedMemory &&
                                                factors_to_shared_memory<System>)
                                                   ? factor_bytes<System>()
                                                   : 0;

    /// Order q of the local error estimate's leading term h^(q+1).
    static constexpr int error_estimate_order =
        Tableau::order < Tableau::embedded_order ? Tableau::order : Tableau::embedded_order;

    /// One step without error estimate (fixed-step integration); NaN in y_new when W is
    /// singular.
    template <class F, class State, class T = typename F::value_type>
    CUBIE_HD static void step(const F& f, T t, T dt, const State& y, const State& dydt,
                              State& y_new, State& dydt_new, implicit_step_report& report) {
        step(single_lane{}, f, t, dt, y, dydt, y_new, dydt_new, report);
    }

    /// One step returning the weighted RMS norm of its local error estimate; infinite (and
    /// y_new = y) when W is singular.
    template <class F, class State, int N, class T = typename F::value_type>
    CUBIE_HD static T step_with_error(const F& f, T t, T dt, const State& y, const State& dydt,
                                      State& y_new, State& dydt_new, const tolerances<T, N>& tol,
                                      implicit_step_report& report) {
        return step_with_error(single_lane{}, f, t, dt, y, dydt, y_new, dydt_new, tol, report);
    }

    /// The same steps taken by the lanes of g together (linear/lane_group.hpp), each lane
    /// holding and returning the whole state. W's rows, its LU (cooperative_lu) and the
    /// stages are dealt out to the lanes (linear/lane_parts.hpp); each stage's point is
    /// gathered whole, and every lane evaluates f and J there and keeps its own part. The
    /// arithmetic on each element is the one-lane step's, in the same order, and
    /// cooperative_lu's is dense_lu's: the lanes' results are the same bits where the
    /// compiler rounds them alike (on the host, always).
    template <lane_group Group, class F, class State, class T = typename F::value_type>
    CUBIE_HD static void step(const Group& g, const F& f, T t, T dt, const State& y,
                              const State& dydt, State& y_new, State& /*dydt_new*/,
                              implicit_step_report& report) {
        stage_increments<Group, State> U;
        part_of<Group, State> last_point;
        if (compute_stages(g, f, t, dt, y, dydt, U, last_point, report))
            y_new = whole<length<State>>(g, advance(own_part(g, y), last_point, U));
        else
            fail_fixed_step(y_new);
    }

    template <lane_group Group, class F, class State, int N, class T = typename F::value_type>
    CUBIE_HD static T step_with_error(const Group& g, const F& f, T t, T dt, const State& y,
                                      const State& dydt, State& y_new, State& /*dydt_new*/,
                                      const tolerances<T, N>& tol, implicit_step_report& report) {
        constexpr int n = length<State>;
        stage_increments<Group, State> U;
        part_of<Group, State> last_point;
        if (!compute_stages(g, f, t, dt, y, dydt, U, last_point, report))
            return fail_adaptive_step(y, y_new);
        y_new = whole<n>(g, advance(own_part(g, y), last_point, U));
        part_of<Group, State> error{};
        add_weighted_stages<stages>(error, U, T(1),
                                    [](int j) { return Tableau::m[j] - Tableau::m_hat[j]; });
        return weighted_rms_norm(whole<n>(g, error), tol, y, y_new);
    }

private:
    template <class State>
    static constexpr int length = static_cast<int>(size_of<State>);

    /// A lane's part of a state (all of it on one lane), and of each stage increment.
    template <class Group, class State>
    using part_of = lane_part<typename State::value_type, length<State>, Group::size>;
    template <class Group, class State>
    using stage_increments = vector<part_of<Group, State>, stages>;

    /// Stages I and J evaluate f at the same point: same time, same combination of the U_j.
    CUBIE_HD static constexpr bool same_point(int i, int j) {
        if (Tableau::alpha[i] != Tableau::alpha[j]) return false;
        for (int k = 0; k < stages; ++k)
            if (Tableau::a[i][k] != Tableau::a[j][k]) return false;
        return true;
    }

    /// Row s of a is row s - 1's but for its weight on U_{s-1}: stage s's point is stage
    /// s - 1's plus that multiple of U_{s-1}, the same sum in the same order.
    CUBIE_HD static constexpr bool extends_previous_point(int s) {
        for (int j = 0; j + 1 < s; ++j)
            if (Tableau::a[s][j] != Tableau::a[s - 1][j]) return false;
        return true;
    }

    /// m is a's last row but for its weight on the last U: y_new is the last stage's point
    /// plus that multiple of it (a stiffly accurate method).
    CUBIE_HD static constexpr bool solution_extends_last_point() {
        for (int j = 0; j + 1 < stages; ++j)
            if (Tableau::m[j] != Tableau::a[stages - 1][j]) return false;
        return true;
    }

    /// The stage F from which the step keeps sums in place of the increments before it.
    /// Kept whole, every U_j lives until the last stage's sum over c: stages - 1 vectors at
    /// the last solve, more than registers hold for a 20-state system in 8 stages. From F on,
    /// each stage's point extends the one before and the solution the last one, the error
    /// weighs no U_j below F, and each U_j goes into every later stage's sum over c as soon
    /// as it is known: at most max(F, stages - F + 1) vectors at a time. `stages` (no such
    /// sums) where no F qualifies or none keeps fewer.
    static constexpr int sums_from = [] {
        int best = stages, fewest = stages - 1;
        for (int F = 1; F < stages; ++F) {
            bool qualifies = solution_extends_last_point();
            for (int s = F + 1; s < stages; ++s) qualifies = qualifies && extends_previous_point(s);
            for (int j = 0; j < F; ++j) qualifies = qualifies && Tableau::m[j] == Tableau::m_hat[j];
            const int kept = F > stages - F + 1 ? F : stages - F + 1;
            if (qualifies && kept < fewest) {
                best = F;
                fewest = kept;
            }
        }
        return best;
    }();

    /// y + sum_j m_j U_j, on a lane's part: the last stage's point plus m_s U_s where the
    /// step keeps sums.
    template <class Part>
    CUBIE_HD static Part advance(const Part& y, const Part& last_point,
                                 const vector<Part, stages>& U) {
        using T = typename Part::value_type;
        if constexpr (sums_from < stages) {
            constexpr double m_last = Tableau::m[stages - 1];
            Part y_new = last_point;
            if constexpr (m_last != 0.0) {
                CUBIE_UNROLL
                for (cuda::std::size_t i = 0; i < size_of<Part>; ++i)
                    y_new[i] += T(m_last) * U[stages - 1][i];
            }
            return y_new;
        } else {
            return with_weighted_stages<stages>(y, U, T(1), [](int j) { return Tableau::m[j]; });
        }
    }

    /// sums[r][i] += (c_rj / h) U_j[i] for every stage r from First on.
    template <int First, int J, class Part, class T>
    CUBIE_HD static void add_to_c_sums(vector<Part, stages>& sums, const Part& U_j, int i,
                                       T inverse_dt) {
        static_for<stages>([&](auto r) {
            constexpr double c = Tableau::c[r][J];
            if constexpr (r >= First && c != 0.0) sums[r][i] += T(c) * inverse_dt * U_j[i];
        });
    }

    /// The lane's parts of the stage increments U of a step from (t, y), and of the last
    /// stage's point where the step keeps sums (sums_from < stages); false when W is
    /// singular.
    template <class Group, class F, class State, class T>
    CUBIE_HD static bool compute_stages(const Group& g, const F& f, T t, T dt, const State& y,
                                        const State& dydt, stage_increments<Group, State>& U,
                                        part_of<Group, State>& last_point,
                                        implicit_step_report& report) {
        constexpr int n = length<State>;
        constexpr int G = Group::size;
        using part = part_of<Group, State>;
        constexpr int slots = static_cast<int>(size_of<part>);
        using lu_type = iteration_lu<T, n, F, Group, keeps_thread_shared_for<rosenbrock, F>()>;
        typename lu_type::rows_type W;
        {
            typename dense_lu<T, n>::matrix J;
            f.jacobian(t, y, dydt, J);
            W = own_part(g, J);
        }
        const T diagonal = T(1) / (dt * T(Tableau::gamma));
        const int lane = g.lane();
        CUBIE_UNROLL
        for (int m = 0; m < slots; ++m) {
            CUBIE_UNROLL
            for (int j = 0; j < n; ++j) {
                // A select, not a conditional store, which nvcc turns into a store at a
                // lane-dependent index and so puts W in local memory.
                const T negated = -W[m][j];
                W[m][j] = j == lane + m * G ? negated + diagonal : negated;
            }
        }
        lu_type lu;
        if (!lu.factor(g, W)) {
            report.failure = step_failure::singular_matrix;
            return false;
        }
        report.linear_iterations += stages;

        part dfdt;
        {
            State whole_dfdt;
            f.time_derivative(t, y, dydt, whole_dfdt);
            dfdt = own_part(g, whole_dfdt);
        }
        const part y_part = own_part(g, y);
        const T inverse_dt = T(1) / dt;
        State f_stage = dydt;  // f at the current stage's point, whole
        // From stage sums_from on: sum_{j<r} (c_rj / h) U_j of stage r, so far.
        stage_increments<Group, State> c_sums{};
        static_for<stages>([&](auto s) {
            if constexpr (s == sums_from) {
                // The increments so far go into the point and the sums, an element at a
                // time: each U_j's element is held only until it is read.
                last_point = y_part;
                CUBIE_UNROLL
                for (int i = 0; i < slots; ++i) {
                    static_for<s>([&](auto j) {
                        constexpr double a = Tableau::a[s][j];
                        if constexpr (a != 0.0) last_point[i] += T(a) * U[j][i];
                        add_to_c_sums<s, j>(c_sums, U[j], i, inverse_dt);
                    });
                }
            }
            if constexpr (s > 0 && !same_point(s, s - 1)) {
                if constexpr (same_point(s, 0)) {
                    if constexpr (s > sums_from) last_point = y_part;
                    f_stage = dydt;
                } else if constexpr (s >= sums_from) {
                    constexpr double a = Tableau::a[s][s - 1];
                    if constexpr (s > sums_from && a != 0.0) {
                        CUBIE_UNROLL
                        for (int i = 0; i < slots; ++i) last_point[i] += T(a) * U[s - 1][i];
                    }
                    f(t + T(Tableau::alpha[s]) * dt, whole<n>(g, last_point), f_stage);
                } else {
                    part point = y_part;
                    static_for<s>([&](auto j) {
                        constexpr double a = Tableau::a[s][j];
                        if constexpr (a != 0.0) {
                            CUBIE_UNROLL
                            for (int i = 0; i < slots; ++i) point[i] += T(a) * U[j][i];
                        }
                    });
                    f(t + T(Tableau::alpha[s]) * dt, whole<n>(g, point), f_stage);
                }
            }
            part& rhs = U[s];
            rhs = own_part(g, f_stage);
            constexpr double gs = Tableau::gamma_sum[s];
            if constexpr (gs != 0.0) {
                const T scale = T(gs) * dt;
                CUBIE_UNROLL
                for (int i = 0; i < slots; ++i) rhs[i] += scale * dfdt[i];
            }
            if constexpr (s >= sums_from) {
                CUBIE_UNROLL
                for (int i = 0; i < slots; ++i) rhs[i] += c_sums[s][i];
            } else {
                static_for<s>([&](auto j) {
                    constexpr double c = Tableau::c[s][j];
                    if constexpr (c != 0.0) {
                        const T scale = T(c) * inverse_dt;
                        CUBIE_UNROLL
                        for (int i = 0; i < slots; ++i) rhs[i] += scale * U[j][i];
                    }
                });
            }
            lu.solve(g, rhs);
            if constexpr (s >= sums_from) {
                CUBIE_UNROLL
                for (int i = 0; i < slots; ++i) add_to_c_sums<s + 1, s>(c_sums, rhs, i, inverse_dt);
            }
        });
        return true;
    }

public:
    /// f(t, y) goes into the first stage, J and df/dt, and into no later stage unless one
    /// takes the first stage's point. Where the step keeps sums its later stages are short
    /// of registers, and the adaptive loop evaluates f again after a rejection rather than
    /// keep it through them (stepper.hpp). Pollution at 2^20 on one H200, kernel ms kept /
    /// not kept: rodas5p 24.5 / 22.7 in double (its balanced kernel in float spilled 80
    /// bytes a thread, none), rodas4 12.2 / 11.1 in double; rosenbrock23, which keeps no
    /// sums, 8.3 / 10.6 in double, so it keeps f.
    static constexpr bool keeps_dydt_across_rejections = [] {
        bool first_point_again = false;
        for (int s = 1; s < stages; ++s) first_point_again = first_point_again || same_point(s, 0);
        return sums_from == stages || first_point_again;
    }();
};

/// The cuda backend's variant of a Rosenbrock method whose factors fit shared memory.
template <rosenbrock_tableau Tableau, class System>
struct thread_shared_variant<rosenbrock<Tableau, false>, System> {
    using method = rosenbrock<Tableau, false>;
    using type = cuda::std::conditional_t<method::template factors_to_shared_memory<System>,
                                          rosenbrock<Tableau, true>, method>;
};

}  // namespace cubie
