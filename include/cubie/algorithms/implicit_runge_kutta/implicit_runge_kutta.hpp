#pragma once
// Generic fully implicit Runge-Kutta stepper over a collocation tableau (Radau IIA,
// Gauss-Legendre; implicit_runge_kutta_tableau.hpp), with the simplified Newton iteration in
// transformed variables of Hairer & Wanner (Solving ODEs II, IV.8; their RADAU5).
//
// In the stage increments Z_i = Y_i - y the stage system is Z = h (A (x) I) F(Z), F(Z)_i =
// f(t + c_i h, y + Z_i), and y_new = y + sum_i d_i Z_i (d^T = b^T A^-1; y + Z_s for Radau IIA):
// the increments are used rather than h f(Y_i), which a stiff component would multiply by
// h |lambda| with the iteration's error. Simplified Newton with one Jacobian J at (t, y),
//   (I - h A (x) J) dZ = -Z + h (A (x) I) F(Z),
// becomes, in W = (T^-1 (x) I) Z with T^-1 A^-1 T = Lambda block diagonal,
//   (h^-1 Lambda (x) I - I (x) J) dW = -h^-1 (Lambda (x) I) W + (T^-1 (x) I) F((T (x) I) W),
// one N x N system per block of Lambda: (gamma/h) I - J for a real eigenvalue gamma of A^-1,
// and for a pair alpha +- i beta, whose block [[alpha, -beta], [beta, alpha]] couples W_j and
// W_j+1, the complex system
//   ((alpha + i beta)/h I - J) (dW_j + i dW_j+1) = R_j + i R_j+1,
// R being the right-hand side above. So per step: one Jacobian, one real LU factorisation
// per real eigenvalue and one complex one (linear/complex_dense_lu.hpp) per pair, reused by
// every iteration; Radau IIA 5 factors one of each, Radau IIA 3 and Gauss-Legendre 2 one
// complex matrix. On one thread, a system that declares its Jacobian's sparsity pattern has
// them factored in it (linear/iteration_lu.hpp).
//
// The iteration starts from Z = 0. Hairer and Wanner start from the previous step's
// collocation polynomial, extrapolated, and from zero only on the first step and after a
// rejection; this stepper keeps no state across steps (the loop hands it (t, y, f(t, y))
// alone, the same for a first attempt and a retry), so zero it is, and the first iteration
// has no contraction rate to go by. Convergence follows dirk.hpp (Hairer & Wanner (8.10)-
// (8.12)): with theta_k = ||dZ_k|| / ||dZ_k-1|| and eta_k = theta_k / (1 - theta_k), the
// iteration fails when theta_k >= 1, when theta_k^(k_max - 1 - k) eta_k ||dZ_k|| predicts more
// than kappa after the last of k_max = 7 iterations (RADAU5's limit), or when ||dZ_k|| is not
// finite, and has converged once eta_k ||dZ_k|| <= kappa, taking eta = 1 for the first two
// iterations: they converge only when ||dZ_k|| <= kappa itself. The first ratio theta_1 is no
// rate to converge on: from Z = 0, dZ_0 is the whole increment, dominated by stiff components
// that the first (linear) solve settles exactly, and theta_1 compares the nonlinear remainder
// with it. On Van der Pol (mu = 1000) it runs at 2e-5 where the later ratios are 7e-3; taken
// as the rate, it let second iterations through with 50 times the promised error left, and
// Radau IIA 3 ended 3.5 tolerances from the reference at rtol 1e-8 (0.28 with the rule above,
// for 40% more iterations; Radau IIA 5, 0.44 and 0.016, for 7% more; Gustafsson's
// controller). The norm is the weighted RMS norm of the tolerances (scaled by y) over all
// s N components of dZ = (T (x) I) dW, not of dW as in RADAU5: the tolerance speaks of Z, and
// the size of W depends on how T's columns are scaled. kappa = 0.001 as in dirk.hpp, whose
// comment says why it sits below Hairer and Wanner's 0.01 to 0.1. The fixed-step `step`,
// without tolerances, holds the iteration's error to sqrt(eps) (1 + |y|).
//
// Error estimate (adaptive methods; the tableau's gamma0 and e): Hairer and Wanner's (8.19),
//   err = (I - h gamma0 J)^-1 (gamma0 h f(t, y) + sum_i e_i Z_i),
// the difference to an embedded solution of lower order, filtered so that stiff components
// stay bounded; where its norm exceeds 1, their (8.20),
//   err~ = (I - h gamma0 J)^-1 (gamma0 h f(t, y + err) + sum_i e_i Z_i),
// which tends to zero in stiff components where err tends to -1 and would reject every step
// after a transient. RADAU5 takes the second estimate on the first step and after
// rejections, where y may still hold a transient; without state across steps it is taken
// whenever the first rejects (one more f and one more solve for a step that would otherwise
// be rejected). The filter's matrix (1 / (h gamma0)) I - J is a real block's when 1 / gamma0
// is a real eigenvalue of A^-1 (Radau IIA 5) and has a factorisation of its own otherwise
// (Radau IIA 3).
//
// Dense output (adaptive methods): the collocation polynomial u of degree s, u(t) = y and
// u(t + c_i h) = y + Z_i, is the method's continuous extension, y(t + theta h) ~ y +
// sum_i l_i(theta) Z_i with the Lagrange polynomials l_i of the nodes 0, c_1, ..., c_s. It
// ends on y_new (collocation methods end on their polynomial) and its local error is
// O(h^(s+1)) (stage order s): dense_order = s. The step's increments Z are the dense stages;
// prepare_dense_output has nothing to add.
//
// The calling convention is dirk.hpp's: f is a right_hand_side (systems/right_hand_side.hpp),
// dydt holds f(t, y) on entry, dydt_new is untouched (no FSAL). The method is implicit
// (linear/implicit_step_report.hpp): its report counts the Newton iterations and one linear
// iteration per LU solve, real or complex (one per block per Newton iteration, one or two for
// the error estimate). A singular iteration matrix (its LU's factor fails) fails the step
// with step_failure::singular_matrix, a failed iteration with step_failure::newton_divergence:
// step_with_error returns an infinite error norm (y_new = y), which the controllers reject
// with their smallest step factor, and the fixed-step `step` writes NaN into y_new. Either way
// only that trajectory is affected.
//
// Several lanes can take a step together (algorithms/on_lanes.hpp), as rosenbrock.hpp's do:
// every lane holds the whole state, the increments and the iterates, evaluates f and J
// whole and forms its own rows of every iteration matrix (linear/lane_parts.hpp); the lanes
// factor each matrix together (cooperative_lu, real and complex) and every solve gives every
// lane the whole solution. The lanes factor with row exchanges, as dense_lu does, never in a
// sparsity pattern: they pay only for systems whose matrices have none. Where one thread
// factors densely too (no pattern, or one hidden by dense_jacobian), the arithmetic on each
// element is the one-lane step's, in the same order, and the results are the one thread's
// bits where the compiler rounds them alike (on the host, always).

