#pragma once
// What a batch solve returns: host arrays it owns, laid out with the trajectory index
// fastest (as the device writes them), with legends naming every row.
//
//   final_states     [state][trajectory]          always
//   statuses, accepted_steps, rejected_steps       always, one per trajectory
//   saved            [save][saved variable][trajectory]   save_state / save_observables
//   saved_counters   [save][counter][trajectory]          save_counters
//   summaries        [window][summary row][trajectory]    summaries<...>
//
// Saved values and summaries a trajectory never reached (it failed earlier) are NaN.
// Views: series(name) is [save][trajectory] of one saved variable; trajectory(i) is
// [save][saved variable] of one trajectory; summary(row name) is [window][trajectory].

#include <cuda/std/mdspan>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/batch/kernel_report.hpp"
#include "cubie/core/status.hpp"

namespace cubie {

/// A strided 2-D view over a result array.
template <class T>
using result_view =
    cuda::std::mdspan<const T, cuda::std::dextents<std::size_t, 2>, cuda::std::layout_stride>;

template <class T>
struct batch_result {
    std::size_t n_trajectories = 0;
    int n_states = 0;
    std::vector<std::string> state_names;  ///< the system's states, in order
    std::vector<T> final_states;           ///< [state][trajectory]
    std::vector<status> statuses;
    std::vector<std::uint32_t> accepted_steps;  ///< over the whole solve
    std::vector<std::uint32_t> rejected_steps;
    std::string backend;                  ///< where it ran: "host" or "cuda:<device name>"
    std::optional<kernel_report> kernel;  ///< the cuda backend's launch

    std::vector<T> save_times;                  ///< [save]
    std::vector<std::string> saved_variables;   ///< legend of the saved rows
    std::vector<T> saved;                       ///< [save][saved variable][trajectory]
    std::vector<std::string> counter_names;     ///< legend of the counter rows
    std::vector<std::uint32_t> saved_counters;  ///< [save][counter][trajectory], since the
                                                ///< previous save (or t0)

    std::vector<T> window_ends;               ///< [window]: the time each window ends at
    std::vector<std::string> summary_legend;  ///< "<variable>.<output>", e.g. "x.mean"
    std::vector<T> summaries;                 ///< [window][summary row][trajectory]

    std::size_t n_saves() const { return save_times.size(); }
    std::size_t n_saved_variables() const { return saved_variables.size(); }
    std::size_t n_windows() const { return window_ends.size(); }
    std::size_t n_summary_rows() const { return summary_legend.size(); }

    T final_state(int state, std::size_t trajectory) const {
        return final_states.at(static_cast<std::size_t>(state) * n_trajectories + trajectory);
    }
    T saved_value(std::size_t save, std::size_t variable, std::size_t trajectory) const {
        return saved.at((save * n_saved_variables() + variable) * n_trajectories + trajectory);
    }
    std::uint32_t saved_counter(std::size_t save, std::size_t counter,
                                std::size_t trajectory) const {
        return saved_counters.at((save * counter_names.size() + counter) * n_trajectories +
                                 trajectory);
    }
    T summary_value(std::size_t window, std::size_t row, std::size_t trajectory) const {
        return summaries.at((window * n_summary_rows() + row) * n_trajectories + trajectory);
    }

    /// [save][trajectory] of the saved variable called name.
    result_view<T> series(const std::string& name) const {
        const std::size_t v = index_of(saved_variables, name, "saved variable");
        return view(saved.data() + v * n_trajectories, n_saves(),
                    n_saved_variables() * n_trajectories, n_trajectories, 1);
    }
    /// [save][saved variable] of one trajectory.
    result_view<T> trajectory(std::size_t i) const {
        check_trajectory(i);
        return view(saved.data() + i, n_saves(), n_saved_variables() * n_trajectories,
                    n_saved_variables(), n_trajectories);
    }
    /// [window][trajectory] of the summary row called name ("x.mean").
    result_view<T> summary(const std::string& name) const {
        const std::size_t r = index_of(summary_legend, name, "summary");
        return view(summaries.data() + r * n_trajectories, n_windows(),
                    n_summary_rows() * n_trajectories, n_trajectories, 1);
    }

    /// Why trajectory i stopped, in words ("success", "max_steps_exceeded", ...).
    const char* status_message(std::size_t i) const { return to_string(statuses.at(i)); }

    /// Trajectories whose status is not success.
    std::size_t failures() const {
        return static_cast<std::size_t>(std::count_if(
            statuses.begin(), statuses.end(), [](status s) { return s != status::success; }));
    }

private:
    static std::size_t index_of(const std::vector<std::string>& legend, const std::string& name,
                                const char* what) {
        const auto it = std::find(legend.begin(), legend.end(), name);
        if (it == legend.end())
            throw std::out_of_range(std::string("no ") + what + " called \"" + name +
                                    "\" in this result");
        return static_cast<std::size_t>(it - legend.begin());
    }
    void check_trajectory(std::size_t i) const {
        if (i >= n_trajectories)
            throw std::out_of_range("trajectory " + std::to_string(i) + " of " +
                                    std::to_string(n_trajectories));
    }
    static result_view<T> view(const T* data, std::size_t rows, std::size_t row_stride,
                               std::size_t columns, std::size_t column_stride) {
        using extents = cuda::std::dextents<std::size_t, 2>;
        const cuda::std::layout_stride::mapping<extents> mapping(
            extents{rows, columns}, cuda::std::array<std::size_t, 2>{row_stride, column_stride});
        return result_view<T>(data, mapping);
    }
};

}  // namespace cubie
