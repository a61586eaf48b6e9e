#pragma once
// integrate(): one trajectory from t0 to t_end. Public, __host__ __device__: the batch
// backends call it once per trajectory, and users may call it from their own kernels.
//
// Its parts, each in its own header:
//   step_attempt.hpp     one attempted step of the method, its work counted
//   fixed_step_loop.hpp  steps of dt, the last ending on t_end; finiteness checked in blocks
//   adaptive_loop.hpp    steps the controller sizes over the time since t0; outputs inside a
//                        step interpolated where the method can
//   step_interpolant.hpp the state inside an accepted step, for outputs and events
// and here: the inputs' check, the outputs due at t0, and the choice of loop. Events
// (events/event_monitor.hpp) come in through the overload that takes an event_recorder.

#include "cubie/algorithms/stepper.hpp"
#include "cubie/controllers/controller.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/status.hpp"
#include "cubie/core/step_counters.hpp"
#include "cubie/events/event_monitor.hpp"
#include "cubie/events/event_recorder.hpp"
#include "cubie/loop/adaptive_loop.hpp"
#include "cubie/loop/fixed_step_loop.hpp"
#include "cubie/loop/integration_settings.hpp"
#include "cubie/loop/step_attempt.hpp"
#include "cubie/outputs/output_recorder.hpp"
#include "cubie/systems/ode_system.hpp"
#include "cubie/systems/right_hand_side.hpp"

namespace cubie {

namespace detail {

/// The outputs due at t0, the events' sides there, then the controller's loop.
template <stepper Algorithm, step_controller Controller, ode_system System, class Recorder,
          class Monitor>
CUBIE_HD status integrate_from_t0(const integration_settings<Algorithm, Controller, System>& s,
                                  const right_hand_side<System>& f, state_t<System>& y,
                                  step_counters& counters, Recorder& recorder, Monitor& monitor,
                                  bool finite_input) {
    if constexpr (Recorder::records) {
        static_assert(Recorder::schedule == (Controller::adaptive ? output_schedule::by_time
                                                                  : output_schedule::by_step),
                      "an adaptive controller needs a recorder scheduled by time, a fixed step "
                      "one scheduled by step (outputs/output_recorder.hpp)");
        if constexpr (Controller::adaptive)
            while (recorder.next_time() <= s.t0) recorder.record(f, s.t0, y, counters);
        else
            while (recorder.next_step() == 0) recorder.record(f, s.t0, y, counters);
    }
    if constexpr (Monitor::watches) monitor.start(f, s.t0, y);
    if constexpr (Controller::adaptive)
        return adaptive_loop<Algorithm, Controller, System, Recorder, Monitor>(s, f, y, counters,
                                                                               recorder, monitor)
            .run();
    else
        return fixed_step_loop(s, f, y, counters, recorder, monitor, finite_input);
}

}  // namespace detail

/// Integrates y from settings.t0 to settings.t_end. On return y holds the state at t_end,
/// or the last finite state reached when the status is not success.
///
/// The recorder (outputs/output_recorder.hpp) names when it next needs the state and takes
/// it, record(f, t, y, counters); one whose `records` is false costs nothing. With fixed
/// steps it is scheduled by step (output_schedule::by_step): output times are whole
/// numbers of steps, and it names the number of steps after which the next is due,
/// next_step(). With adaptive steps it is scheduled by time and names the next time,
/// next_time(). Adaptive methods with a continuous extension interpolate inside their steps,
/// so outputs never shorten a step; other adaptive methods shorten the step that would
/// pass an output time so that it lands on it. Output times after a failure are never
/// recorded.
///
/// An implicit method's step that fails (linear/implicit_step_report.hpp) is rejected like
/// one with an infinite error; a trajectory whose step then underflows, or whose fixed step
/// fails, ends with the status of that failure.
template <stepper Algorithm, step_controller Controller, ode_system System, class Recorder>
CUBIE_HD status integrate(const System& sys,
                          const integration_settings<Algorithm, Controller, System>& s,
                          state_t<System>& y, const parameters_t<System>& p,
                          step_counters& counters, Recorder& recorder) {
    // The fixed loop of an explicit method that records nothing checks its inputs after its
    // first blocks of steps; every other loop turns non-finite inputs away here.
    constexpr bool checked_later =
        !Controller::adaptive && detail::checks_inputs_in_blocks<Algorithm, Recorder>;
    const bool finite_input = detail::all_finite(y) && detail::all_finite(p);
    if (!checked_later && !finite_input) return status::nonfinite_input;
    const right_hand_side<System> f{sys, p, s.drivers};
    no_event_monitor no_events;
    return detail::integrate_from_t0(s, f, y, counters, recorder, no_events, finite_input);
}

/// The same, watching the events of `events` (events/event_monitor.hpp): their crossings
/// are counted and recorded there, and those that act change y and p (the trajectory's
/// parameters, changed in place) or end the integration, with status::terminated_by_event
/// and y the state at the event. The caller writes the counts (events.write_counts()).
template <stepper Algorithm, step_controller Controller, ode_system System, class Recorder,
          class List>
CUBIE_HD status integrate(const System& sys,
                          const integration_settings<Algorithm, Controller, System>& s,
                          state_t<System>& y, parameters_t<System>& p, step_counters& counters,
                          Recorder& recorder, event_recorder<System, List>& events) {
    if (!detail::all_finite(y) || !detail::all_finite(p)) return status::nonfinite_input;
    const right_hand_side<System> f{sys, p, s.drivers};
    event_monitor<System, List> monitor(events, p);
    return detail::integrate_from_t0(s, f, y, counters, recorder, monitor, true);
}

/// Integrates y from settings.t0 to settings.t_end, recording nothing on the way.
template <stepper Algorithm, step_controller Controller, ode_system System>
CUBIE_HD status integrate(const System& sys,
                          const integration_settings<Algorithm, Controller, System>& s,
                          state_t<System>& y, const parameters_t<System>& p,
                          step_counters& counters) {
    no_recorder<System> nothing;
    return integrate<Algorithm, Controller>(sys, s, y, p, counters, nothing);
}

}  // namespace cubie