#include <cuda/std/array>
#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "cubie/algorithms/failed_step.hpp"
#include "cubie/algorithms/implicit_runge_kutta/implicit_runge_kutta_tableau.hpp"
#include "cubie/algorithms/weighted_stages.hpp"
#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"
#include "cubie/core/thread_shared.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/complex_dense_lu.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/linear/implicit_step_report.hpp"
#include "cubie/linear/iteration_lu.hpp"
#include "cubie/linear/lane_group.hpp"
#include "cubie/linear/lane_parts.hpp"

namespace cubie {

/// ComplexFactorsInSharedMemory: the variant the cuda backend's kernels take where the
/// factors of the complex iteration matrix fit shared memory (thread_shared_variant, at the
/// end of this file); a user names implicit_runge_kutta<Tableau> (radau_iia_5, ...).
template <implicit_runge_kutta_tableau Tableau, bool ComplexFactorsInSharedMemory = false>
struct implicit_runge_kutta {
    static_assert(check_implicit_runge_kutta_tableau<Tableau>(),
                  "inconsistent implicit Runge-Kutta tableau: order conditions, stage order, "
                  "transformation or embedded solution fail");

    using tableau = Tableau;
    static constexpr const char* name = Tableau::name;
    static constexpr int stages = Tableau::stages;
    static constexpr int order = Tableau::order;
    static constexpr bool fsal = false;
    static constexpr bool implicit = true;
    static constexpr bool has_error_estimate = embedded_implicit_runge_kutta_tableau<Tableau>;
    /// The collocation polynomial, from the increments step_with_error hands back.
    static constexpr bool has_dense_output = has_error_estimate;
    static constexpr int dense_order = has_dense_output ? stages : 0;
    /// Lanes can take a step together (on_lanes<Method, G>); the solver maps it to one
    /// thread unless asked.
    static constexpr bool cooperative = true;

