#pragma once
// Generic diagonally implicit Runge-Kutta stepper over an SDIRK or ESDIRK tableau
// (dirk_tableau.hpp), with a simplified Newton iteration for each implicit stage whose linear
// solver is a policy (linear/newton_linear_solver.hpp): dirk<Tableau> factors the iteration
// matrix by LU (direct_lu, the default: linear/iteration_lu.hpp), dirk<Tableau,
// newton_krylov<Method, Preconditioning>> solves with it matrix-free
// (linear/newton_krylov.hpp).
//
// Stage i splits into a known part and an unknown one (Kennedy & Carpenter, NASA/TM-2016-
// 219173, Sect. 2.2; Hairer & Wanner, Solving ODEs II, IV.8):
//
//   Y_i = s_i + Z_i,   s_i = y + h sum_{j<i} a_ij k_j,   Z_i = h gamma f(t + c_i h, Y_i),
//
// and k_i = Z_i / (h gamma) rather than f(t + c_i h, Y_i): a stiff component of f would
// multiply the iteration's error by h |lambda|. An explicit first stage takes k_1 = f(t, y).
// Per step, one linearisation J at (t, y) and one iteration matrix M = I - h gamma J serve
// every stage and every iteration (simplified Newton), which holds the stage value Y:
//
//   M dY = h gamma f(t + c_i h, Y) - (Y - s_i),   Y += dY.
//
// Iterating on Y rather than on Z, with f at s_i + Z, keeps the rounding of Y - s_i out of the
// point where f is evaluated: where a stiff component sits off its slow manifold, k_1 = f(t, y)
// puts a large term into s_i that Z cancels, and s_i + Z would keep only eps times that term
// of the component's value. For the same reason a stiffly accurate method
// (stiffly_accurate<Tableau>(): b is the last row of A) takes y_new = Y_s rather than
// y + h sum_j b_j k_j.
//
// The predictor. The iteration starts from
//
//   Y = Y_{i-1} + M^-1 (s_i + h gamma k_{i-1} - Y_{i-1})   (Y_0 = y, k_0 = f(t, y)),
//
// one more solve with M per stage. In the nonstiff components M^-1 is near I and this is the
// extrapolation s_i + h gamma k_{i-1}, accurate to the change of k between stages; in the stiff
// ones M^-1 divides by h gamma |lambda| and it stays at the previous stage's value, on the
// slow manifold. For a linear f it is the stage's solution. Either start alone fails:
//   - From the extrapolation, a stiff component slightly off its manifold is pushed far off,
//     and the first correction must cancel a term many times its value. Pollution's O1D
//     (1e-17, decay rate 4.4e11) kept 1e-15 of rounding in float, which k19 turned into a
//     production rate error of 4e-4 for O3P; the iteration stalled, and Kvaerno5 took 10^5
//     steps in float for double's 72 (atol = rtol = 1e-5).
//   - From the previous stage value, the first corrections are large in the nonstiff
//     components, and the iteration stops with errors near kappa that add up along a
//     trajectory: Kvaerno3 on Van der Pol (mu = 1000, rtol 1e-8, 13094 steps) ended 6.1
//     tolerances from the reference, and Kvaerno5 8.2.
// With the predictor Kvaerno5 takes 25 steps on Pollution in float and 24 in double (1e-5),
// Van der Pol ends 1.3 (Kvaerno3) and 0.27 (Kvaerno5) tolerances off, and the Newton
// iterations fall: on Robertson to t = 1e11 (rtol 1e-6) Kvaerno5 takes 265 steps and 3828
// iterations, against 1123 and 17882 from the extrapolation.
// Convergence follows Hairer & Wanner (IV.8, (8.10)-(8.12)) in the weighted RMS norm of the
// tolerances (controllers/error_norm.hpp, scaled by y): with theta_k = ||dY_k|| / ||dY_k-1||
// and eta_k = theta_k / (1 - theta_k), the iteration has converged once eta_k ||dY_k|| <=
// kappa, and fails when theta_k >= 1, when theta_k^(k_max - 1 - k) eta_k ||dY_k|| predicts more
// than kappa after the last of k_max = 7 iterations, or when ||dY_k|| is not finite. A stage's
// first iteration has no rate: it converges only when ||dY_0|| <= kappa (eta = 1); taking the
// previous stage's rate instead, as Hairer and Wanner take the previous step's, let single
// iterations through and put Robertson's global error at 40 times the tolerance. The
// iteration's error adds to every step unseen by the error estimate, so kappa = 0.001 sits
// below Hairer and Wanner's 0.01 to 0.1: with 0.01, Kvaerno5 on Van der Pol (mu = 1000, rtol
// 1e-8) ended 2.5 tolerances from the reference, with 0.001 at 0.5, as without the iteration's
// error (measured from the extrapolated start, before the predictor). The fixed-step `step`,
// without tolerances, holds the iteration's error to sqrt(eps) (1 + |y|) of the working
// precision, the accuracy of right_hand_side's difference Jacobians.
//
// The rounding floor. The iteration holds Y, so its corrections cannot shrink below Y's own
// rounding: a correction within eps |Y_i| may be nothing but that. In float at rtol 1e-5, a
// component far above its atol rounds at eps / rtol = 0.012 of its tolerance, twelve times
// kappa; measured whole, the corrections stalled there with theta near 1, the iteration
// failed, and the step was rejected however short: Kvaerno5 in float at atol = rtol = 1e-5
// took 62,805 steps on Robertson to t = 1e5, and at 1e-6 ran out of steps on Van der Pol,
// Pollution and Lorenz 96 too, Kvaerno3 and SDIRK4 alike (bench/RESULTS.md). So ||dY_k||
// above means the norm of what of each component's correction lies beyond eps |Y_i|, Y before
// the correction (an infinite correction stays infinite): Hairer's RADAU5 floors its Newton
// tolerance at 10 uround / rtol, and component by component a small component's correction
// is not hidden under a large one's rounding. Kvaerno5 then took 31 to 113 steps on those
// problems, and the double solves tried were unchanged; the floor's cost is in RESULTS.md.
// (radau_iia_5's iteration holds the increments Z, which round with Z: it needs no floor.)
//
// Inexact Newton. An iterative linear solver needs a tolerance (linear/newton_krylov.hpp):
// step_with_error asks each solve (the predictor's too) for a residual ||M dY - r|| of at most
// kappa / 1000 (linear_tolerance_fraction) in the Newton iteration's weighted norm, so 1e-6 of
// the tolerance. The error this leaves in dY is M^-1 times the residual: about the residual
// where, as for the scaled M of Robertson's and Van der Pol's steps (||M^-1|| <= 1.6 in
// that norm), M^-1 is bounded. Kappa alone would bound it by the error the iteration
// accepts; the further factor keeps it out of the error estimates, which the step-size
// controller also reads where they are far below 1: on Robertson to t = 1e11 they fall to
// 1e-4 while Newton failures limit the step, and with kappa / 20 (SUNDIALS' eplifac = 0.05)
// Kvaerno5 with GMRES took 1618 steps instead of direct_lu's 1123, with kappa / 1000 1111
// (rtol 1e-6; at 1e-8, 3442 and 3220 against 3222; from the extrapolated start).
// The target is absolute, not relative to ||r||: a relative 1e-2 lets the first correction
// of a stage, often 1e9 tolerances at Robertson's late steps, err by 1e7 tolerances, which
// drives its tiny species far off and the iteration with them (Robertson to t = 1e11 then
// ran out of its 10^6 steps, errors of 1e7 tolerances). A residual already within the target
// takes no iteration. The fixed-step
// `step` has no tolerance to be inexact against, and its Newton bound above is a cap that
// the exact direct solves undercut by far (the convergence tests see the methods' errors down
// to 1e-13, 1e5 below it): its solves go to working precision instead (tolerance 0, which
// newton_krylov raises to its rounding floor), so that a fixed-step Krylov method keeps the
// direct method's errors. Direct solves are exact and ignore the tolerance.
//
// The calling convention is explicit_runge_kutta's: f is a right_hand_side
// (systems/right_hand_side.hpp), dydt holds f(t, y) on entry, dydt_new is untouched (no FSAL).
// The method is implicit (linear/implicit_step_report.hpp): its report counts the Newton
// iterations and the linear iterations: one per LU solve with direct_lu (one per Newton
// iteration and one per stage's predictor), the Krylov iterations with newton_krylov. A step
// fails with
//   - step_failure::singular_matrix when M is singular (direct_lu: its LU's factor fails);
//   - step_failure::linear_solver_failure when a Krylov solve breaks down (M singular on the
//     Krylov space, or a value not finite), at once;
//   - step_failure::linear_solver_failure when the Newton iteration of a stage fails and one
//     of its linear solves ran out of iterations (the iteration goes on with an inexact
//     correction rather than stop, but its failure is then the linear solver's);
//   - step_failure::newton_divergence when it fails with every linear solve converged.
// step_with_error then returns an infinite error norm, which the controllers reject with their
// smallest step factor, so the trajectory retries with a smaller step (the iteration contracts
// faster, M tends to I) and ends with the status of its last failure if the step underflows
// first; the fixed-step `step` writes NaN into y_new and ends the trajectory with that status.
// Either way only that trajectory is affected.

