#pragma once
// What a batch solve returns: host arrays it owns (core/host_array.hpp: std::vectors
// that are filled in parallel), laid out with the trajectory index fastest (as the device
// writes them), with legends naming every row (result_legend.hpp).
//
//   final_states     [state][trajectory]          always
//   statuses, accepted_steps, rejected_steps       always, one per trajectory
//   newton_iterations, linear_iterations           implicit methods, one per trajectory
//                                                  (linear/implicit_step_report.hpp); else empty
//   saved            [save][saved variable][trajectory]   save_state / save_observables
//   saved_counters   [save][counter][trajectory]          save_counters
//   summaries        [window][summary row][trajectory]    summaries<...>
//   event_counts     [event][trajectory]                  events<...>: occurrences
//   event_times      [event record][trajectory]           events<...>: the first ones'
//   event_states     [event record][state][trajectory]      times and states
//   initial_states   [state][trajectory], parameters [parameter][trajectory]: the inputs,
//                    where keep_inputs copied them (for result files); else empty
//
// Saved values and summaries a trajectory never reached (it failed earlier) are NaN (with
// every bit set, core/unrecorded_nan.hpp), and so are the event records it never filled
// (an event kept fewer times than its capacity).
// Views (result_views.hpp): series(name) is [save][trajectory] of one saved variable;
// trajectory(i) is [save][saved variable] of one trajectory; summary(row name) is
// [window][trajectory]; event_times_of(event) and event_states_of(event, state) are
// [occurrence][trajectory]. The arrays are those of result_fields.hpp, whose
// for_each_result_field goes through them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cubie/batch/backend_workspace.hpp"
#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/result_fields.hpp"
#include "cubie/batch/result_legend.hpp"
#include "cubie/batch/result_views.hpp"
#include "cubie/core/host_array.hpp"
#include "cubie/core/status.hpp"

namespace cubie {

template <class T>
struct batch_result : result_views<batch_result<T>, T> {
    using result_legend<T>::n_trajectories;
    using result_legend<T>::n_saved_variables;
    using result_legend<T>::n_summary_rows;

    host_array<T> final_states;  ///< [state][trajectory]
    host_array<status> statuses;
    host_array<std::uint32_t> accepted_steps;  ///< over the whole solve
    host_array<std::uint32_t> rejected_steps;
    host_array<std::uint32_t> newton_iterations;  ///< over the whole solve, rejected steps too
    host_array<std::uint32_t> linear_iterations;
    host_array<T> saved;                       ///< [save][saved variable][trajectory]
    host_array<std::uint32_t> saved_counters;  ///< [save][counter][trajectory], since the
                                               ///< previous save (or t0)
    host_array<T> summaries;                   ///< [window][summary row][trajectory]
    host_array<std::uint32_t> event_counts;    ///< [event][trajectory]: every occurrence
    host_array<T> event_times;                 ///< [event record][trajectory]
    host_array<T> event_states;                ///< [event record][state][trajectory]
    /// Buffers the cuda backend keeps for the next solve into this result.
    backend_workspace workspace;

    // Element accessors check every index against its own extent and throw
    // std::out_of_range naming it; the arrays themselves are the unchecked path.
    T final_state(int state, std::size_t trajectory) const {
        this->check_index("state", state, this->n_states);
        this->check_index("trajectory", trajectory, n_trajectories);
        return final_states[static_cast<std::size_t>(state) * n_trajectories + trajectory];
    }
    T saved_value(std::size_t save, std::size_t variable, std::size_t trajectory) const {
        this->check_index("save", save, this->n_saves());
        this->check_index("saved variable", variable, n_saved_variables());
        this->check_index("trajectory", trajectory, n_trajectories);
        return saved[(save * n_saved_variables() + variable) * n_trajectories + trajectory];
    }
    std::uint32_t saved_counter(std::size_t save, std::size_t counter,
                                std::size_t trajectory) const {
        this->check_index("save", save, this->n_saves());
        this->check_index("counter", counter, this->counter_names.size());
        this->check_index("trajectory", trajectory, n_trajectories);
        return saved_counters[(save * this->counter_names.size() + counter) * n_trajectories +
                              trajectory];
    }
    T summary_value(std::size_t window, std::size_t row, std::size_t trajectory) const {
        this->check_index("window", window, this->n_windows());
        this->check_index("summary row", row, n_summary_rows());
        this->check_index("trajectory", trajectory, n_trajectories);
        return summaries[(window * n_summary_rows() + row) * n_trajectories + trajectory];
    }

