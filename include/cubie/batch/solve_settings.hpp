#pragma once
// What a user writes to configure a solve (in double), and its validation into the
// loop's integration_settings. Every number that only changes values (times, steps,
// tolerances, gains) is here; nothing here selects code.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/controllers/controller.hpp"
#include "cubie/core/invalid_setting.hpp"
#include "cubie/loop/integration_settings.hpp"
#include "cubie/outputs/time_grid.hpp"
#include "cubie/outputs/variable_selection.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

template <step_controller Controller>
struct solve_settings {
    double t0 = 0;
    double t_end = 1;
    /// Fixed step size, or the first step tried by an adaptive controller.
    double dt = 0;
    /// Adaptive only: a trajectory whose step falls below dt_min ends with
    /// status::step_size_underflow; steps never exceed dt_max.
    double dt_min = 0;
    double dt_max = std::numeric_limits<double>::infinity();
    /// Attempted steps (accepted + rejected) before status::max_steps_exceeded.
    std::uint64_t max_steps = 1'000'000;
    /// Adaptive only: one value for every state, or one per state.
    std::vector<double> atol{1e-6};
    std::vector<double> rtol{1e-6};
    typename Controller::settings controller{};
    /// With save_state, save_observables or save_counters: the interval between saves,
    /// and whether t0 and t_end are saved too (outputs/time_grid.hpp).
    double save_every = 0;
    bool save_initial = false;
    bool save_final = false;
    /// Which states (save_state) and observables (save_observables) are saved, by index or
    /// name; empty: all.
    variable_selection saved_states{};
    variable_selection saved_observables{};
    /// With summaries<...>: the window length, and the interval between the samples the
    /// metrics see (a whole number of which makes a window).
    double summarise_every = 0;
    double sample_summaries_every = 0;
    /// With events<...>: the time to which crossings are located (absolute); 0 locates them
    /// to the working precision.
    double event_time_tolerance = 0;
};

namespace detail {

/// Number of fixed steps covering a span of `duration`: duration/dt when that is a whole
/// number up to rounding, else one more (shortened) step; at least one for a non-empty
/// span. Refused, before any conversion to an integer, past `limit` steps.
inline std::uint64_t fixed_step_count(double duration, double dt, std::uint64_t limit) {
    if (duration == 0) return 0;
    const double ratio = duration / dt;  // +inf for a dt in the denormal range
    if (!std::isfinite(ratio))
        invalid_setting("dt", dt,
                        "is too small: t_end - t0 = " + format_value(duration) +
                            " would take more fixed steps than a 64-bit count holds");
    const double nearest = std::round(ratio);
    double steps =
        std::abs(ratio - nearest) <= whole_number_tolerance(ratio) ? nearest : std::ceil(ratio);
    steps = std::max(steps, 1.0);  // a dt longer than the span: one shortened step
    if (steps > double(limit))
        invalid_setting(
            "max_steps", double(limit),
            "is below the " + format_count(steps) + " fixed steps that dt and the interval need");
    return static_cast<std::uint64_t>(steps);
}

/// The distance from the largest |t| of [t0, t_end] to the next value of T: how finely
/// the working precision tells times apart there.
template <class T>
double time_spacing(double t0, double t_end) {
    const T far = static_cast<T>(std::max(std::abs(t0), std::abs(t_end)));
    return double(std::nextafter(far, std::numeric_limits<T>::infinity())) - double(far);
}

/// Points `interval` apart (fixed steps, saves, summary samples) must be told apart in the
/// working precision over the whole span: at least 8 of its spacings apart, so that each
/// point's time is within 1/16 of an interval. Refused otherwise (float from t0 = 1e6
/// cannot hold times 0.01 apart).
template <class T>
void check_time_resolution(const std::string& name, double interval, double t0, double t_end) {
    const double spacing = time_spacing<T>(t0, t_end);
    if (interval < 8 * spacing)
        invalid_setting(name, interval,
                        "is below 8 times the spacing of the working precision's times near t = " +
                            format_value(std::max(std::abs(t0), std::abs(t_end))) + " (" +
                            format_value(spacing) +
                            "): its points cannot be told apart; solve in double or move t0 "
                            "nearer 0");
}

template <class T>
void check_representable(const std::string& name, double value) {
    // Compared before the conversion, which is undefined for a value beyond T's range.
    const bool beyond = std::abs(value) > double(std::numeric_limits<T>::max());
    if (beyond || (value != 0 && static_cast<T>(value) == 0))
        invalid_setting(name, value, "not representable in the working precision");
}

inline std::vector<double> per_state(const std::vector<double>& v, int n, const char* name) {
    if (v.size() == 1) return std::vector<double>(static_cast<std::size_t>(n), v[0]);
    if (v.size() != static_cast<std::size_t>(n))
        invalid_setting(std::string(name) + ".size()", static_cast<double>(v.size()),
                        "must be 1 or the number of states (" + std::to_string(n) + ")");
    return v;
}

}  // namespace detail