#include <cuda/std/array>
#include <cuda/std/cmath>
#include <cuda/std/limits>

#include <type_traits>

#include "cubie/algorithms/dirk/dirk_tableau.hpp"
#include "cubie/algorithms/failed_step.hpp"
#include "cubie/algorithms/weighted_stages.hpp"
#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/joined_name.hpp"
#include "cubie/core/static_for.hpp"
#include "cubie/core/thread_shared.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/direct_lu.hpp"
#include "cubie/linear/implicit_step_report.hpp"
#include "cubie/linear/krylov_outcome.hpp"
#include "cubie/linear/lane_group.hpp"
#include "cubie/linear/newton_linear_solver.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

namespace detail {

/// The tableau's name alone with the default solver, else joined with the solver's.
template <class Tableau, class LinearSolver>
constexpr const char* dirk_name() {
    if constexpr (std::is_same_v<LinearSolver, direct_lu>)
        return Tableau::name;
    else
        return joined_name<Tableau, LinearSolver>::value;
}

}  // namespace detail

/// StagesInSharedMemory: the variant the cuda backend's kernels take where the stage
/// derivatives fit shared memory (thread_shared_variant, at the end of this file); a user
/// names dirk<Tableau> or dirk<Tableau, LinearSolver>.
template <dirk_tableau Tableau, newton_linear_solver LinearSolver = direct_lu,
          bool StagesInSharedMemory = false>