    /// Bytes of the factors of System's complex iteration matrix, on one thread in its
    /// pattern; 0 where the method has no complex block or more than one (their factors
    /// would share the thread's words), or the matrix is factored densely.
    template <class System>
    static constexpr int complex_factor_bytes() {
        using complex = cuda::std::complex<typename System::value_type>;
        if constexpr (complex_blocks == 1 && factored_in_pattern_as<complex, System>)
            return thread_factor_entries<complex, System>() * int(sizeof(complex));
        else
            return 0;
    }

    /// Values a thread keeps through the Newton iteration for System, as the choice below
    /// counts them: the iterates W and the corrections (2 s N), the factors of every
    /// iteration matrix, the error filter's own included where it has one (a complex entry
    /// counts twice; N^2 where factored densely), y and the weights (2 N).
    template <class System>
    static constexpr int iteration_values() {
        using T = typename System::value_type;
        constexpr int n = System::n_states;
        constexpr int own_filter = has_error_estimate && filter_block < 0 ? 1 : 0;
        return 2 * stages * n + (real_blocks + own_filter) * thread_factor_entries<T, System>() +
               2 * complex_blocks * thread_factor_entries<cuda::std::complex<T>, System>() + 2 * n;
    }

    /// Whether the complex factors go to shared memory on the device (core/thread_shared.hpp)
    /// in the variant that keeps them there: where the iteration keeps more than
    /// thread_shared_past_values (iteration_values), and the factors take at most
    /// thread_shared_most_bytes. Radau IIA 5 on Pollution in float (442 values, 752 bytes)
    /// then spills 376 bytes a thread in place of 1,032, with the same bits, and its kernel
    /// took 13.1 ms in place of 20.4 at 2^20 trajectories on one H200 (bench/RESULTS.md);
    /// with the variant Radau IIA 3 there (402 values) took 1.24 times as long, and Radau IIA
    /// 5 on the ring modulator (321) 2.4 to 2.5 times at 2^14 and 2.2 at 2^17 (0.86 at
    /// 2^20, over a shorter span).
    template <class System>
    static constexpr bool complex_factors_to_shared_memory =
        thread_shared_pays(complex_factor_bytes<System>(), iteration_values<System>());
    /// Bytes of shared memory a thread keeps the complex factors in for System; 0 in
    /// registers.
    template <class System>
    static constexpr int thread_shared_bytes = (ComplexFactorsInSharedMemory &&
                                                complex_factors_to_shared_memory<System>)
                                                   ? complex_factor_bytes<System>()
                                                   : 0;

    /// Order q of the local error estimate's leading term h^(q+1); 0 without one.
    static constexpr int error_estimate_order = [] {
        if constexpr (embedded_implicit_runge_kutta_tableau<Tableau>)
            return Tableau::embedded_order;
        else
            return 0;
    }();

    /// Newton iterations per step at most, and the fraction of the tolerance they reach.
    static constexpr int max_newton_iterations = 7;
    static constexpr double newton_kappa = 0.001;

    /// The stage increments Z_i = Y_i - y of a step, its dense stages.
    template <class State>
    using dense_stages_t = vector<State, stages>;

    /// One step without error estimate (fixed-step integration); NaN in y_new when an
    /// iteration matrix is singular or the iteration fails.
    template <class F, class State, class T = typename F::value_type>
    CUBIE_HD static void step(const F& f, T t, T dt, const State& y, const State& dydt,
                              State& y_new, State& dydt_new, implicit_step_report& report) {
        step(single_lane{}, f, t, dt, y, dydt, y_new, dydt_new, report);
    }

    /// One step returning the weighted RMS norm of its local error estimate; infinite (and
    /// y_new = y) when an iteration matrix is singular or the iteration fails.
    template <class F, class State, int N, class T = typename F::value_type>
    requires embedded_implicit_runge_kutta_tableau<Tableau> CUBIE_HD static T step_with_error(
        const F& f, T t, T dt, const State& y, const State& dydt, State& y_new, State& dydt_new,
        const tolerances<T, N>& tol, implicit_step_report& report) {
        stage_vectors<State> Z;
        return step_with_error(single_lane{}, f, t, dt, y, dydt, y_new, dydt_new, tol, Z, report);
    }

