#pragma once
// The fixed-step loop of integrate(): steps of dt from t0, the last of a length computed in
// double so that it ends on t_end. Time of step i is t0 + i dt, never an accumulated sum.
//
// Its parts: checked steps (fixed_step_from), which stop at the first non-finite state;
// for explicit methods, blocks of unchecked steps (unchecked_step), finiteness checked once
// per block, with nothing recorded (the first block below) or up to the next output (the
// second). A block that ends non-finite is taken again by checked steps.
//
// Output times are whole numbers of steps: the recorder names the number of steps after
// which the next output is due (output_schedule::by_step), so no output time is compared
// with a step's.
//
// The loop keeps its state in local variables and its parts in lambdas: as members of an
// object, RK4 on Lorenz ran 6% longer (bench/RESULTS.md).
//
// With events every step is a checked one, watched (watched_step_from): a crossing is
// located on the step's Hermite interpolant; an acting event ends the step there, and a
// step from the event to the grid time it was going to reach follows, after which the grid
// resumes.

#include <cuda/std/cstdint>

#include "cubie/algorithms/stepper.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/status.hpp"
#include "cubie/core/step_counters.hpp"
#include "cubie/events/event_monitor.hpp"
#include "cubie/loop/integration_settings.hpp"
#include "cubie/loop/step_attempt.hpp"
#include "cubie/loop/step_interpolant.hpp"
#include "cubie/systems/right_hand_side.hpp"