struct dirk {
    static_assert(check_dirk_tableau<Tableau>(),
                  "inconsistent DIRK tableau: structure, row sums or order conditions fail");

    using tableau = Tableau;
    using linear_solver = LinearSolver;
    /// "kvaerno5" with direct_lu, "kvaerno5_gmres_jacobi" with newton_krylov<gmres_method<...>,
    /// jacobi_preconditioning>.
    static constexpr const char* name = detail::dirk_name<Tableau, LinearSolver>();
    static constexpr int stages = Tableau::stages;
    static constexpr int order = Tableau::order;
    static constexpr bool fsal = false;
    static constexpr bool implicit = true;
    static constexpr bool has_error_estimate = embedded_dirk_tableau<Tableau>;
    static constexpr bool has_dense_output = false;
    /// With direct_lu, lanes can take a step together (algorithms/on_lanes.hpp): they share
    /// M's rows and its LU, and each runs the Newton iterations on the whole state. Only when
    /// asked (on_lanes): every lane holding the stages whole, kvaerno5 on Pollution spilled
    /// and ran 3 to 6 times slower on 4 to 32 lanes than on one thread (bench/RESULTS.md).
    static constexpr bool cooperative = std::is_same_v<LinearSolver, direct_lu>;

    /// Bytes of the stage derivatives of one step.
    template <class State>
    static constexpr int stage_bytes() {
        return stages * int(size_of<State>) * int(sizeof(typename State::value_type));
    }

