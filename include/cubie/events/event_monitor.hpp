#pragma once
// Watching one trajectory's events across its steps: which conditions crossed zero in a
// step, where, and what follows. The integration loop calls after_step() once per accepted
// step, before it takes the step's end as its new state; nothing else of the loop changes.
//
// Detection. Each condition keeps the side of zero it is on (-1 or +1; 0 only while it has
// been exactly 0 since t0). A step crosses when its end is on the other side, or at 0
// (rising: from below 0 to 0 or above), so that a zero exactly at a step's end, t_end
// included, counts once. A condition exactly 0 at t0 counts when it leaves 0 in its
// direction: a crossing at t0. Only the step's ends are compared: a condition that changes
// sign twice within one step is not seen. No crossing is missed where consecutive crossings
// are further apart in time than settings.dt_max, which the user sets for that purpose.
//
// Location. A crossing is located on the step's interpolant (the method's dense output
// where it has one, else the cubic Hermite interpolant of the step's ends and derivatives,
// loop/step_interpolant.hpp) by ITP (root_finding.hpp), to the settings'
// event_time_tolerance (absolute; 0 is the working precision: 4 ulps of the step's
// fraction). The time reported is the end of the final bracket on the far side of zero:
// the state there has crossed, so that an action never leaves the condition where it
// would cross again.
//
// What follows, in this order:
//   1. Crossings of record-only events are recorded at their own times and the step goes
//      on unchanged: a Poincare section takes the steps of a solve without it.
//   2. The earliest crossing of an acting event (affect, terminate) shortens the step to
//      it; acting crossings within the location tolerance of it are simultaneous and fire
//      with it, the step then ending at the latest of them. Record-only crossings up to
//      there are recorded (1.); those after it are left to the next step.
//   3. Every firing condition is recorded, with the state before any action.
//   4. Affects run in the order the events are listed (the conditions of a vector event in
//      order), each seeing the state and parameters the previous left; a vector event's
//      affect without a condition argument runs once.
//   5. If any firing event terminates, the trajectory ends there (status
//      terminated_by_event) with that state.
// The loop then restarts from the event (the stage derivative f(t, y) evaluated anew, and
// the controller's history forgotten where an affect ran).
//
// An affect that leaves its own condition as near 0 as the crossing was located (within
// 100 times its value there: a bounce, say) would see the state leave the surface as a
// new crossing; for that condition the next step takes its side from 1/100 of the way into
// the step instead of from its start (as DifferentialEquations.jl's repeat_nudge does).

#include <cuda/std/cmath>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/tuple>

#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"
#include "cubie/core/step_size_math.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/drivers/cubic_spline.hpp"
#include "cubie/events/event.hpp"
#include "cubie/events/event_list.hpp"
#include "cubie/events/event_recorder.hpp"
#include "cubie/events/root_finding.hpp"
#include "cubie/systems/ode_system.hpp"
#include "cubie/systems/right_hand_side.hpp"

namespace cubie {

/// The times of a step as the loop counts them: inside, base + (start + theta h); its end
/// (theta = 1) exactly end_time.
template <class T>
struct step_span {
    T base;
    T start;
    T h;
    T end_time;
    CUBIE_HD T time(T theta) const { return theta >= 1 ? end_time : base + (start + theta * h); }
};

/// What an accepted step's events did to it.
template <class T>
struct event_stop {
    bool stopped = false;     ///< an acting event fired: the step now ends at theta
    bool terminated = false;  ///< ... and ends the trajectory
    bool affected = false;    ///< ... and an affect ran: state or parameters may have jumped
    T theta = 1;              ///< where the step ends, as a fraction of its length
};

/// The monitor of no events: never asked.
struct no_event_monitor {
    static constexpr bool watches = false;
};

template <ode_system System, class List>
class event_monitor;

template <ode_system System, class... Events>
class event_monitor<System, events<Events...>> {
    using T = typename System::value_type;
    using layout = event_layout<System, events<Events...>>;
    static constexpr int channels = layout::channels;
    using signs = vector<cuda::std::int8_t, channels>;
    using values = vector<T, channels>;

    template <int Event>
    using event_at = cuda::std::tuple_element_t<Event, cuda::std::tuple<Events...>>;
    template <int Channel>
    using event_of = event_at<layout::event_of(Channel)>;