    /// As above, and hands back the stage increments Z for dense output.
    template <class F, class State, int N, class T = typename F::value_type>
    requires embedded_implicit_runge_kutta_tableau<Tableau> CUBIE_HD static T step_with_error(
        const F& f, T t, T dt, const State& y, const State& dydt, State& y_new, State& dydt_new,
        const tolerances<T, N>& tol, dense_stages_t<State>& Z, implicit_step_report& report) {
        return step_with_error(single_lane{}, f, t, dt, y, dydt, y_new, dydt_new, tol, Z, report);
    }

    /// The same steps taken by the lanes of g together (linear/lane_group.hpp), each lane
    /// holding and returning the whole state (see the top of this file).
    template <lane_group Group, class F, class State, class T = typename F::value_type>
    CUBIE_HD static void step(const Group& g, const F& f, T t, T dt, const State& y,
                              const State& dydt, State& y_new, State& /*dydt_new*/,
                              implicit_step_report& report) {
        constexpr int n = static_cast<int>(size_of<State>);
        iteration_matrices<F, T, n, false, Group> matrices;
        stage_vectors<State> Z;
        if (factor(g, f, t, dt, y, dydt, matrices, report) &&
            solve_stages(g, f, t, dt, y, fixed_step_newton_tolerances<T, n>(newton_kappa), matrices,
                         Z, report))
            y_new = advance(y, Z);
        else
            fail_fixed_step(y_new);
    }

    template <lane_group Group, class F, class State, int N, class T = typename F::value_type>
    requires embedded_implicit_runge_kutta_tableau<Tableau> CUBIE_HD static T step_with_error(
        const Group& g, const F& f, T t, T dt, const State& y, const State& dydt, State& y_new,
        State& dydt_new, const tolerances<T, N>& tol, implicit_step_report& report) {
        stage_vectors<State> Z;
        return step_with_error(g, f, t, dt, y, dydt, y_new, dydt_new, tol, Z, report);
    }

    template <lane_group Group, class F, class State, int N, class T = typename F::value_type>
    requires embedded_implicit_runge_kutta_tableau<Tableau> CUBIE_HD static T step_with_error(
        const Group& g, const F& f, T t, T dt, const State& y, const State& dydt, State& y_new,
        State& /*dydt_new*/, const tolerances<T, N>& tol, dense_stages_t<State>& Z,
        implicit_step_report& report) {
        constexpr int n = static_cast<int>(size_of<State>);
        iteration_matrices<F, T, n, true, Group> matrices;
        if (!factor(g, f, t, dt, y, dydt, matrices, report) ||
            !solve_stages(g, f, t, dt, y, tol, matrices, Z, report))
            return fail_adaptive_step(y, y_new);
        y_new = advance(y, Z);
        return error_norm(g, f, t, dt, y, dydt, y_new, tol, matrices, Z, report);
    }

    /// Nothing to evaluate: the increments are the interpolant's data.
    template <class F, class State, class T = typename F::value_type>
    requires embedded_implicit_runge_kutta_tableau<Tableau> CUBIE_HD static void
    prepare_dense_output(const F& /*f*/, T /*t*/, T /*dt*/, const State& /*y*/,
                         dense_stages_t<State>& /*Z*/) {}

    /// y(t + theta dt), 0 <= theta <= 1, from the step's start y and its increments Z: the
    /// collocation polynomial y + sum_i l_i(theta) Z_i.
    template <class State, class T>
    requires embedded_implicit_runge_kutta_tableau<Tableau> CUBIE_HD static void interpolate(
        T /*dt*/, const State& y, const dense_stages_t<State>& Z, T theta, State& out) {
        out = y;
        static_for<stages>([&](auto i) {
            // l_i(theta) = theta prod_{j != i} (theta - c_j) / (c_i prod_{j != i} (c_i - c_j))
            T w = T(lagrange_scale(i)) * theta;
            static_for<stages>([&](auto j) {
                if constexpr (j != i) w *= theta - T(Tableau::c[j]);
            });
            CUBIE_UNROLL
            for (cuda::std::size_t c = 0; c < size_of<State>; ++c) out[c] += w * Z[i][c];
        });
    }

private:
    template <class State>
    using stage_vectors = vector<State, stages>;

    static constexpr int blocks = eigenvalue_blocks<Tableau>();

