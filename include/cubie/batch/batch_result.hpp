#pragma once
// What a batch solve returns: host arrays it owns (core/host_array.hpp: std::vectors
// that are filled in parallel), laid out with the trajectory index fastest (as the device
// writes them), with legends naming every row (result_legend.hpp).
//
//   final_states     [state][trajectory]          always
//   statuses, accepted_steps, rejected_steps       always, one per trajectory
//   newton_iterations, linear_iterations           implicit methods, one per trajectory
//                                                  (algorithms/implicit_step.hpp); else empty
//   saved            [save][saved variable][trajectory]   save_state / save_observables
//   saved_counters   [save][counter][trajectory]          save_counters
//   summaries        [window][summary row][trajectory]    summaries<...>
//
// Saved values and summaries a trajectory never reached (it failed earlier) are NaN.
// Views: series(name) is [save][trajectory] of one saved variable; trajectory(i) is
// [save][saved variable] of one trajectory; summary(row name) is [window][trajectory].

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cubie/batch/result_legend.hpp"
#include "cubie/core/host_array.hpp"
#include "cubie/core/status.hpp"

namespace cubie {

template <class T>
struct batch_result : result_legend<T> {
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

    T final_state(int state, std::size_t trajectory) const {
        return final_states.at(static_cast<std::size_t>(state) * n_trajectories + trajectory);
    }
    T saved_value(std::size_t save, std::size_t variable, std::size_t trajectory) const {
        return saved.at((save * n_saved_variables() + variable) * n_trajectories + trajectory);
    }
    std::uint32_t saved_counter(std::size_t save, std::size_t counter,
                                std::size_t trajectory) const {
        return saved_counters.at((save * this->counter_names.size() + counter) * n_trajectories +
                                 trajectory);
    }
    T summary_value(std::size_t window, std::size_t row, std::size_t trajectory) const {
        return summaries.at((window * n_summary_rows() + row) * n_trajectories + trajectory);
    }

    /// [save][trajectory] of the saved variable called name.
    result_view<T> series(const std::string& name) const {
        return this->series_of(saved.data(), name);
    }
    /// [save][saved variable] of one trajectory.
    result_view<T> trajectory(std::size_t i) const { return this->trajectory_of(saved.data(), i); }
    /// [window][trajectory] of the summary row called name ("x.mean").
    result_view<T> summary(const std::string& name) const {
        return this->summary_of(summaries.data(), name);
    }

    /// Why trajectory i stopped, in words ("success", "max_steps_exceeded", ...).
    const char* status_message(std::size_t i) const { return to_string(statuses.at(i)); }

    /// Trajectories whose status is not success.
    std::size_t failures() const {
        return static_cast<std::size_t>(std::count_if(
            statuses.begin(), statuses.end(), [](status s) { return s != status::success; }));
    }
};

}  // namespace cubie