    /// How often the event called name occurred in a trajectory (all occurrences, also
    /// those past its capacity).
    std::uint32_t event_count(const std::string& event, std::size_t trajectory) const {
        const std::size_t e = this->event_index(event);
        this->check_index("trajectory", trajectory, n_trajectories);
        return event_counts[e * n_trajectories + trajectory];
    }
    /// The time of occurrence k (from 0) of the event called name; NaN where the trajectory
    /// had fewer.
    T event_time(const std::string& event, std::size_t k, std::size_t trajectory) const {
        const auto [first, count] = this->event_records(event);
        this->check_index("occurrence", k, count);
        this->check_index("trajectory", trajectory, n_trajectories);
        return event_times[(first + k) * n_trajectories + trajectory];
    }
    /// A state at occurrence k of the event called name (before any action there).
    T event_state(const std::string& event, std::size_t k, int state,
                  std::size_t trajectory) const {
        const auto [first, count] = this->event_records(event);
        this->check_index("occurrence", k, count);
        this->check_index("state", state, this->n_states);
        this->check_index("trajectory", trajectory, n_trajectories);
        return event_states[((first + k) * static_cast<std::size_t>(this->n_states) +
                             static_cast<std::size_t>(state)) *
                                n_trajectories +
                            trajectory];
    }

    /// Why trajectory i stopped, in words ("success", "max_steps_exceeded", ...).
    const char* status_message(std::size_t i) const {
        this->check_index("trajectory", i, n_trajectories);
        return to_string(statuses[i]);
    }

    /// Marks trajectories [first, first + count) as never integrated: status cancelled, no
    /// steps, iterations or events, NaN values, counters of 2^32 - 1. The arrays are sized for
    /// n_trajectories; a whole batch is written by every OpenMP thread.
    void mark_unsolved(std::size_t first, std::size_t count) {
        for_each_result_field(
            [&]<class U>(const result_field& f, host_array<U>& a) {
                mark(a, first, count, unsolved_value<U>(f.unsolved));
            },
            *this);
    }

    /// Trajectories that failed: neither success nor terminated_by_event.
    std::size_t failures() const {
        return static_cast<std::size_t>(std::count_if(statuses.begin(), statuses.end(),
                                                      [](status s) { return !succeeded(s); }));
    }

    // What the batch was solved from, so that result files (io/) name their inputs: empty
    // until keep_inputs copies them, after a solve into this result. Each solve empties
    // them first, so that a file written from a reused result never shows another
    // solve's inputs.
    host_array<T> initial_states;              ///< [state][trajectory]
    host_array<T> parameters;                  ///< [parameter][trajectory]
    std::vector<std::string> parameter_names;  ///< legend of the parameter rows

    /// Copies the inputs (in host memory) that this result was solved from, with the names
    /// of the system's parameters (cubie::parameter_names<System>()).
    void keep_inputs(const batch_inputs<T>& inputs, std::vector<std::string> names) {
        const std::size_t n = inputs.n_trajectories;
        const std::size_t states = static_cast<std::size_t>(this->n_states);
        if (n != n_trajectories || inputs.initial_states.size() != states * n ||
            inputs.parameters.size() != names.size() * n)
            throw std::invalid_argument(
                "keep_inputs: " + std::to_string(n) + " trajectories of " +
                std::to_string(inputs.initial_states.size()) + " initial values and " +
                std::to_string(inputs.parameters.size()) + " parameter values for " +
                std::to_string(names.size()) + " parameters; this result has " +
                std::to_string(n_trajectories) + " trajectories of " + std::to_string(states) +
                " states");
        initial_states.assign(inputs.initial_states.begin(), inputs.initial_states.end());
        parameters.assign(inputs.parameters.begin(), inputs.parameters.end());
        parameter_names = std::move(names);
    }

private:
    /// Columns [first, first + count) of every row of a [row][trajectory] array.
    template <class U>
    void mark(host_array<U>& a, std::size_t first, std::size_t count, const U& value) {
        if (first == 0 && count == n_trajectories) {
            fill_in_parallel(a, value);
            return;
        }
        const std::size_t rows = n_trajectories > 0 ? a.size() / n_trajectories : 0;
        for (std::size_t r = 0; r < rows; ++r)
            std::fill_n(a.data() + r * n_trajectories + first, count, value);
    }
};

}  // namespace cubie