    /// Index of block `block` among the blocks of its kind (real or complex).
    static constexpr int index_among_kind(int block) {
        int index = 0;
        for (int k = 0; k < block; ++k)
            if (real_block<Tableau>(k) == real_block<Tableau>(block)) ++index;
        return index;
    }
    static constexpr int real_blocks = [] {
        int count = 0;
        for (int k = 0; k < blocks; ++k) count += real_block<Tableau>(k) ? 1 : 0;
        return count;
    }();
    static constexpr int complex_blocks = blocks - real_blocks;

    /// The error filter (1 / (h gamma0)) I - J: the real block whose eigenvalue is 1 / gamma0,
    /// or -1 when none is (it then has a factorisation of its own).
    static constexpr int filter_block = [] {
        if constexpr (embedded_implicit_runge_kutta_tableau<Tableau>) {
            for (int k = 0; k < blocks; ++k) {
                const double product = Tableau::eigenvalues[k][0] * Tableau::gamma0;
                if (real_block<Tableau>(k) && product - 1 < 1e-13 && 1 - product < 1e-13) return k;
            }
        }
        return -1;
    }();

    /// 1 / (c_i prod_{j != i} (c_i - c_j)).
    static constexpr double lagrange_scale(int i) {
        double denominator = Tableau::c[i];
        for (int j = 0; j < stages; ++j)
            if (j != i) denominator *= Tableau::c[i] - Tableau::c[j];
        return 1 / denominator;
    }

    /// The step's factorisations: one real LU per real eigenvalue of A^-1 and one complex
    /// LU per pair, and, with Filter, the error filter's where it is not a block's: on one
    /// lane in F's system's pattern where it declares one (linear/iteration_lu.hpp).
    template <class F, class T, int n, bool Filter, class Group>
    struct iteration_matrices {
        static constexpr int own_filter = Filter && filter_block < 0 ? 1 : 0;
        using real_lu = iteration_lu<T, n, F, Group>;
        using complex_lu = iteration_lu<cuda::std::complex<T>, n, F, Group,
                                        keeps_thread_shared_for<implicit_runge_kutta, F>()>;
        vector<real_lu, real_blocks + own_filter> real;
        vector<complex_lu, complex_blocks> complex;

        CUBIE_HD const real_lu& filter() const {
            if constexpr (own_filter == 1)
                return real[real_blocks];
            else
                return real[index_among_kind(filter_block)];
        }
    };

    /// Factors every iteration matrix from one Jacobian at (t, y); false, with the report's
    /// failure set, when one is singular. Each lane forms its own rows (row lane + m G in
    /// its slot m); a row's diagonal element is chosen by a select, not a store at a
    /// lane-dependent index, which would put the rows in local memory (rosenbrock.hpp).
    template <class Group, class F, class State, class T, int n, bool Filter>
    CUBIE_HD static bool factor(const Group& g, const F& f, T t, T dt, const State& y,
                                const State& dydt,
                                iteration_matrices<F, T, n, Filter, Group>& matrices,
                                implicit_step_report& report) {
        using matrices_type = iteration_matrices<F, T, n, Filter, Group>;
        using complex = cuda::std::complex<T>;
        using own_rows = typename matrices_type::real_lu::rows_type;
        constexpr int G = Group::size;
        constexpr int slots = static_cast<int>(size_of<own_rows>);
        own_rows J;
        {
            typename dense_lu<T, n>::matrix whole_J;
            f.jacobian(t, y, dydt, whole_J);
            J = own_part(g, whole_J);
        }
        const int lane = g.lane();
        const T inverse_dt = T(1) / dt;
        // (diagonal / h) I - J
        auto real_factor = [&](auto& lu, T diagonal) {
            own_rows M;
            CUBIE_UNROLL
            for (int m = 0; m < slots; ++m) {
                CUBIE_UNROLL
                for (int j = 0; j < n; ++j) {
                    const T negated = -J[m][j];
                    M[m][j] = j == lane + m * G ? negated + diagonal * inverse_dt : negated;
                }
            }
            return lu.factor(g, M);
        };
        bool regular = true;
        static_for<blocks>([&](auto block) {
            if (!regular) return;
            constexpr double re = Tableau::eigenvalues[block][0];
            constexpr double im = Tableau::eigenvalues[block][1];
            if constexpr (real_block<Tableau>(block)) {
                regular = real_factor(matrices.real[index_among_kind(block)], T(re));
            } else {
                typename matrices_type::complex_lu::rows_type M;
                CUBIE_UNROLL
                for (int m = 0; m < slots; ++m) {
                    CUBIE_UNROLL
                    for (int j = 0; j < n; ++j)
                        M[m][j] = j == lane + m * G
                                      ? complex(T(re) * inverse_dt - J[m][j], T(im) * inverse_dt)
                                      : complex(-J[m][j], T(0));
                }
                regular = matrices.complex[index_among_kind(block)].factor(g, M);
            }
        });
        if constexpr (matrices_type::own_filter == 1) {
            if (regular)
                regular = real_factor(matrices.real[real_blocks], T(1.0 / Tableau::gamma0));
        }
        if (!regular) report.failure = step_failure::singular_matrix;
        return regular;
    }

