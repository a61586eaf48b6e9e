#pragma once
// integrate(): one trajectory from t0 to t_end. Public, __host__ __device__: the batch
// backends call it once per trajectory, and users may call it from their own kernels.
//
// The loop keeps f(t, y) between steps: a rejected step never re-evaluates it, and FSAL
// methods take it from their last stage. Time of fixed step i is t0 + i dt (never an
// accumulated sum), and the last step, of a length computed in double, ends on t_end.
// Adaptive steps advance the time since t0, so the state covers t_end - t0 as computed in
// double, however far from 0 the span lies.

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/algorithms/implicit_step.hpp"
#include "cubie/controllers/controller.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/status.hpp"
#include "cubie/loop/integration_settings.hpp"
#include "cubie/loop/right_hand_side.hpp"
#include "cubie/loop/step_counters.hpp"
#include "cubie/outputs/output_recorder.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

namespace detail {

/// Algorithms with a continuous extension (interpolant) declare has_dense_output.
template <class Algorithm>
constexpr bool has_dense_output() {
    if constexpr (requires { Algorithm::has_dense_output; })
        return Algorithm::has_dense_output;
    else
        return false;
}

/// The stage derivatives an interpolating loop keeps across a step; nothing otherwise.
template <class Algorithm, class State, bool Interpolates>
struct dense_stages_of {
    struct type {};
};
template <class Algorithm, class State>
struct dense_stages_of<Algorithm, State, true> {
    using type = typename Algorithm::template dense_stages_t<State>;
};

template <class T, cuda::std::size_t N>
CUBIE_HD bool all_finite(const cuda::std::array<T, N>& v) {
    bool ok = true;
    if constexpr (N > 0) {
        CUBIE_UNROLL
        for (cuda::std::size_t i = 0; i < N; ++i) ok = ok && cuda::std::isfinite(v[i]);
    }
    return ok;
}

/// One attempted step: Algorithm's step, or step_with_error when given tolerances, with the
/// dense stages k when the loop interpolates and an implicit_step_report when the method is
/// implicit. Returns the error norm (0 for `step`); adds an implicit method's work to the
/// counters and keeps why it failed in `failure`.
template <class Algorithm, class... Tail, class F, class T, class State>
CUBIE_HD T attempt_step(const F& f, T t, T h, const State& y, const State& dydt, State& y_new,
                        State& dydt_new, step_counters& counters, step_failure& failure,
                        Tail&... tail) {
    if constexpr (is_implicit<Algorithm>()) {
        implicit_step_report report{};
        T err = 0;
        if constexpr (sizeof...(Tail) == 0)
            Algorithm::step(f, t, h, y, dydt, y_new, dydt_new, report);
        else
            err = Algorithm::step_with_error(f, t, h, y, dydt, y_new, dydt_new, tail..., report);
        counters.newton_iterations += report.newton_iterations;
        counters.linear_iterations += report.linear_iterations;
        failure = report.failure;
        return err;
    } else if constexpr (sizeof...(Tail) == 0) {
        Algorithm::step(f, t, h, y, dydt, y_new, dydt_new);
        return T(0);
    } else {
        return Algorithm::step_with_error(f, t, h, y, dydt, y_new, dydt_new, tail...);
    }
}

}  // namespace detail

