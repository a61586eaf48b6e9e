#pragma once
// The adaptive loop of integrate(): steps the controller sizes, from t0 to t_end.
//
// The loop runs on the time since t0, which the state advances with exactly: far from t = 0
// the working precision's own times are coarse, and its t_end - t0 would carry the rounding
// of both ends. The system and the outputs see t0 plus it; steps are those it can take,
// (elapsed + dt) - elapsed. f(t, y) is kept between steps: FSAL methods take it from their
// last stage, and a rejected step does not re-evaluate it, but where the method's later
// stages need its registers more (keeps_derivative).
//
// Each pass of the loop is: the next step (next_step: its length, landing on t_end or on
// an output time), its attempt (attempt), then accept (its events, outputs inside the step,
// advance, outputs at its end) or reject, and the controller's next dt (next_dt), which
// ends the trajectory where it underflows. Events (events/event_monitor.hpp) are one hook
// in accept: watch_events, compiled only for a solve that has them.
//
// The pass is written twice, in two shapes of the same arithmetic: run() loops over it and
// leaves at the first way out; advance() takes one pass, whose ways out after the
// controller's decision meet before it returns. The compiler lays out each shape's branches
// in its own way, and each was measurably the faster one for its caller (advance(), below);
// one body for both, or helpers for the lines they share, changed run()'s machine code.

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/algorithms/stepper.hpp"
#include "cubie/controllers/controller.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/status.hpp"
#include "cubie/core/step_counters.hpp"
#include "cubie/events/event_monitor.hpp"
#include "cubie/loop/integration_settings.hpp"
#include "cubie/loop/step_attempt.hpp"
#include "cubie/loop/step_interpolant.hpp"
#include "cubie/systems/right_hand_side.hpp"

namespace cubie::detail {

/// The span an adaptive loop covers: settings whose ends were edited by hand rather than
/// through over() keep the difference of those ends; otherwise the span as computed in
/// double.
template <class Settings, class T = typename Settings::value_type>
CUBIE_HD T adaptive_duration(const Settings& s) {
    const T ends = s.t_end - s.t0;
    return cuda::std::fabs(ends - s.duration) <=
                   T(4) * cuda::std::numeric_limits<T>::epsilon() *
                       cuda::std::fmax(cuda::std::fabs(s.t0), cuda::std::fabs(s.t_end))
               ? s.duration
               : ends;
}

template <stepper Algorithm, step_controller Controller, class System, class Recorder,
          class Monitor = no_event_monitor>
class adaptive_loop {
    using T = typename System::value_type;
    using settings_type = integration_settings<Algorithm, Controller, System>;

    /// Outputs inside a step come from the method's interpolant when it has one; otherwise
    /// the step that would pass an output time is shortened to land on it.
    static constexpr bool interpolates = Recorder::records && has_dense_output<Algorithm>();
    static constexpr bool watches = Monitor::watches;
    /// Events are located on the method's interpolant where it has one, so its stages are
    /// kept for them too; else on the step's Hermite interpolant.
    static constexpr bool dense = has_dense_output<Algorithm>() && (Recorder::records || watches);
    using interpolant = step_interpolant<Algorithm, System, dense>;

    /// f(t, y) kept across a rejected step, but where the algorithm's later stages need its
    /// registers more (stepper.hpp): a rejection then costs one more evaluation of f. An FSAL
    /// method's f comes from its last stage, and events and interpolated outputs read it
    /// after the attempt, so those keep it.
    static constexpr bool keeps_derivative =
        keeps_dydt_across_rejections<Algorithm>() || Algorithm::fsal || watches || interpolates;

    /// A step about to be attempted: from `elapsed` to `end` (since t0), of length h.
    struct planned_step {
        T h;
        T end;
        bool to_stop;  ///< shortened (or stretched) to land on t_end or an output time
    };

public:
    CUBIE_HD adaptive_loop(const settings_type& s, const right_hand_side<System>& f,
                           state_t<System>& y, step_counters& counters, Recorder& recorder,
                           Monitor& monitor)
        : s_(s),
          f_(f),
          y_(y),
          counters_(counters),
          recorder_(recorder),
          monitor_(monitor),
          duration_(adaptive_duration(s)),
          dt_(cuda::std::fmin(s.dt, s.dt_max)) {}