/// Validates user settings and converts them for the loop. Throws std::invalid_argument
/// whose message names the setting and its value.
template <stepper Algorithm, step_controller Controller, ode_system System>
integration_settings<Algorithm, Controller, System> make_integration_settings(
    const solve_settings<Controller>& s) {
    using T = typename System::value_type;
    constexpr int n = System::n_states;

    if (!std::isfinite(s.t0)) invalid_setting("t0", s.t0, "must be finite");
    if (!std::isfinite(s.t_end)) invalid_setting("t_end", s.t_end, "must be finite");
    if (s.t_end < s.t0)
        invalid_setting("t_end", s.t_end, "must not be before t0 = " + format_value(s.t0));
    if (!(s.dt > 0) || !std::isfinite(s.dt))
        invalid_setting("dt", s.dt, "must be positive and finite");
    detail::check_representable<T>("t0", s.t0);
    detail::check_representable<T>("t_end", s.t_end);
    detail::check_representable<T>("dt", s.dt);
    if (!std::isfinite(s.t_end - s.t0) ||
        !std::isfinite(static_cast<T>(s.t_end) - static_cast<T>(s.t0)))
        invalid_setting("t_end", s.t_end,
                        "is too far from t0 = " + format_value(s.t0) +
                            ": t_end - t0 overflows the working precision");
    if (s.max_steps == 0 || s.max_steps > std::numeric_limits<std::uint32_t>::max())
        invalid_setting("max_steps", static_cast<double>(s.max_steps), "must lie in [1, 2^32 - 1]");
    if (s.t_end > s.t0 && static_cast<T>(s.t_end) == static_cast<T>(s.t0))
        invalid_setting("t_end", s.t_end,
                        "equals t0 in the working precision; the interval is empty");

    integration_settings<Algorithm, Controller, System> out{};
    out.t0 = T(s.t0);
    out.t_end = T(s.t_end);
    out.dt = T(s.dt);
    out.duration = T(s.t_end - s.t0);
    // The system sees t0 plus the time since it: the span must hold distinct times.
    if (s.t_end > s.t0)
        detail::check_time_resolution<T>("t_end - t0", s.t_end - s.t0, s.t0, s.t_end);
    if (s.t_end > s.t0 && out.duration == 0)
        invalid_setting("t_end", s.t_end,
                        "is so close to t0 = " + format_value(s.t0) +
                            " that t_end - t0 underflows the working precision");
    out.max_steps = static_cast<std::uint32_t>(s.max_steps);
    s.controller.validate();

    if constexpr (Controller::adaptive) {
        static_assert(adaptive_controller<Controller>,
                      "an adaptive controller needs settings (validate, make_parameters), "
                      "state<T>, parameters<T> and decide(): see controllers/controller.hpp");
        static_assert(embedded_stepper<Algorithm>,
                      "adaptive controllers need an algorithm with an embedded error "
                      "estimate (step_with_error); use fixed_step with this method");
        if (!(s.dt_min >= 0) || !std::isfinite(s.dt_min))
            invalid_setting("dt_min", s.dt_min, "must be non-negative and finite");
        if (!(s.dt_max > 0)) invalid_setting("dt_max", s.dt_max, "must be positive");
        if (s.dt_min > s.dt_max)
            invalid_setting("dt_min", s.dt_min,
                            "must not exceed dt_max = " + format_value(s.dt_max));
        if (s.dt < s.dt_min)
            invalid_setting("dt", s.dt, "must not be below dt_min = " + format_value(s.dt_min));
        const std::vector<double> atol = detail::per_state(s.atol, n, "atol");
        const std::vector<double> rtol = detail::per_state(s.rtol, n, "rtol");
        for (int i = 0; i < n; ++i) {
            const std::string idx = "[" + std::to_string(i) + "]";
            if (!(atol[i] >= 0) || !std::isfinite(atol[i]))
                invalid_setting("atol" + idx, atol[i], "must be non-negative and finite");
            if (!(rtol[i] >= 0) || !std::isfinite(rtol[i]))
                invalid_setting("rtol" + idx, rtol[i], "must be non-negative and finite");
            if (atol[i] == 0 && rtol[i] == 0)
                invalid_setting("atol" + idx, atol[i], "and rtol are both zero");
            detail::check_representable<T>("atol" + idx, atol[i]);
            detail::check_representable<T>("rtol" + idx, rtol[i]);
            // A relative error below the precision's own rounding cannot be reached: with
            // no absolute tolerance, the step size would shrink to underflow.
            constexpr double epsilon = std::numeric_limits<T>::epsilon();
            if (atol[i] == 0 && rtol[i] > 0 && rtol[i] < epsilon)
                invalid_setting("rtol" + idx, rtol[i],
                                "is below the working precision's epsilon " +
                                    format_value(epsilon) + " and atol is 0: no step can meet it");
            // Never 0 in the loop: with atol 0, a component that is exactly 0 would have an
            // error scale of 0, and 0 / 0 would fail every step. The smallest normal number
            // changes no other scale.
            out.tol.atol[i] = std::max(T(atol[i]), std::numeric_limits<T>::min());
            out.tol.rtol[i] = T(rtol[i]);
        }
        detail::check_representable<T>("dt_min", s.dt_min);
        if (std::isfinite(s.dt_max)) detail::check_representable<T>("dt_max", s.dt_max);
        out.dt_min = T(s.dt_min);
        out.dt_max = std::isfinite(s.dt_max) ? T(s.dt_max) : std::numeric_limits<T>::max();
        out.controller = s.controller.template make_parameters<T>(Algorithm::error_estimate_order);
    } else {
        const double duration = s.t_end - s.t0;
        const std::uint64_t steps = detail::fixed_step_count(duration, s.dt, s.max_steps);
        if (steps > 0) detail::check_time_resolution<T>("dt", s.dt, s.t0, s.t_end);
        out.fixed_steps = static_cast<std::uint32_t>(steps);
        // The last step's length from the settings in double: t_end less the working
        // precision's t0 + (n - 1) dt would carry that sum's rounding into the state.
        out.last_dt = steps > 0 ? T(duration - double(steps - 1) * s.dt) : T(0);
    }
    return out;
}

}  // namespace cubie