/// Integrates y from settings.t0 to settings.t_end. On return y holds the state at t_end,
/// or the last finite state reached when the status is not success.
///
/// The recorder (outputs/output_recorder.hpp) names the next time it needs the state at,
/// next_time(), and takes it, record(f, t, y, counters); one whose `records` is false costs
/// nothing. Fixed steps reach those times within half a step (they are whole numbers of
/// steps). Adaptive methods with a continuous extension interpolate inside their steps,
/// so outputs never shorten a step; other adaptive methods shorten the step that would
/// pass an output time so that it lands on it. Output times after a failure are never
/// recorded.
///
/// An implicit method's step that fails (algorithms/implicit_step.hpp) is rejected like one
/// with an infinite error; a trajectory whose step then underflows, or whose fixed step
/// fails, ends with the status of that failure.
template <class Algorithm, step_controller Controller, ode_system System, class Recorder>
CUBIE_HD status integrate(const System& sys,
                          const integration_settings<Algorithm, Controller, System>& s,
                          state_t<System>& y, const parameters_t<System>& p,
                          step_counters& counters, Recorder& recorder) {
    using T = typename System::value_type;
    // An explicit fixed-step loop that records nothing checks its inputs after its first
    // blocks of steps (below); every other loop turns non-finite inputs away here.
    constexpr bool unchecked_blocks =
        !Controller::adaptive && !Recorder::records && !is_implicit<Algorithm>();
    const bool finite_input = detail::all_finite(y) && detail::all_finite(p);
    if (!unchecked_blocks && !finite_input) return status::nonfinite_input;
    const right_hand_side<System> f{sys, p, s.drivers};
    if constexpr (Recorder::records)
        while (recorder.next_time() <= s.t0) recorder.record(f, s.t0, y, counters);

    state_t<System> dydt{}, y_new{}, dydt_new{};

    if constexpr (!Controller::adaptive) {
        // Every step but the last has the same dt, so the products of dt and the tableau's
        // coefficients are loop invariants; the last step lands on t_end.
        const std::uint32_t n = s.fixed_steps;
        [[maybe_unused]] const T half_step = s.dt / T(2);
        step_failure failure = step_failure::none;
        auto failed = [&] {
            return failure != step_failure::none ? status_of(failure) : status::nonfinite_state;
        };
        // Output times are whole numbers of steps: those within half a step of the time a
        // step reached are due, or within half the shortened last step, so that t_end is
        // left to it.
        [[maybe_unused]] auto output_due = [&](T reached) {
            return recorder.next_time() <=
                   reached + cuda::std::fmin(half_step, (s.t_end - reached) / T(2));
        };
        // A step of h from t; outputs due at `reached` (t + h but for the last step's,
        // which is t_end) are taken after it.
        auto fixed_step_from = [&](T t, T h, T reached) {
            if constexpr (!Algorithm::fsal) f(t, y, dydt);
            detail::attempt_step<Algorithm>(f, t, h, y, dydt, y_new, dydt_new, counters, failure);
            if (!detail::all_finite(y_new)) return false;
            y = y_new;
            if constexpr (Algorithm::fsal) dydt = dydt_new;
            ++counters.accepted;
            if constexpr (Recorder::records)
                while (output_due(reached)) recorder.record(f, reached, y, counters);
            return true;
        };
        // Step i of dt without the finiteness check (explicit methods only, see below).
        [[maybe_unused]] auto unchecked_step = [&](std::uint32_t i) {
            if constexpr (!Algorithm::fsal) f(s.t0 + T(i) * s.dt, y, dydt);
            detail::attempt_step<Algorithm>(f, s.t0 + T(i) * s.dt, s.dt, y, dydt, y_new, dydt_new,
                                            counters, failure);
            y = y_new;
            if constexpr (Algorithm::fsal) dydt = dydt_new;
        };
        if constexpr (Algorithm::fsal) f(s.t0, y, dydt);
        std::uint32_t i = 0;
        if constexpr (unchecked_blocks) {
            // An explicit step carries a non-finite component into every later state (y_new =
            // y + ...), so with nothing recorded on the way, finiteness is checked once per
            // block of steps rather than after each. A block that ends non-finite sends the
            // trajectory back to its start, to be taken again with the check after each step
            // below, which stops at the same step as ever, with the last finite state and the
            // steps that reached it. Failing trajectories pay for the steps taken twice.
            //
            // Non-finite inputs take the same way back rather than a branch around the loop:
            // inside such a branch nvcc keeps the loop invariants dt * a_ij out of the uniform
            // registers, and the extra reads of the register file cost RK4 on Lorenz 4%
            // (bench/RESULTS.md). The blocks of the smallest systems are unrolled on the
            // device: 32 steps for up to 3 states, 24 for 4 (measured on Lorenz and Lorenz 96).
            // Larger systems take blocks of 32 steps in a loop: unrolled (96 / n_states steps),
            // Lorenz 96's RK4 with 8 to 128 sites ran 1.1 to 1.7 times slower.
            [[maybe_unused]] constexpr bool unrolled = System::n_states <= 4;
            constexpr std::uint32_t block = System::n_states == 4 ? 24 : 32;
            const state_t<System> y_start = y, dydt_start = dydt;
            bool retake = false;
            for (; i + block < n; i += block) {
#if defined(__CUDA_ARCH__)
#pragma unroll(unrolled ? block : 1)
#endif
                for (std::uint32_t j = 0; j < block; ++j) unchecked_step(i + j);
                if (!detail::all_finite(y)) {
                    retake = true;
                    break;
                }
            }
            if (!finite_input) {
                y = y_start;
                return status::nonfinite_input;
            }
            if (retake) {
                y = y_start;
                dydt = dydt_start;
                i = 0;
            } else {
                counters.accepted += i;
            }
        }
        if constexpr (Recorder::records && !is_implicit<Algorithm>()) {
            // Recording, the steps from one output to the next go unchecked in the same way:
            // a block ends at the step after which the next output is due, and finiteness is
            // checked before that output is taken. A block that ends non-finite is taken
            // again with the check after each step. The last step, and those after the last
            // output due before it, are left to the checked loop below. (With both after
            // every step, RK4 on Lorenz saving every 10 steps took 1.8 to 2.4 times the
            // hand-written kernel's time; 1.1 to 1.25 in blocks: bench/RESULTS.md.)
            const T steps_per_time = T(1) / s.dt;
            auto due_after_step = [&](std::uint32_t j) {
                return output_due(s.t0 + T(j) * s.dt + s.dt);
            };
            while (i + 1 < n) {
                // The first step j >= i after which an output is due: estimated, then
                // settled by the rule itself.
                const T ahead = (recorder.next_time() - s.t0) * steps_per_time - T(1);
                std::uint32_t j = !(ahead > T(i))    ? i
                                  : ahead < T(n - 1) ? static_cast<std::uint32_t>(ahead)
                                                     : n - 1;
                while (j > i && due_after_step(j - 1)) --j;
                while (j + 1 < n && !due_after_step(j)) ++j;
                if (j + 1 >= n) break;
                const state_t<System> y_block = y;
                [[maybe_unused]] const state_t<System> dydt_block = dydt;
                for (std::uint32_t k = i; k <= j; ++k) unchecked_step(k);
                if (!detail::all_finite(y)) {
                    y = y_block;
                    if constexpr (Algorithm::fsal) dydt = dydt_block;
                    for (; i <= j; ++i)
                        if (!fixed_step_from(s.t0 + T(i) * s.dt, s.dt, s.t0 + T(i + 1) * s.dt))
                            return failed();
                    continue;
                }
                counters.accepted += j + 1 - i;
                i = j + 1;
                const T reached = s.t0 + T(j) * s.dt + s.dt;
                while (output_due(reached)) recorder.record(f, reached, y, counters);
            }
        }
        if (n == 0) return status::success;
#if defined(__CUDA_ARCH__)
#pragma unroll 2
#endif
        // Two steps per iteration on the device (above): 10% faster for RK4 on Lorenz at
        // N >= 2^20 (bench/RESULTS.md), at some cost for batches too small to fill the device.
        for (; i + 1 < n; ++i)
            if (!fixed_step_from(s.t0 + T(i) * s.dt, s.dt, s.t0 + T(i + 1) * s.dt)) return failed();
        if (!fixed_step_from(s.t0 + T(n - 1) * s.dt, s.last_dt, s.t_end)) return failed();
        return status::success;
    } else {
        bool dydt_current = false;  // f(t, y) already known? (kept across rejections)
        auto derivative_at = [&](T t) {
            if (!dydt_current) f(t, y, dydt);
            dydt_current = true;
        };
        // After an accepted step: FSAL methods hand over f(t_new, y_new).
        auto advance = [&]() {
            y = y_new;
            if constexpr (Algorithm::fsal) dydt = dydt_new;
            dydt_current = Algorithm::fsal;
            ++counters.accepted;
        };
        // Outputs inside a step come from the method's interpolant when it has one.
        constexpr bool interpolates = Recorder::records && detail::has_dense_output<Algorithm>();
        typename detail::dense_stages_of<Algorithm, state_t<System>, interpolates>::type k{};
        typename Controller::template state<T> controller_state{};
        // The loop runs on the time since t0, which the state advances with exactly: far
        // from t = 0 the working precision's own times are coarse, and its t_end - t0
        // would carry the rounding of both ends. The system and the outputs see t0 plus
        // it; steps are those it can take, (elapsed + dt) - elapsed.
        // Settings whose ends were edited by hand rather than through over() keep the
        // difference of those ends; otherwise the span as computed in double.
        const T ends = s.t_end - s.t0;
        const T duration =
            cuda::std::fabs(ends - s.duration) <=
                    T(4) * cuda::std::numeric_limits<T>::epsilon() *
                        cuda::std::fmax(cuda::std::fabs(s.t0), cuda::std::fabs(s.t_end))
                ? s.duration
                : ends;
        T elapsed = 0;
        auto time_at = [&](T since_t0) { return since_t0 < duration ? s.t0 + since_t0 : s.t_end; };
        // When the next output is due, since t0 (t_end's at the duration).
        [[maybe_unused]] auto output_due_at = [&] { return recorder.next_since_t0(); };
        T dt = cuda::std::fmin(s.dt, s.dt_max);
        step_failure last_failure = step_failure::none;  // of an implicit method's step
        while (elapsed < duration) {
            if (counters.accepted + counters.rejected >= s.max_steps)
                return status::max_steps_exceeded;
            // Land on the next stop, t_end or (without an interpolant) an output time;
            // stretch by up to 1% rather than leave a sliver (Hairer).
            T stop = duration;
            if constexpr (Recorder::records && !interpolates)
                stop = cuda::std::fmin(stop, output_due_at());
            const bool to_stop = elapsed + T(1.01) * dt >= stop;
            const T h = to_stop ? stop - elapsed : (elapsed + dt) - elapsed;
            const T t = s.t0 + elapsed;
            derivative_at(t);
            T err;
            if constexpr (interpolates)
                err = detail::attempt_step<Algorithm>(f, t, h, y, dydt, y_new, dydt_new, counters,
                                                      last_failure, s.tol, k);
            else
                err = detail::attempt_step<Algorithm>(f, t, h, y, dydt, y_new, dydt_new, counters,
                                                      last_failure, s.tol);
            const bool finite = cuda::std::isfinite(err) && detail::all_finite(y_new);
            const step_decision<T> decision =
                Controller::decide(s.controller, controller_state, h,
                                   finite ? err : cuda::std::numeric_limits<T>::quiet_NaN());
            T dt_next = decision.factor * h;
            if (decision.accept) {
                const T elapsed_new = to_stop ? stop : elapsed + h;
                if constexpr (interpolates) {
                    if (output_due_at() < elapsed_new) {
                        Algorithm::prepare_dense_output(f, t, h, y, k);
                        step_counters reached = counters;  // this step counts towards them
                        ++reached.accepted;
                        while (output_due_at() < elapsed_new) {
                            state_t<System> y_out{};
                            Algorithm::interpolate(h, y, k, (output_due_at() - elapsed) / h, y_out);
                            recorder.record(f, recorder.next_time(), y_out, reached);
                        }
                    }
                }
                advance();
                elapsed = elapsed_new;
                if constexpr (Recorder::records)
                    while (output_due_at() <= elapsed)
                        recorder.record(f, time_at(elapsed), y, counters);
                if (elapsed >= duration) break;
                // A step shortened to reach an output time says nothing against the step
                // the controller had proposed.
                if (to_stop) dt_next = cuda::std::fmax(dt_next, dt);
            } else {
                ++counters.rejected;
            }
            dt = cuda::std::fmin(dt_next, s.dt_max);
            if (dt < s.dt_min || elapsed + dt == elapsed) {
                if (last_failure != step_failure::none) return status_of(last_failure);
                // The last attempt's state says why: an error norm that overflows from a
                // finite state (a tolerance far below its size) asked for too short a step.
                return detail::all_finite(y_new) ? status::step_size_underflow
                                                 : status::nonfinite_state;
            }
        }
        return status::success;
    }
}

/// Integrates y from settings.t0 to settings.t_end, recording nothing on the way.
template <class Algorithm, step_controller Controller, ode_system System>
CUBIE_HD status integrate(const System& sys,
                          const integration_settings<Algorithm, Controller, System>& s,
                          state_t<System>& y, const parameters_t<System>& p,
                          step_counters& counters) {
    no_recorder<System> nothing;
    return integrate<Algorithm, Controller>(sys, s, y, p, counters, nothing);
}

}  // namespace cubie