    /// The passes from t0 to t_end, or to the trajectory's end before it: its status.
    CUBIE_HD status run() {
        while (elapsed_ < duration_) {
            if (counters_.accepted + counters_.rejected >= s_.max_steps)
                return status::max_steps_exceeded;
            const planned_step step = next_step();
            const T err = attempt(step.h);
            const bool finite = cuda::std::isfinite(err) && all_finite(y_new_);
            const step_decision<T> decision =
                Controller::decide(s_.controller, controller_state_, step.h,
                                   finite ? err : cuda::std::numeric_limits<T>::quiet_NaN());
            T dt_next = decision.factor * step.h;
            if (decision.accept) {
                if (!accept(step)) return status::terminated_by_event;
                if (elapsed_ >= duration_) break;
                // A step shortened to reach an output time says nothing against the step
                // the controller had proposed.
                if (step.to_stop) dt_next = cuda::std::fmax(dt_next, dt_);
            } else {
                ++counters_.rejected;
            }
            if (!next_dt(dt_next)) return underflow();
            // Steps are whole spacings of the time since t0: a rejected step that the next
            // cannot undercut would be retried unchanged until max_steps (float Pleiades did
            // so from dt near one spacing); the step size has underflowed.
            if (!decision.accept && !(next_step().h < step.h)) return underflow();
        }
        return status::success;
    }

    /// One pass of run()'s loop (whose comments say why it does what it does): true while
    /// the trajectory goes on; false once it has ended, with its status in `result`. A
    /// caller may interleave trajectories between passes (balanced scheduling,
    /// batch/trajectory_task.hpp). After the controller's decision the pass has one way
    /// out, which keeps the lanes of a warp that accepted and those that rejected together
    /// for the rest of it: on an H200 (bench/RESULTS.md, divergent_bench at 2^24),
    /// balanced Tsit5 on a shuffled Lorenz sweep ran 1.11 times as fast as with run()'s
    /// shape. run() stays in its own: one trajectory per thread, Tsit5 on Lorenz and
    /// Rosenbrock23 on Van der Pol took 1.02 times as long with run() in this shape, and
    /// 1.04 to 1.08 with one body for both that left early only for run().
    CUBIE_HD bool advance(status& result) {
        result = status::success;
        if (!(elapsed_ < duration_)) return false;
        if (counters_.accepted + counters_.rejected >= s_.max_steps) {
            result = status::max_steps_exceeded;
            return false;
        }
        const planned_step step = next_step();
        const T err = attempt(step.h);
        const bool finite = cuda::std::isfinite(err) && all_finite(y_new_);
        const step_decision<T> decision =
            Controller::decide(s_.controller, controller_state_, step.h,
                               finite ? err : cuda::std::numeric_limits<T>::quiet_NaN());
        T dt_next = decision.factor * step.h;
        bool goes = true;
        if (decision.accept) {
            if (!accept(step)) {
                result = status::terminated_by_event;
                goes = false;
            } else if (elapsed_ >= duration_) {
                goes = false;
            } else if (step.to_stop) {
                dt_next = cuda::std::fmax(dt_next, dt_);
            }
        } else {
            ++counters_.rejected;
        }
        if (goes && (!next_dt(dt_next) || (!decision.accept && !(next_step().h < step.h)))) {
            result = underflow();
            goes = false;
        }
        return goes;
    }

private:
    CUBIE_HD T time_at(T since_t0) const {
        return since_t0 < duration_ ? s_.t0 + since_t0 : s_.t_end;
    }

    /// The next step from dt: landing on the next stop, t_end or (without an interpolant)
    /// an output time, stretched by up to 1% rather than leave a sliver (Hairer).
    CUBIE_HD planned_step next_step() const {
        T stop = duration_;
        if constexpr (Recorder::records && !interpolates)
            stop = cuda::std::fmin(stop, recorder_.next_since_t0());
        const bool to_stop = elapsed_ + T(1.01) * dt_ >= stop;
        const T h = to_stop ? stop - elapsed_ : (elapsed_ + dt_) - elapsed_;
        return {h, to_stop ? stop : elapsed_ + h, to_stop};
    }

    /// Attempts a step of h from the current state; returns its error norm.
    CUBIE_HD T attempt(T h) {
        const T t = s_.t0 + elapsed_;
        if (!keeps_derivative || !dydt_current_) f_(t, y_, dydt_);
        dydt_current_ = true;
        if constexpr (dense)
            return attempt_step<Algorithm>(f_, t, h, y_, dydt_, y_new_, dydt_new_, counters_,
                                           last_failure_, s_.tol, k_);
        else
            return attempt_step<Algorithm>(f_, t, h, y_, dydt_, y_new_, dydt_new_, counters_,
                                           last_failure_, s_.tol);
    }