    /// Whether the stage derivatives for states of type State go to shared memory on the
    /// device (core/thread_shared.hpp) in the variant that keeps them there: above 80
    /// registers' worth (320 bytes) and up to 640 bytes, so that a block of
    /// thread_shared_block threads takes 160 KiB and leaves a multiprocessor's L1 cache more
    /// than a third of its memory. On Pollution (one H200, bench/RESULTS.md), the bytes and
    /// the local memory a thread spilled with them in registers: hairer_wanner_sdirk4 in
    /// float (400; 288 spilled) and kvaerno5 in float (560; 304) then spilled nothing and ran
    /// 1.06 and 1.05 times as fast, kvaerno3 in double (640; 1,592) spilled 1,240 and ran
    /// 1.08 times as fast; kvaerno3 in float (320; 64) ran 8% slower there, and keeps its
    /// registers. Larger ones were not measured.
    template <class State>
    static constexpr bool stages_fit_shared_memory =
        stage_bytes<State>() > 320 && stage_bytes<State>() <= 640;
    /// Every lane of a tile holds the stage derivatives whole, each in its own words: the
    /// variant keeps them in shared memory on lanes too (algorithms/on_lanes.hpp).
    static constexpr bool thread_shared_on_lanes = true;
    /// Whether this variant keeps the stage derivatives for states of type State there.
    template <class State>
    static constexpr bool stages_in_shared_memory = (StagesInSharedMemory &&
                                                     stages_fit_shared_memory<State>);
    /// Bytes of shared memory a thread keeps its stage derivatives in for System; 0 in
    /// registers.
    template <class System>
    static constexpr int thread_shared_bytes = stages_in_shared_memory<state_t<System>>
                                                   ? stage_bytes<state_t<System>>()
                                                   : 0;

    /// Order q of the local error estimate's leading term h^(q+1); 0 without one.
    static constexpr int error_estimate_order = [] {
        if constexpr (embedded_dirk_tableau<Tableau>)
            return Tableau::order < Tableau::embedded_order ? Tableau::order
                                                            : Tableau::embedded_order;
        else
            return 0;
    }();

    /// Newton iterations per stage at most, and the fraction of the tolerance they reach.
    static constexpr int max_newton_iterations = 7;
    static constexpr double newton_kappa = 0.001;
    /// The residual an iterative linear solve must reach, in the Newton iteration's weighted
    /// norm, as a fraction of newton_kappa (see the top of this file).
    static constexpr double linear_tolerance_fraction = 1e-3;

    /// One step without error estimate (fixed-step integration); NaN in y_new when M is
    /// singular or the iteration fails.
    template <class F, class State, class T = typename F::value_type>
    CUBIE_HD static void step(const F& f, T t, T dt, const State& y, const State& dydt,
                              State& y_new, State& dydt_new, implicit_step_report& report) {
        step(single_lane{}, f, t, dt, y, dydt, y_new, dydt_new, report);
    }

    /// One step returning the weighted RMS norm of its local error estimate; infinite (and
    /// y_new = y) when M is singular or the iteration fails.
    template <class F, class State, int N, class T = typename F::value_type>
    requires embedded_dirk_tableau<Tableau> CUBIE_HD static T step_with_error(
        const F& f, T t, T dt, const State& y, const State& dydt, State& y_new, State& dydt_new,
        const tolerances<T, N>& tol, implicit_step_report& report) {
        return step_with_error(single_lane{}, f, t, dt, y, dydt, y_new, dydt_new, tol, report);
    }

    /// The same steps taken by the lanes of g together (linear/lane_group.hpp; cooperative
    /// methods only), each lane holding and returning the whole state: M's rows and its LU
    /// are dealt out to the lanes, and every solve gives each lane the whole solution. The
    /// arithmetic is the one-lane step's: the lanes' results are the same bits where the
    /// compiler rounds them alike (on the host, always).
    template <lane_group Group, class F, class State, class T = typename F::value_type>
    CUBIE_HD static void step(const Group& g, const F& f, T t, T dt, const State& y,
                              const State& dydt, State& y_new, State& /*dydt_new*/,
                              implicit_step_report& report) {
        constexpr int n = static_cast<int>(size_of<State>);
        stage_derivatives<State> k;
        State last_stage;
        if (compute_stages(g, f, t, dt, y, dydt, fixed_step_newton_tolerances<T, n>(newton_kappa),
                           T(0), k, last_stage, report))
            y_new = solution(y, dt, k, last_stage);
        else
            fail_fixed_step(y_new);
    }

