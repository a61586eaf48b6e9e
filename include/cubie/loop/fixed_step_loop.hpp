#pragma once
// The fixed-step loop of integrate(): steps of dt from t0, the last of a length computed in
// double so that it ends on t_end. Time of step i is t0 + i dt, never an accumulated sum.
//
// Every step but the last has the same dt, so the products of dt and the tableau's
// coefficients are loop invariants. Explicit methods check finiteness once per block of
// steps rather than after each (unchecked_blocks, recorded_blocks); the checked steps
// (checked_step) take what the blocks leave, and retake a block that ends non-finite.

#include <cuda/std/cmath>
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

template <stepper Algorithm, class Controller, class System, class Recorder,
          class Monitor = no_event_monitor>
class fixed_step_loop {
    using T = typename System::value_type;
    using settings_type = integration_settings<Algorithm, Controller, System>;
    static constexpr bool watches = Monitor::watches;

public:
    /// An explicit loop that records nothing and watches no events checks its inputs after
    /// its first blocks of steps; every other loop is given finite inputs.
    static constexpr bool unchecked_inputs =
        !Recorder::records && !is_implicit<Algorithm>() && !watches;

    CUBIE_HD fixed_step_loop(const settings_type& s, const right_hand_side<System>& f,
                             state_t<System>& y, step_counters& counters, Recorder& recorder,
                             Monitor& monitor)
        : s_(s), f_(f), y_(y), counters_(counters), recorder_(recorder), monitor_(monitor) {}

    CUBIE_HD status run(bool finite_input) {
        const std::uint32_t n = s_.fixed_steps;
        if constexpr (Algorithm::fsal) f_(s_.t0, y_, dydt_);
        if constexpr (unchecked_inputs) {
            if (!unchecked_blocks(finite_input)) return status::nonfinite_input;
        }
        if constexpr (Recorder::records && !is_implicit<Algorithm>() && !watches) {
            if (!recorded_blocks()) return failed();
        }
        if (n == 0) return status::success;
#if defined(__CUDA_ARCH__)
#pragma unroll 2
#endif
        // Two steps per iteration on the device (above): 10% faster for RK4 on Lorenz at
        // N >= 2^20 (bench/RESULTS.md), at some cost for batches too small to fill the device.
        for (; i_ + 1 < n; ++i_)
            if (!checked_step(time_of(i_), s_.dt, time_of(i_ + 1))) return failed();
        if (!checked_step(time_of(n - 1), s_.last_dt, s_.t_end)) return failed();
        return status::success;
    }

private:
    CUBIE_HD T time_of(std::uint32_t i) const {
        return s_.t0 + T(i) * s_.dt;
    }

    CUBIE_HD status failed() const {
        if constexpr (watches)
            if (terminated_) return status::terminated_by_event;
        return failure_ != step_failure::none ? status_of(failure_) : status::nonfinite_state;
    }

    /// Output times are whole numbers of steps: those within half a step of the time a step
    /// reached are due, or within half the shortened last step, so that t_end is left to it.
    CUBIE_HD bool output_due(T reached) const {
        return recorder_.next_time() <=
               reached + cuda::std::fmin(s_.dt / T(2), (s_.t_end - reached) / T(2));
    }

    /// A step of h from t, false where it ends non-finite; outputs due at `reached` (t + h
    /// but for the last step's, which is t_end) are taken after it.
    CUBIE_HD bool checked_step(T t, T h, T reached) {
        if constexpr (watches) return watched_step(t, h, reached);
        if constexpr (!Algorithm::fsal) f_(t, y_, dydt_);
        attempt_step<Algorithm>(f_, t, h, y_, dydt_, y_new_, dydt_new_, counters_, failure_);
        if (!all_finite(y_new_)) return false;
        y_ = y_new_;
        if constexpr (Algorithm::fsal) dydt_ = dydt_new_;
        ++counters_.accepted;
        if constexpr (Recorder::records)
            while (output_due(reached)) recorder_.record(f_, reached, y_, counters_);
        return true;
    }

    /// checked_step with events: an acting event ends the step where it fired, and a
    /// step to `reached` follows. False where a step ends non-finite or an event terminated
    /// the trajectory (terminated_).
    CUBIE_HD bool watched_step(T t, T h, T reached) {
        using interpolant = step_interpolant<Algorithm, System, false>;
        for (;;) {
            // f(t, y) anew at every step, or, for FSAL methods, after an event acted.
            if (!Algorithm::fsal || restart_) f_(t, y_, dydt_);
            restart_ = false;
            attempt_step<Algorithm>(f_, t, h, y_, dydt_, y_new_, dydt_new_, counters_, failure_);
            if (!all_finite(y_new_)) return false;
            typename dense_stages_of<Algorithm, state_t<System>, false>::type no_stages{};
            interpolant inside(f_, t, h, reached, y_, dydt_, y_new_, dydt_new_, no_stages);
            const step_span<T> span{T(0), t, h, reached};
            const event_stop<T> stop = monitor_.after_step(f_, span, y_new_, inside);
            y_ = y_new_;
            if constexpr (Algorithm::fsal) dydt_ = dydt_new_;
            ++counters_.accepted;
            restart_ = stop.stopped;
            terminated_ = stop.terminated;
            if (!stop.stopped || stop.theta >= 1 || stop.terminated) {
                if (!stop.stopped || stop.theta >= 1) record_at(reached);
                return !terminated_;
            }
            t = span.time(stop.theta);  // on from the event to the grid
            h = reached - t;
            if (!(h > 0)) break;
        }
        record_at(reached);
        return true;
    }

