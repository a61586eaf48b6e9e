#pragma once
// Everything about a solve's outputs that is known before any work: validated save and
// sample times, which variable goes to which row, the legends, and the bytes each array
// takes. The solver sizes the result from it and backends bind its targets.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cubie/batch/solve_settings.hpp"
#include "cubie/core/invalid_setting.hpp"
#include "cubie/core/status.hpp"
#include "cubie/outputs/output_recorder.hpp"
#include "cubie/outputs/time_grid.hpp"
#include "cubie/systems/variable_names.hpp"

namespace cubie {

template <ode_system System, step_controller Controller, class... Outputs>
struct output_plan {
    using T = typename System::value_type;
    using layout = output_layout<System, Outputs...>;

    output_targets<System, Outputs...> targets{};
    std::vector<T> save_times;
    std::vector<std::string> saved_variables;
    std::vector<std::string> counter_names;
    std::vector<T> window_ends;
    std::vector<std::string> summary_legend;
    std::vector<std::string> event_names;         ///< one per event channel (condition)
    std::vector<std::string> event_record_names;  ///< "<event>.<k>", one per kept occurrence

    /// Values of each output array per trajectory.
    std::size_t saved_per_trajectory() const { return save_times.size() * saved_variables.size(); }
    std::size_t counters_per_trajectory() const { return save_times.size() * counter_names.size(); }
    std::size_t summaries_per_trajectory() const {
        return window_ends.size() * summary_legend.size();
    }
    std::size_t event_counts_per_trajectory() const { return event_names.size(); }
    std::size_t event_times_per_trajectory() const { return event_record_names.size(); }
    std::size_t event_states_per_trajectory() const {
        return event_record_names.size() * static_cast<std::size_t>(System::n_states);
    }
    /// Host bytes of a result of n trajectories: final states, statuses, step counts and
    /// the requested outputs.
    double result_bytes(std::size_t n) const {
        const double values =
            double(System::n_states + saved_per_trajectory() + summaries_per_trajectory() +
                   event_times_per_trajectory() + event_states_per_trajectory());
        const double counts = double(2 + counters_per_trajectory() + event_counts_per_trajectory());
        const double per_trajectory =
            values * sizeof(T) + sizeof(status) + counts * sizeof(std::uint32_t);
        return per_trajectory * double(n);
    }
};

namespace detail {

/// A trajectory's rows of one output array (saves times variables, windows times summary
/// rows) are indexed in int by the recorder, and the plan's own legends live in host
/// memory: refused past 2^31 - 1 rows, naming the setting that sets their number.
inline void check_rows(const char* setting, double value, double rows) {
    if (rows > double(std::numeric_limits<int>::max()))
        invalid_setting(setting, value,
                        "gives " + format_count(rows) +
                            " output rows per trajectory, more than the limit of 2^31 - 1");
}

/// Every output point costs work as a step does (an adaptive method interpolates one, a
/// summary sample updates every metric), so a trajectory takes at most max_steps of each
/// kind: an extremely fine interval is refused rather than left to run for hours.
inline void check_points(const char* setting, double value, double points,
                         std::uint64_t max_steps) {
    if (points > double(max_steps))
        invalid_setting(setting, value,
                        "gives " + format_count(points) +
                            " output points per trajectory, more than max_steps = " +
                            std::to_string(max_steps) + ": record less often, or raise max_steps");
}

}  // namespace detail

/// Validates the output settings against the output policies and plans them. Throws
/// std::invalid_argument naming the setting at fault.
template <ode_system System, step_controller Controller, class... Outputs>
output_plan<System, Controller, Outputs...> make_output_plan(const solve_settings<Controller>& s) {
    using plan_type = output_plan<System, Controller, Outputs...>;
    using layout = typename plan_type::layout;
    using T = typename plan_type::T;
    plan_type plan;
    auto& targets = plan.targets;

    // Fixed steps reach output times only when they are whole numbers of steps: that
    // number (time_grid::every_steps; 0 for adaptive controllers).
    auto whole_steps = [&](const char* setting, double every) -> std::uint32_t {
        if constexpr (Controller::adaptive) {
            return 0;
        } else {
            if (!is_whole_multiple(every, s.dt))
                invalid_setting(
                    setting, every,
                    "is not a whole number of fixed steps of dt = " + format_value(s.dt));
            const double steps = std::round(every / s.dt);
            constexpr auto most = std::numeric_limits<std::uint32_t>::max();
            return steps < double(most) ? static_cast<std::uint32_t>(steps) : most;
        }
    };

    if constexpr (layout::saves) {
        targets.saves =
            make_save_grid<T>(s.t0, s.t_end, s.save_every, s.save_initial, s.save_final);
        detail::check_time_resolution<T>("save_every", s.save_every, s.t0, s.t_end);
        targets.saves.every_steps = whole_steps("save_every", s.save_every);
    } else if (s.save_every != 0) {
        invalid_setting("save_every", s.save_every,
                        "but this solver saves nothing: add save_state, save_observables or "
                        "save_counters to its outputs");
    }

    for (int& row : targets.state_row) row = -1;
    for (int& row : targets.observable_row) row = -1;
    auto select = [&](const variable_selection& which, const std::vector<std::string>& names,
                      const char* setting, auto& row_of) {
        for (int v : which.resolve(names, setting)) {
            row_of[static_cast<std::size_t>(v)] = targets.rows_per_save++;
            plan.saved_variables.push_back(names[static_cast<std::size_t>(v)]);
        }
    };
    if constexpr (layout::saves_states)
        select(s.saved_states, state_names<System>(), "saved_states", targets.state_row);
    else if (!s.saved_states.selects_all())
        throw std::invalid_argument(
            "setting saved_states is given but this solver saves no states: add save_state to "
            "its outputs");
    if constexpr (layout::saves_observables)
        select(s.saved_observables, observable_names<System>(), "saved_observables",
               targets.observable_row);
    else if (!s.saved_observables.selects_all())
        throw std::invalid_argument(
            "setting saved_observables is given but this solver saves no observables: add "
            "save_observables to its outputs");
    if constexpr (layout::saves_counters) plan.counter_names = {"accepted_steps", "rejected_steps"};
    if constexpr (layout::saves) {
        const double rows =
            double(targets.saves.count()) *
            double(std::max<std::size_t>(plan.saved_variables.size(), plan.counter_names.size()));
        detail::check_rows("save_every", s.save_every, rows);
        detail::check_points("save_every", s.save_every, double(targets.saves.count()),
                             s.max_steps);
        for (std::uint32_t k = 0; k < targets.saves.count(); ++k)
            plan.save_times.push_back(targets.saves.time(k));
    }

    if constexpr (layout::summarises) {
        const double window = s.summarise_every, sample = s.sample_summaries_every;
        if (!(window > 0) || !std::isfinite(window))
            invalid_setting("summarise_every", window,
                            "must be positive and finite when summaries are kept");
        if (!(sample > 0) || !std::isfinite(sample))
            invalid_setting("sample_summaries_every", sample,
                            "must be positive and finite when summaries are kept");
        detail::check_time_resolution<T>("sample_summaries_every", sample, s.t0, s.t_end);
        if (!is_whole_multiple(window, sample))
            invalid_setting("summarise_every", window,
                            "is not a whole number of samples of sample_summaries_every = " +
                                format_value(sample));
        const std::uint32_t sample_steps = whole_steps("sample_summaries_every", sample);
        const std::uint32_t windows = whole_intervals(s.t_end - s.t0, window, "summarise_every");
        if (windows == 0)
            invalid_setting("summarise_every", window,
                            "is longer than the interval t_end - t0 = " +
                                format_value(s.t_end - s.t0) + ": no window would be complete");
        // Counted in double before any integer holds them: the samples of all windows
        // are indices of one time grid.
        const double per_window = std::round(window / sample);
        const double samples = double(windows) * per_window;
        if (samples > double(std::numeric_limits<std::uint32_t>::max() - 2))
            invalid_setting(
                "sample_summaries_every", sample,
                "gives " + format_count(samples) + " samples, more than the limit of 2^32 - 3");
        detail::check_rows("summarise_every", window,
                           double(windows) * double(layout::windows_type::rows));
        detail::check_points("sample_summaries_every", sample, samples + 1, s.max_steps);
        targets.samples.t0 = T(s.t0);
        targets.samples.t_end = T(s.t_end);
        targets.samples.every = T(sample);
        targets.samples.span = T(s.t_end - s.t0);
        targets.samples.first_k = 0;
        targets.samples.last_k = static_cast<std::uint32_t>(samples);
        targets.samples.every_steps = sample_steps;
        targets.samples_per_window = static_cast<std::uint32_t>(per_window);
        targets.n_windows = windows;
        for (std::uint32_t w = 1; w <= windows; ++w)
            plan.window_ends.push_back(targets.samples.time(w * targets.samples_per_window));
        std::vector<std::string> summarised = state_names<System>();
        if constexpr (layout::summarises_observables)
            for (const std::string& name : observable_names<System>()) summarised.push_back(name);
        plan.summary_legend = layout::windows_type::legend(summarised);
    } else if (s.summarise_every != 0 || s.sample_summaries_every != 0) {
        invalid_setting(s.summarise_every != 0 ? "summarise_every" : "sample_summaries_every",
                        s.summarise_every != 0 ? s.summarise_every : s.sample_summaries_every,
                        "but this solver keeps no summaries: add summaries<metrics...> to its "
                        "outputs");
    }

    if constexpr (layout::watches) {
        const double tolerance = s.event_time_tolerance;
        if (!(tolerance >= 0) || !std::isfinite(tolerance))
            invalid_setting("event_time_tolerance", tolerance, "must be non-negative and finite");
        detail::check_representable<T>("event_time_tolerance", tolerance);
        targets.events.time_tolerance = T(tolerance);
        plan.event_names = layout::events_type::channel_names();
        plan.event_record_names = layout::events_type::record_names();
    } else if (s.event_time_tolerance != 0) {
        invalid_setting("event_time_tolerance", s.event_time_tolerance,
                        "but this solver has no events: add events<...> to its outputs");
    }
    return plan;
}

}  // namespace cubie