namespace cubie::detail {

/// An explicit loop that records nothing and watches no events checks its inputs after its
/// first blocks of steps; every other loop is given finite inputs.
template <class Algorithm, class Recorder, class Monitor = no_event_monitor>
constexpr bool checks_inputs_in_blocks =
    !Recorder::records && !is_implicit<Algorithm>() && !Monitor::watches;

/// Integrates y over the fixed steps of s; finite_input says whether y and the parameters
/// were finite (only a loop that checks_inputs_in_blocks is given non-finite ones).
template <stepper Algorithm, class Controller, class System, class Recorder, class Monitor>
CUBIE_HD status fixed_step_loop(const integration_settings<Algorithm, Controller, System>& s,
                                const right_hand_side<System>& f, state_t<System>& y,
                                step_counters& counters, Recorder& recorder,
                                [[maybe_unused]] Monitor& monitor, bool finite_input) {
    using T = typename System::value_type;
    constexpr bool unchecked_blocks = checks_inputs_in_blocks<Algorithm, Recorder, Monitor>;
    state_t<System> dydt{}, y_new{}, dydt_new{};
    // Every step but the last has the same dt, so the products of dt and the tableau's
    // coefficients are loop invariants; the last step lands on t_end.
    const std::uint32_t n = s.fixed_steps;
    step_failure failure = step_failure::none;
    [[maybe_unused]] bool terminated = false;  // by an event
    auto failed = [&] {
        if constexpr (Monitor::watches)
            if (terminated) return status::terminated_by_event;
        return failure != step_failure::none ? status_of(failure) : status::nonfinite_state;
    };
    // The outputs due once `taken` steps are taken, at time `reached`.
    [[maybe_unused]] auto record_at = [&](std::uint32_t taken, T reached) {
        if constexpr (Recorder::records)
            while (recorder.next_step() == taken) recorder.record(f, reached, y, counters);
    };
    [[maybe_unused]] bool restart = false;  // an event acted: f(t, y) is no longer dydt
    // Step `taken - 1`, of h from t; the outputs due after it, at `reached` (t + h but for
    // the last step's, which is t_end), are taken. With events, an acting event ends the
    // step where it fired and a step to `reached` follows; false where a step ends
    // non-finite or an event terminated the trajectory.
    auto fixed_step_from = [&](T t, T h, T reached, std::uint32_t taken) {
        if constexpr (Monitor::watches) {
            for (;;) {
                // f(t, y) anew at every step, or, for FSAL methods, after an event acted.
                if (!Algorithm::fsal || restart) f(t, y, dydt);
                restart = false;
                attempt_step<Algorithm>(f, t, h, y, dydt, y_new, dydt_new, counters, failure);
                if (!all_finite(y_new)) return false;
                typename dense_stages_of<Algorithm, state_t<System>, false>::type no_stages{};
                step_interpolant<Algorithm, System, false> inside(f, t, h, reached, y, dydt, y_new,
                                                                  dydt_new, no_stages);
                const step_span<T> span{T(0), t, h, reached};
                const event_stop<T> stop = monitor.after_step(f, span, y_new, inside);
                y = y_new;
                if constexpr (Algorithm::fsal) dydt = dydt_new;
                ++counters.accepted;
                restart = stop.stopped;
                terminated = stop.terminated;
                if (!stop.stopped || stop.theta >= 1 || stop.terminated) {
                    if (!stop.stopped || stop.theta >= 1) record_at(taken, reached);
                    return !terminated;
                }
                t = span.time(stop.theta);  // on from the event to the grid
                h = reached - t;
                if (!(h > 0)) break;
            }
            record_at(taken, reached);
            return true;
        } else {
            if constexpr (!Algorithm::fsal) f(t, y, dydt);
            attempt_step<Algorithm>(f, t, h, y, dydt, y_new, dydt_new, counters, failure);
            if (!all_finite(y_new)) return false;
            y = y_new;
            if constexpr (Algorithm::fsal) dydt = dydt_new;
            ++counters.accepted;
            record_at(taken, reached);
            return true;
        }
    };
    // Step i of dt without the finiteness check (explicit methods only, see below).
    [[maybe_unused]] auto unchecked_step = [&](std::uint32_t i) {
        if constexpr (!Algorithm::fsal) f(s.t0 + T(i) * s.dt, y, dydt);
        attempt_step<Algorithm>(f, s.t0 + T(i) * s.dt, s.dt, y, dydt, y_new, dydt_new, counters,
                                failure);
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
            if (!all_finite(y)) {
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
    if constexpr (Recorder::records && !is_implicit<Algorithm>() && !Monitor::watches) {
        // Recording, the steps from one output to the next go unchecked in the same way:
        // a block ends at the step after which the next output is due, which the recorder
        // names as a count of steps (no rule evaluated after each step), and finiteness is
        // checked before that output is taken. A block that ends non-finite is taken
        // again with the check after each step. The steps after the last output due
        // before the last step are left to the checked loop below. (With both after every
        // step, RK4 on Lorenz saving every 10 steps took 1.8 to 2.4 times the hand-written
        // kernel's time; 1.1 to 1.25 in blocks: bench/RESULTS.md.)
        for (;;) {
            const std::uint64_t due = recorder.next_step();  // > i: those at i are taken
            if (due >= n) break;
            if constexpr (Recorder::records_in_runs) {
                // A run of saves, or of summary samples inside a window, goes through with
                // finiteness checked at its end only (output_recorder::next_run()). One
                // that ends non-finite is taken again with the check after each step, which
                // saves as the run did up to the failure (a run of samples is ended before:
                // its window is never finished, and nothing is added to it twice). With the
                // check and the next output's step after each output, RK4 on Lorenz (an
                // H100, 2^20) took 2.80 times the final-only kernel summarised every step,
                // 1.39 in runs (the mean then a plain sum); 1.24 saving every 10 steps, 1.18
                // in runs. Two steps per iteration between saves, and samples one step apart
                // taken in pairs, brought saves from 1.22 to 1.11 and summaries (the mean a
                // compensated sum) from 1.58 to 1.42 on an H200 at 2^20 (bench/RESULTS.md).
                if (const auto run = recorder.next_run(); run.length > 1) {
                    const state_t<System> y_run = y;
                    [[maybe_unused]] const state_t<System> dydt_run = dydt;
                    std::uint32_t k = i;
                    recorder.visit_run(run, [&](auto kind) {
                        if constexpr (decltype(kind)::one_step) {
                            std::uint32_t j = 0;
                            auto take_one = [&] {
                                unchecked_step(k++);
                                recorder.take_in_run(kind, f, s.t0 + T(k) * s.dt, y, j++);
                            };
                            if (!recorder.opens_pair(kind, 0)) take_one();
                            const std::uint32_t pairs_end = j + ((run.length - j) & ~1u);
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
                            while (j != pairs_end) {
                                unchecked_step(k++);
                                const T t_first = s.t0 + T(k) * s.dt;
                                const state_t<System> y_first = y;
                                unchecked_step(k++);
                                recorder.take_pair_in_run(kind, f, t_first, y_first,
                                                          s.t0 + T(k) * s.dt, y, j);
                                j += 2;
                            }
                            if (j < run.length) take_one();
                        } else {
                            std::uint32_t end = static_cast<std::uint32_t>(due);
                            for (std::uint32_t j = 0; j < run.length; ++j, end += run.every) {
                                if constexpr (decltype(kind)::saves) {
                                    // Two steps per iteration, after the odd one out
                                    // (the while runs at most once).
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
                                    while ((end - k) % 2 != 0) unchecked_step(k++);
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
                                    for (; k < end; k += 2) {
                                        unchecked_step(k);
                                        unchecked_step(k + 1);
                                    }
                                } else {
                                    // One step per iteration: unrolled by two here as
                                    // well, the kernel summarising RK4 on Lorenz every
                                    // step ran 5% longer, though it never comes here.
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
                                    do  // end > k
                                        unchecked_step(k);
                                    while (++k < end);
                                }
                                recorder.take_in_run(kind, f, s.t0 + T(k) * s.dt, y, j);
                            }
                        }
                    });
                    if (all_finite(y)) {
                        recorder.end_run(run);
                        counters.accepted += k - i;
                        i = k;
                        continue;
                    }
                    y = y_run;
                    if constexpr (Algorithm::fsal) dydt = dydt_run;
                    const std::uint32_t run_end = recorder.run_end(run);
                    if constexpr (Recorder::samples_in_runs)
                        if (!run.saves) recorder.end_run(run);  // taken once, by the run
                    for (; i < k; ++i)
                        if (!fixed_step_from(s.t0 + T(i) * s.dt, s.dt, s.t0 + T(i + 1) * s.dt,
                                             i + 1)) {
                            recorder.after_failed_run(f, run, run_end);
                            return failed();
                        }
                    continue;  // the checked steps fail as the run did, but were they to
                               // finish it, its outputs are recorded once either way
                }
            }
            const auto end = static_cast<std::uint32_t>(due);
            const state_t<System> y_block = y;
            [[maybe_unused]] const state_t<System> dydt_block = dydt;
            // One step per iteration: summaries sampled every step make blocks of one
            // step, for which the compiler's unrolling by two adds a parity test, a
            // second exit test and 14 PTX instructions per block; blocks of 10 cost the
            // same either way.
            std::uint32_t k = i;
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
            do  // end > i
                unchecked_step(k);
            while (++k < end);
            if (!all_finite(y)) {
                y = y_block;
                if constexpr (Algorithm::fsal) dydt = dydt_block;
                for (; i < end; ++i)
                    if (!fixed_step_from(s.t0 + T(i) * s.dt, s.dt, s.t0 + T(i + 1) * s.dt, i + 1))
                        return failed();
                continue;
            }
            counters.accepted += end - i;
            i = end;
            const T reached = s.t0 + T(i) * s.dt;
            do  // `due` is this output's
                recorder.record(f, reached, y, counters);
            while (recorder.next_step() == i);
        }
    }
    if (n == 0) return status::success;
#if defined(__CUDA_ARCH__)
#pragma unroll 2
#endif
    // Two steps per iteration on the device (above): 10% faster for RK4 on Lorenz at
    // N >= 2^20 (bench/RESULTS.md), at some cost for batches too small to fill the device.
    for (; i + 1 < n; ++i)
        if (!fixed_step_from(s.t0 + T(i) * s.dt, s.dt, s.t0 + T(i + 1) * s.dt, i + 1))
            return failed();
    if (!fixed_step_from(s.t0 + T(n - 1) * s.dt, s.last_dt, s.t_end, n)) return failed();
    return status::success;
}

}  // namespace cubie::detail