    template <lane_group Group, class F, class State, int N, class T = typename F::value_type>
    requires embedded_dirk_tableau<Tableau> CUBIE_HD static T step_with_error(
        const Group& g, const F& f, T t, T dt, const State& y, const State& dydt, State& y_new,
        State& /*dydt_new*/, const tolerances<T, N>& tol, implicit_step_report& report) {
        stage_derivatives<State> k;
        State last_stage;
        const T linear_tolerance = T(newton_kappa * linear_tolerance_fraction);
        if (!compute_stages(g, f, t, dt, y, dydt, tol, linear_tolerance, k, last_stage, report))
            return fail_adaptive_step(y, y_new);
        y_new = solution(y, dt, k, last_stage);
        State error{};
        add_weighted_stages<stages>(error, k, dt,
                                    [](int j) { return Tableau::b[j] - Tableau::b_hat[j]; });
        return weighted_rms_norm(error, tol, y, y_new);
    }

private:
    template <class State>
    using stage_derivatives = std::conditional_t<
        !stages_in_shared_memory<State>, vector<State, stages>,
        thread_shared_rows<typename State::value_type, stages, static_cast<int>(size_of<State>)>>;

    /// y + h sum_{j<row} a_row,j k_j, the known part of stage `row`; y + h sum_j b_j k_j for
    /// row = stages.
    template <int row, class State, class T>
    CUBIE_HD static State combine(const State& y, T dt, const stage_derivatives<State>& k) {
        return with_weighted_stages<row>(
            y, k, dt, [](int j) { return row < stages ? Tableau::a[row][j] : Tableau::b[j]; });
    }

    /// y_new: the last stage value of a stiffly accurate method, else y + h sum_j b_j k_j.
    template <class State, class T>
    CUBIE_HD static State solution(const State& y, T dt, const stage_derivatives<State>& k,
                                   const State& last_stage) {
        if constexpr (stiffly_accurate<Tableau>())
            return last_stage;
        else
            return combine<stages>(y, dt, k);
    }

    /// M = I - h gamma J of the step: on one lane the linear solver's own, on several
    /// direct_lu's with its rows dealt out to them.
    template <class Group, class F, class State, int N, class T>
    CUBIE_HD static auto iteration_matrix(const Group& g, const F& f, T t, const State& y,
                                          const State& dydt, T h_gamma,
                                          const tolerances<T, N>& tol) {
        if constexpr (Group::size == 1)
            return typename LinearSolver::template iteration_matrix<F, State>(f, t, y, dydt,
                                                                              h_gamma, tol);
        else
            return typename LinearSolver::template iteration_matrix<F, State, Group>(
                f, t, y, dydt, h_gamma, tol, g);
    }