    /// The first channel of each event.
    static constexpr int first_channel(int event) {
        int c = 0;
        while (c < channels && layout::event_of(c) < event) ++c;
        return c;
    }

public:
    static constexpr bool watches = channels > 0;
    using recorder_type = event_recorder<System, events<Events...>>;

    /// `parameters` is what the trajectory's right-hand side reads: affects change them.
    CUBIE_HD event_monitor(recorder_type& recorder, parameters_t<System>& parameters)
        : recorder_(recorder), parameters_(parameters) {}

    /// The sides of zero each condition starts on, at (t0, y0).
    CUBIE_HD void start(const right_hand_side<System>& f, T t, const state_t<System>& y) {
        values g;
        conditions(f, t, y, g);
        static_for<channels>([&](auto c) { side_[c] = side_of(g[c], 0); });
    }

    /// After an accepted step whose span is `span`, ending at y_new, before the loop takes
    /// it: records its crossings and, where an acting event fired, leaves in y_new the state
    /// the step now ends with (after the affects). `step` interpolates the step:
    /// step.at(theta, y).
    template <class Interpolant>
    CUBIE_HD event_stop<T> after_step(const right_hand_side<System>& f, const step_span<T>& span,
                                      state_t<System>& y_new, Interpolant& step) {
        values g_end;
        conditions(f, span.end_time, y_new, g_end);
        signs crossed;
        bool any = false;
        static_for<channels>([&](auto c) {
            crossed[c] = crossing_of<event_of<c>::direction>(side_[c], g_end[c]);
            any = any || crossed[c] != 0;
        });
        if (!any) {
            static_for<channels>([&](auto c) {
                side_[c] = side_of(g_end[c], side_[c]);
                nudged_[c] = false;
            });
            return {};
        }
        return crossings(f, span, y_new, step, g_end, crossed);
    }

private:
    /// The side of zero of a condition now g, that was on `before`.
    CUBIE_HD static cuda::std::int8_t side_of(T g, cuda::std::int8_t before) {
        return g > 0 ? 1 : (g < 0 ? -1 : before);
    }

    /// +1 for a rising crossing from `side` to g, -1 for a falling one, 0 for none (or one of
    /// the other direction).
    template <crossing Direction>
    CUBIE_HD static cuda::std::int8_t crossing_of(cuda::std::int8_t side, T g) {
        const bool rising = (side < 0 && g >= 0) || (side == 0 && g > 0);
        const bool falling = (side > 0 && g <= 0) || (side == 0 && g < 0);
        if constexpr (Direction == crossing::rising)
            return rising ? 1 : 0;
        else if constexpr (Direction == crossing::falling)
            return falling ? -1 : 0;
        else
            return rising ? 1 : (falling ? -1 : 0);
    }

    CUBIE_HD static drivers_t<System> drivers_at(const right_hand_side<System>& f, T t) {
        drivers_t<System> d{};
        if constexpr (System::n_drivers > 0) driver_values(f.drivers, t, d);
        return d;
    }

    /// Every condition at (t, y), by channel.
    CUBIE_HD static void conditions(const right_hand_side<System>& f, T t, const state_t<System>& y,
                                    values& g) {
        const drivers_t<System> d = drivers_at(f, t);
        static_for<sizeof...(Events)>([&](auto e) {
            constexpr int first = first_channel(e);
            const auto value = event_at<e>{}.condition(t, y, f.parameters, d);
            if constexpr (conditions_of<event_at<e>, System>() == 1) {
                g[first] = value;
            } else {
                static_for<conditions_of<event_at<e>, System>()>(
                    [&](auto m) { g[first + m] = value[m]; });
            }
        });
    }

    /// Channel's condition at (t, y).
    template <int Channel>
    CUBIE_HD static T condition(const right_hand_side<System>& f, T t, const state_t<System>& y) {
        const auto value = event_of<Channel>{}.condition(t, y, f.parameters, drivers_at(f, t));
        if constexpr (conditions_of<event_of<Channel>, System>() == 1)
            return value;
        else
            return value[layout::component_of(Channel)];
    }