    /// Z_i = sum_k T_ik W_k, component c.
    template <int i, class State>
    CUBIE_HD static auto transform(const stage_vectors<State>& W, int c) {
        typename State::value_type z = 0;
        static_for<stages>([&](auto k) {
            constexpr double t = Tableau::transformation[i][k];
            if constexpr (t != 0.0) z += typename State::value_type(t) * W[k][c];
        });
        return z;
    }

    /// b becomes M^-1 b, whole on every lane, with the LU of M whose rows the lanes share.
    template <class Group, class LU, class Vector>
    CUBIE_HD static void solve_in_place(const Group& g, const LU& lu, Vector& b) {
        auto part = own_part(g, b);
        b = lu.solve_whole(g, part);
    }

    /// The stage increments Z of a step by simplified Newton; false, with the report's
    /// failure set, when the iteration fails.
    template <class Group, class F, class State, int N, class T, int n, bool Filter>
    CUBIE_HD static bool solve_stages(const Group& g, const F& f, T t, T dt, const State& y,
                                      const tolerances<T, N>& tol,
                                      const iteration_matrices<F, T, n, Filter, Group>& matrices,
                                      stage_vectors<State>& Z, implicit_step_report& report) {
        using complex = cuda::std::complex<T>;
        State weight;  // 1 / (atol + rtol |y|)
        CUBIE_UNROLL
        for (int c = 0; c < n; ++c) weight[c] = T(1) / error_scale(tol, y, y, c);
        const T inverse_dt = T(1) / dt;
        const T kappa = T(newton_kappa);
        stage_vectors<State> W{};  // (T^-1 (x) I) Z, from Z = 0
        T eta = 1;                 // no rate before the second iteration
        T last_norm = 0;
        bool converged = false;
        for (int iteration = 0; iteration < max_newton_iterations; ++iteration) {
            // G = (T^-1 (x) I) F((T (x) I) W), one stage's f at a time.
            stage_vectors<State> G{};
            static_for<stages>([&](auto i) {
                State point, slope;
                CUBIE_UNROLL
                for (int c = 0; c < n; ++c) point[c] = y[c] + transform<i>(W, c);
                f(t + T(Tableau::c[i]) * dt, point, slope);
                static_for<stages>([&](auto k) {
                    constexpr double w = Tableau::inverse_transformation[k][i];
                    if constexpr (w != 0.0) {
                        CUBIE_UNROLL
                        for (int c = 0; c < n; ++c) G[k][c] += T(w) * slope[c];
                    }
                });
            });
            // G - h^-1 (Lambda (x) I) W, solved block by block in place: G becomes dW.
            static_for<blocks>([&](auto block) {
                constexpr int j = first_column<Tableau>(block);
                const T alpha = T(Tableau::eigenvalues[block][0]) * inverse_dt;
                if constexpr (real_block<Tableau>(block)) {
                    CUBIE_UNROLL
                    for (int c = 0; c < n; ++c) G[j][c] -= alpha * W[j][c];
                    solve_in_place(g, matrices.real[index_among_kind(block)], G[j]);
                } else {
                    const T beta = T(Tableau::eigenvalues[block][1]) * inverse_dt;
                    vector<complex, n> r;
                    CUBIE_UNROLL
                    for (int c = 0; c < n; ++c)
                        r[c] = complex(G[j][c] - (alpha * W[j][c] - beta * W[j + 1][c]),
                                       G[j + 1][c] - (beta * W[j][c] + alpha * W[j + 1][c]));
                    solve_in_place(g, matrices.complex[index_among_kind(block)], r);
                    CUBIE_UNROLL
                    for (int c = 0; c < n; ++c) {
                        G[j][c] = r[c].real();
                        G[j + 1][c] = r[c].imag();
                    }
                }
            });
            ++report.newton_iterations;
            report.linear_iterations += blocks;
            // ||dZ||, dZ = (T (x) I) dW, over every stage and component.
            T sum = 0;
            static_for<stages>([&](auto i) {
                CUBIE_UNROLL
                for (int c = 0; c < n; ++c) {
                    const T r = transform<i>(G, c) * weight[c];
                    sum += r * r;
                }
            });
            static_for<stages>([&](auto k) {
                CUBIE_UNROLL
                for (int c = 0; c < n; ++c) W[k][c] += G[k][c];
            });
            const T norm = cuda::std::sqrt(sum / T(stages * n));
            if (!cuda::std::isfinite(norm)) break;
            if (iteration > 0) {
                const T theta = norm / last_norm;
                if (theta >= T(1)) break;
                const T rate_eta = theta / (T(1) - theta);
                const int left = max_newton_iterations - 1 - iteration;
                if (cuda::std::pow(theta, T(left)) * rate_eta * norm > kappa) break;
                // The first ratio is no rate to converge on (see the comment at the top).
                if (iteration > 1) eta = rate_eta;
            }
            last_norm = norm;
            if (eta * norm <= kappa || norm == T(0)) {
                converged = true;
                break;
            }
        }
        if (!converged) {
            report.failure = step_failure::newton_divergence;
            return false;
        }
        static_for<stages>([&](auto i) {
            CUBIE_UNROLL
            for (int c = 0; c < n; ++c) Z[i][c] = transform<i>(W, c);
        });
        return true;
    }