    /// Takes an accepted step: its events, the outputs due inside it from the interpolant,
    /// the new state (FSAL methods hand over f(t_new, y_new)), then the outputs due at its
    /// end. False where an event terminated the trajectory.
    CUBIE_HD bool accept(planned_step step) {
        interpolant inside(f_, s_.t0 + elapsed_, step.h, time_at(step.end), y_, dydt_, y_new_,
                           dydt_new_, k_);
        [[maybe_unused]] event_stop<T> stop{};
        if constexpr (watches) stop = watch_events(step, inside);
        if constexpr (interpolates) record_inside(step, inside);
        y_ = y_new_;
        if constexpr (Algorithm::fsal) dydt_ = dydt_new_;
        dydt_current_ = Algorithm::fsal;
        ++counters_.accepted;
        elapsed_ = step.end;
        if constexpr (watches) restart_after(stop, inside);
        if constexpr (Recorder::records)
            while (recorder_.next_since_t0() <= elapsed_)
                recorder_.record(f_, time_at(elapsed_), y_, counters_);
        return !stop.terminated;
    }

    /// The events of an accepted step: where an acting one fired, the step now ends there,
    /// with the state after its action in y_new_.
    CUBIE_HD event_stop<T> watch_events(planned_step& step, interpolant& inside) {
        const step_span<T> span{s_.t0, elapsed_, step.h, time_at(step.end)};
        const event_stop<T> stop = monitor_.after_step(f_, span, y_new_, inside);
        if (stop.stopped && stop.theta < 1) step.end = elapsed_ + stop.theta * step.h;
        return stop;
    }

    /// After an event acted, the next step starts afresh: f(t, y) is evaluated again (an
    /// FSAL method's last stage belongs to the step's old end), and where an affect changed
    /// the state or parameters the controller forgets the error history of the old ones.
    /// Otherwise f at the step's end, where the events' interpolant evaluated it, is kept.
    CUBIE_HD void restart_after(const event_stop<T>& stop, const interpolant& inside) {
        if (stop.stopped) {
            dydt_current_ = false;
            if (stop.affected) controller_state_ = {};
        } else if (inside.end_derivative_evaluated()) {
            dydt_ = dydt_new_;
            dydt_current_ = true;
        }
    }

    /// The outputs due strictly inside an accepted step (up to its end, which an event may
    /// have brought forward), from its interpolant.
    CUBIE_HD void record_inside(const planned_step& step, interpolant& inside) {
        if (!(recorder_.next_since_t0() < step.end)) return;
        step_counters reached = counters_;  // this step counts towards them
        ++reached.accepted;
        while (recorder_.next_since_t0() < step.end) {
            state_t<System> y_out{};
            inside.inside((recorder_.next_since_t0() - elapsed_) / step.h, y_out);
            recorder_.record(f_, recorder_.next_time(), y_out, reached);
        }
    }

    /// The controller's next step, capped at dt_max; false where it falls below dt_min or
    /// no longer advances the time.
    CUBIE_HD bool next_dt(T dt_next) {
        dt_ = cuda::std::fmin(dt_next, s_.dt_max);
        return !(dt_ < s_.dt_min || elapsed_ + dt_ == elapsed_);
    }

    /// Why the step size underflowed: an implicit method's failure, or the last attempt's
    /// state. An error norm that overflows from a finite state (a tolerance far below its
    /// size) asked for too short a step.
    CUBIE_HD status underflow() const {
        if (last_failure_ != step_failure::none) return status_of(last_failure_);
        return all_finite(y_new_) ? status::step_size_underflow : status::nonfinite_state;
    }

    const settings_type& s_;
    const right_hand_side<System>& f_;
    state_t<System>& y_;
    step_counters& counters_;
    Recorder& recorder_;
    Monitor& monitor_;
    const T duration_;
    T elapsed_ = 0;
    T dt_;
    state_t<System> dydt_{}, y_new_{}, dydt_new_{};
    bool dydt_current_ = false;  ///< f(t, y) already known? (kept across rejections)
    typename dense_stages_of<Algorithm, state_t<System>, dense>::type k_{};
    typename Controller::template state<T> controller_state_{};
    step_failure last_failure_ = step_failure::none;  ///< of an implicit method's step
};

}  // namespace cubie::detail