    /// The stage derivatives k and the last stage value of a step from (t, y); false when M
    /// is singular, a linear solve breaks down or an iteration fails (report.failure says
    /// which).
    template <class Group, class F, class State, int N, class T>
    CUBIE_HD static bool compute_stages(const Group& g, const F& f, T t, T dt, const State& y,
                                        const State& dydt, const tolerances<T, N>& tol,
                                        T linear_tolerance, stage_derivatives<State>& k,
                                        State& last_stage, implicit_step_report& report) {
        constexpr int n = static_cast<int>(size_of<State>);
        const T h_gamma = dt * T(Tableau::gamma);
        const auto M = iteration_matrix(g, f, t, y, dydt, h_gamma, tol);
        if (!M.valid()) {
            report.failure = step_failure::singular_matrix;
            return false;
        }

        const T inverse_h_gamma = T(1) / h_gamma;
        const T kappa = T(newton_kappa);
        bool converged = true;
        bool broke_down = false;  // a linear solve broke down
        bool inexact = false;     // a linear solve of the failing stage ran out of iterations
        State previous = dydt;    // k of the previous stage
        State previous_Y = y;
        static_for<stages>([&](auto s) {
            if (!converged) return;
            if constexpr (s == 0 && explicit_first_stage<Tableau>()) {
                k[0] = dydt;
            } else {
                const State known = combine<s>(y, dt, k);
                const T t_stage = t + T(Tableau::c[s]) * dt;
                // The predictor: the previous stage value, moved by M^-1 times its distance to
                // the extrapolation s_i + h gamma k_{i-1} (see the top of this file).
                State Y;  // the stage value
                CUBIE_UNROLL
                for (int i = 0; i < n; ++i) Y[i] = known[i] + h_gamma * previous[i] - previous_Y[i];
                converged = false;
                inexact = false;
                if (M.solve(Y, linear_tolerance, report) == krylov_outcome::breakdown) {
                    broke_down = true;
                    return;
                }
                CUBIE_UNROLL
                for (int i = 0; i < n; ++i) Y[i] += previous_Y[i];
                T eta = 1;  // no rate before the second iteration
                T last_norm = 0;
                for (int iteration = 0; iteration < max_newton_iterations; ++iteration) {
                    State dY;
                    f(t_stage, Y, dY);
                    CUBIE_UNROLL
                    for (int i = 0; i < n; ++i) dY[i] = h_gamma * dY[i] - (Y[i] - known[i]);
                    const krylov_outcome outcome = M.solve(dY, linear_tolerance, report);
                    ++report.newton_iterations;
                    if (outcome == krylov_outcome::breakdown) {
                        broke_down = true;
                        break;
                    }
                    if (outcome == krylov_outcome::max_iterations) inexact = true;
                    // Only what lies beyond Y's rounding is measured (the rounding floor
                    // above), taken before the correction: an infinite one stays infinite.
                    CUBIE_UNROLL
                    for (int i = 0; i < n; ++i) {
                        const T rounding =
                            cuda::std::numeric_limits<T>::epsilon() * cuda::std::fabs(Y[i]);
                        Y[i] += dY[i];
                        dY[i] = cuda::std::fdim(cuda::std::fabs(dY[i]), rounding);
                    }
                    const T norm = weighted_rms_norm(dY, tol, y, y);
                    if (!cuda::std::isfinite(norm)) break;
                    if (iteration > 0) {
                        const T theta = norm / last_norm;
                        if (theta >= T(1)) break;
                        eta = theta / (T(1) - theta);
                        const int left = max_newton_iterations - 1 - iteration;
                        if (cuda::std::pow(theta, T(left)) * eta * norm > kappa) break;
                    }
                    last_norm = norm;
                    if (eta * norm <= kappa || norm == T(0)) {
                        // Not at an infinite Y, whose rounding would hide any correction.
                        converged = true;
                        CUBIE_UNROLL
                        for (int i = 0; i < n; ++i)
                            converged = converged && cuda::std::isfinite(Y[i]);
                        break;
                    }
                }
                CUBIE_UNROLL
                for (int i = 0; i < n; ++i) k[s][i] = (Y[i] - known[i]) * inverse_h_gamma;
                if constexpr (s == stages - 1) last_stage = Y;
                previous_Y = Y;
            }
            CUBIE_UNROLL
            for (int i = 0; i < n; ++i) previous[i] = k[s][i];
        });
        if (!converged)
            report.failure = broke_down || inexact ? step_failure::linear_solver_failure
                                                   : step_failure::newton_divergence;
        return converged;
    }
};

/// The cuda backend's variant of a DIRK method whose stage derivatives fit shared memory.
template <dirk_tableau Tableau, newton_linear_solver LinearSolver, class System>
struct thread_shared_variant<dirk<Tableau, LinearSolver, false>, System> {
    using method = dirk<Tableau, LinearSolver, false>;
    using type = std::conditional_t<method::template stages_fit_shared_memory<state_t<System>>,
                                    dirk<Tableau, LinearSolver, true>, method>;
};

}  // namespace cubie