    /// y + sum_i d_i Z_i.
    template <class State>
    CUBIE_HD static State advance(const State& y, const stage_vectors<State>& Z) {
        return with_weighted_stages<stages>(y, Z, typename State::value_type(1),
                                            [](int i) { return Tableau::d[i]; });
    }

    /// Hairer and Wanner's estimate (8.19), and (8.20) where (8.19) rejects, in the weighted
    /// RMS norm. With M = (1 / (h gamma0)) I - J = (I - h gamma0 J) / (h gamma0),
    ///   err = M^-1 (f(t, y) + (h gamma0)^-1 sum_i e_i Z_i).
    template <class Group, class F, class State, int N, class T, int n, bool Filter>
    CUBIE_HD static T error_norm(const Group& g, const F& f, T t, T dt, const State& y,
                                 const State& dydt, const State& y_new, const tolerances<T, N>& tol,
                                 const iteration_matrices<F, T, n, Filter, Group>& matrices,
                                 const stage_vectors<State>& Z, implicit_step_report& report) {
        State combination{};  // (h gamma0)^-1 sum_i e_i Z_i
        add_weighted_stages<stages>(combination, Z, T(1) / dt,
                                    [](int i) { return Tableau::e[i] / Tableau::gamma0; });
        State error;
        CUBIE_UNROLL
        for (int c = 0; c < n; ++c) error[c] = dydt[c] + combination[c];
        solve_in_place(g, matrices.filter(), error);
        ++report.linear_iterations;
        const T norm = weighted_rms_norm(error, tol, y, y_new);
        if (!(norm > T(1)) || !cuda::std::isfinite(norm)) return norm;

        State point, slope;
        CUBIE_UNROLL
        for (int c = 0; c < n; ++c) point[c] = y[c] + error[c];
        f(t, point, slope);
        CUBIE_UNROLL
        for (int c = 0; c < n; ++c) error[c] = slope[c] + combination[c];
        solve_in_place(g, matrices.filter(), error);
        ++report.linear_iterations;
        return weighted_rms_norm(error, tol, y, y_new);
    }
};

/// The cuda backend's variant of an implicit Runge-Kutta method whose complex factors fit
/// shared memory.
template <implicit_runge_kutta_tableau Tableau, class System>
struct thread_shared_variant<implicit_runge_kutta<Tableau, false>, System> {
    using method = implicit_runge_kutta<Tableau, false>;
    using type = cuda::std::conditional_t<method::template complex_factors_to_shared_memory<System>,
                                          implicit_runge_kutta<Tableau, true>, method>;
};

}  // namespace cubie