    /// The rare path: a step where some condition crossed. Acting crossings are located
    /// first; a record-only crossing is located when it is recorded, so that no value of it
    /// is held while the others are located.
    template <class Interpolant>
    CUBIE_HD event_stop<T> crossings(const right_hand_side<System>& f, const step_span<T>& span,
                                     state_t<System>& y_new, Interpolant& step, const values& g_end,
                                     signs crossed) {
        constexpr T epsilon = cuda::std::numeric_limits<T>::epsilon();
        const T eps =
            cuda::std::fmax(step_size_divide(recorder_.time_tolerance(), 2 * span.h), 2 * epsilon);
        constexpr T none = 2;  // beyond the step
        // Where channel c crossed (none where it did not), and its condition there.
        auto locate = [&](auto c, T& residual) {
            if (crossed[c] == 0) return none;
            const T sign = crossed[c];
            auto g = [&](T at) {
                state_t<System> y;
                step.at(at, y);
                return sign * condition<c>(f, span.time(at), y);
            };
            T from = 0;
            if (nudged_[c]) {  // the side this condition is on just after the event
                from = T(0.01);
                const cuda::std::int8_t side = side_of(sign * g(from), side_[c]);
                crossed[c] = crossing_of<event_of<c>::direction>(side, g_end[c]);
                if (crossed[c] == 0) return none;
            }
            const located_crossing<T> at =
                locate_crossing(g, from, T(1), g(from), sign * g_end[c], eps);
            residual = at.value;
            return at.x;
        };

        // The earliest acting crossing, and those within the tolerance of it: they fire.
        values theta, residual;
        T first = none;
        static_for<channels>([&](auto c) {
            if constexpr (event_of<c>::action != event_action::record) {
                theta[c] = locate(c, residual[c]);
                first = cuda::std::fmin(first, theta[c]);
            }
        });
        const bool acting = first <= 1;
        T stop = acting ? first : T(1);
        vector<bool, channels> taken{};  // crossed up to where the step now ends
        static_for<channels>([&](auto c) {
            if constexpr (event_of<c>::action != event_action::record) {
                taken[c] = acting && theta[c] <= first + 2 * eps;
                if (taken[c]) stop = cuda::std::fmax(stop, theta[c]);
            }
        });

        // Every crossing up to there, with the state before any action.
        static_for<channels>([&](auto c) {
            T at;
            if constexpr (event_of<c>::action == event_action::record) {
                T unused;
                at = locate(c, unused);
                taken[c] = at <= stop;
            } else {
                at = theta[c];
            }
            if (!taken[c]) return;
            state_t<System> y;
            step.at(at, y);
            recorder_.template record<c>(span.time(at), y);
        });
        if (!acting) {
            static_for<channels>([&](auto c) {
                side_[c] = taken[c] && g_end[c] == 0 ? crossed[c] : side_of(g_end[c], side_[c]);
                nudged_[c] = false;
            });
            return {};
        }

        event_stop<T> result;
        result.stopped = true;
        result.theta = stop;
        const T t = span.time(stop);
        if (stop < 1) {
            state_t<System> y_stop;  // not into y_new, which a Hermite interpolant reads
            step.at(stop, y_stop);
            y_new = y_stop;
        }
        const drivers_t<System> d = drivers_at(f, t);
        vector<bool, sizeof...(Events)> affected{};
        static_for<channels>([&](auto c) {
            using E = event_of<c>;
            if constexpr (E::action == event_action::terminate) {
                if (taken[c]) result.terminated = true;
            } else if constexpr (E::action == event_action::affect) {
                if (!taken[c]) return;
                if constexpr (detail::affects_each_condition<E, System>) {
                    E{}.affect(t, y_new, parameters_, d, layout::component_of(c));
                } else {
                    constexpr int e = layout::event_of(c);
                    if (!affected[e]) E{}.affect(t, y_new, parameters_, d);
                    affected[e] = true;
                }
                result.affected = true;
            }
        });

        // Sides from where the step now ends; the far side for a condition left at 0 there.
        // Only an affect can leave its condition near 0 (a terminating event ends the
        // trajectory).
        values g_after;
        conditions(f, t, y_new, g_after);
        static_for<channels>([&](auto c) {
            side_[c] = taken[c] && g_after[c] == 0 ? crossed[c] : side_of(g_after[c], side_[c]);
            if constexpr (event_of<c>::action == event_action::affect)
                nudged_[c] =
                    taken[c] && cuda::std::fabs(g_after[c]) <= 100 * cuda::std::fabs(residual[c]);
            else
                nudged_[c] = false;
        });
        return result;
    }

    recorder_type& recorder_;
    parameters_t<System>& parameters_;
    signs side_{};
    vector<bool, channels> nudged_{};
};

}  // namespace cubie