    /// The outputs due at the grid time `reached`.
    CUBIE_HD void record_at(T reached) {
        if constexpr (Recorder::records)
            while (output_due(reached)) recorder_.record(f_, reached, y_, counters_);
    }

    /// Step i of dt without the finiteness check (explicit methods only).
    CUBIE_HD void unchecked_step(std::uint32_t i) {
        if constexpr (!Algorithm::fsal) f_(time_of(i), y_, dydt_);
        attempt_step<Algorithm>(f_, time_of(i), s_.dt, y_, dydt_, y_new_, dydt_new_, counters_,
                                failure_);
        y_ = y_new_;
        if constexpr (Algorithm::fsal) dydt_ = dydt_new_;
    }

    /// An explicit step carries a non-finite component into every later state (y_new = y +
    /// ...), so with nothing recorded on the way, finiteness is checked once per block of
    /// steps rather than after each. A block that ends non-finite sends the trajectory back
    /// to its start, to be taken again by checked_step, which stops at the same step as
    /// ever, with the last finite state and the steps that reached it. Failing trajectories
    /// pay for the steps taken twice. Returns false, with y back at its start, for
    /// non-finite inputs.
    ///
    /// Non-finite inputs take the same way back rather than a branch around the loop: inside
    /// such a branch nvcc keeps the loop invariants dt * a_ij out of the uniform registers,
    /// and the extra reads of the register file cost RK4 on Lorenz 4% (bench/RESULTS.md).
    /// The blocks of the smallest systems are unrolled on the device: 32 steps for up to 3
    /// states, 24 for 4 (measured on Lorenz and Lorenz 96). Larger systems take blocks of 32
    /// steps in a loop: unrolled (96 / n_states steps), Lorenz 96's RK4 with 8 to 128 sites
    /// ran 1.1 to 1.7 times slower.
    CUBIE_HD bool unchecked_blocks(bool finite_input) {
        [[maybe_unused]] constexpr bool unrolled = System::n_states <= 4;
        constexpr std::uint32_t block = System::n_states == 4 ? 24 : 32;
        const std::uint32_t n = s_.fixed_steps;
        const state_t<System> y_start = y_, dydt_start = dydt_;
        bool retake = false;
        for (; i_ + block < n; i_ += block) {
#if defined(__CUDA_ARCH__)
#pragma unroll(unrolled ? block : 1)
#endif
            for (std::uint32_t j = 0; j < block; ++j) unchecked_step(i_ + j);
            if (!all_finite(y_)) {
                retake = true;
                break;
            }
        }
        if (!finite_input) {
            y_ = y_start;
            return false;
        }
        if (retake) {
            y_ = y_start;
            dydt_ = dydt_start;
            i_ = 0;
        } else {
            counters_.accepted += i_;
        }
        return true;
    }

    /// Recording, the steps from one output to the next go unchecked in the same way: a
    /// block ends at the step after which the next output is due, and finiteness is checked
    /// before that output is taken. A block that ends non-finite is taken again by
    /// checked_step. The last step, and those after the last output due before it, are left
    /// to the checked steps. (With both after every step, RK4 on Lorenz saving every 10
    /// steps took 1.8 to 2.4 times the hand-written kernel's time; 1.1 to 1.25 in blocks:
    /// bench/RESULTS.md.) Returns false where a checked step failed.
    CUBIE_HD bool recorded_blocks() {
        const std::uint32_t n = s_.fixed_steps;
        const T steps_per_time = T(1) / s_.dt;
        auto due_after_step = [&](std::uint32_t j) { return output_due(time_of(j) + s_.dt); };
        while (i_ + 1 < n) {
            // The first step j >= i after which an output is due: estimated, then settled
            // by the rule itself.
            const T ahead = (recorder_.next_time() - s_.t0) * steps_per_time - T(1);
            std::uint32_t j = !(ahead > T(i_))   ? i_
                              : ahead < T(n - 1) ? static_cast<std::uint32_t>(ahead)
                                                 : n - 1;
            while (j > i_ && due_after_step(j - 1)) --j;
            while (j + 1 < n && !due_after_step(j)) ++j;
            if (j + 1 >= n) break;
            const state_t<System> y_block = y_;
            [[maybe_unused]] const state_t<System> dydt_block = dydt_;
            for (std::uint32_t k = i_; k <= j; ++k) unchecked_step(k);
            if (!all_finite(y_)) {
                y_ = y_block;
                if constexpr (Algorithm::fsal) dydt_ = dydt_block;
                for (; i_ <= j; ++i_)
                    if (!checked_step(time_of(i_), s_.dt, time_of(i_ + 1))) return false;
                continue;
            }
            counters_.accepted += j + 1 - i_;
            i_ = j + 1;
            const T reached = time_of(j) + s_.dt;
            while (output_due(reached)) recorder_.record(f_, reached, y_, counters_);
        }
        return true;
    }

    const settings_type& s_;
    const right_hand_side<System>& f_;
    state_t<System>& y_;
    step_counters& counters_;
    Recorder& recorder_;
    Monitor& monitor_;
    state_t<System> dydt_{}, y_new_{}, dydt_new_{};
    step_failure failure_ = step_failure::none;
    std::uint32_t i_ = 0;      ///< the next step to take
    bool terminated_ = false;  ///< an event ended the trajectory (watched steps)
    bool restart_ = false;     ///< an event acted: f(t, y) is no longer dydt_
};

}  // namespace cubie::detail
