#pragma once
// What names and times the arrays of a batch's result: the legends shared by a result in
// host memory (batch_result) and one kept in device memory (device_result), and the
// strided 2-D views both give of their [row][trajectory] arrays.

#include <cuda/std/mdspan>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cubie/batch/kernel_report.hpp"

namespace cubie {

/// A strided 2-D view over a result array.
template <class T>
using result_view =
    cuda::std::mdspan<const T, cuda::std::dextents<std::size_t, 2>, cuda::std::layout_stride>;

template <class T>
struct result_legend {
    std::size_t n_trajectories = 0;
    int n_states = 0;
    std::vector<std::string> state_names;  ///< the system's states, in order
    std::string backend;                   ///< where it ran: "host" or "cuda:<device name>"
    std::optional<kernel_report> kernel;   ///< the cuda backend's launch

    std::vector<T> save_times;                    ///< [save]
    std::vector<std::string> saved_variables;     ///< legend of the saved rows
    std::vector<std::string> counter_names;       ///< legend of the counter rows
    std::vector<T> window_ends;                   ///< [window]: the time each window ends at
    std::vector<std::string> summary_legend;      ///< "<variable>.<output>", e.g. "x.mean"
    std::vector<std::string> event_names;         ///< [event channel]: "ground", "walls[1]"
    std::vector<std::string> event_record_names;  ///< [event record]: "ground.0", "ground.1"

    std::size_t n_saves() const { return save_times.size(); }
    std::size_t n_saved_variables() const { return saved_variables.size(); }
    std::size_t n_windows() const { return window_ends.size(); }
    std::size_t n_summary_rows() const { return summary_legend.size(); }
    std::size_t n_event_channels() const { return event_names.size(); }
    std::size_t n_event_records() const { return event_record_names.size(); }

    /// The position of the event (channel) called name.
    std::size_t event_index(const std::string& name) const {
        return index_of(event_names, name, "event");
    }
    /// Where the records of the event called name start, and how many it keeps (its
    /// capacity): rows "<name>.0", "<name>.1", ... of event_record_names.
    std::pair<std::size_t, std::size_t> event_records(const std::string& name) const {
        event_index(name);  // throws for an unknown event
        const auto first =
            std::find(event_record_names.begin(), event_record_names.end(), name + ".0");
        std::size_t count = 0;
        while (first + static_cast<std::ptrdiff_t>(count) != event_record_names.end() &&
               *(first + static_cast<std::ptrdiff_t>(count)) == name + "." + std::to_string(count))
            ++count;
        return {static_cast<std::size_t>(first - event_record_names.begin()), count};
    }

protected:
    /// [save][trajectory] of the saved variable called name, in `saved`.
    result_view<T> series_of(const T* saved, const std::string& name) const {
        const std::size_t v = index_of(saved_variables, name, "saved variable");
        return view(saved + v * n_trajectories, n_saves(), n_saved_variables() * n_trajectories,
                    n_trajectories, 1);
    }
    /// [save][saved variable] of trajectory i, in `saved`.
    result_view<T> trajectory_of(const T* saved, std::size_t i) const {
        check_index("trajectory", i, n_trajectories);
        return view(saved + i, n_saves(), n_saved_variables() * n_trajectories, n_saved_variables(),
                    n_trajectories);
    }
    /// [window][trajectory] of the summary row called name, in `summaries`.
    result_view<T> summary_of(const T* summaries, const std::string& name) const {
        const std::size_t r = index_of(summary_legend, name, "summary");
        return view(summaries + r * n_trajectories, n_windows(), n_summary_rows() * n_trajectories,
                    n_trajectories, 1);
    }

    /// [occurrence][trajectory] of the kept times of the event called name, in `times`.
    result_view<T> event_times_of(const T* times, const std::string& name) const {
        const auto [first, count] = event_records(name);
        return view(times + first * n_trajectories, count, n_trajectories, n_trajectories, 1);
    }
    /// [occurrence][trajectory] of one state at the kept occurrences of the event called
    /// name, in `states` ([record][state][trajectory]).
    result_view<T> event_states_of(const T* states, const std::string& name,
                                   const std::string& state) const {
        const auto [first, count] = event_records(name);
        const std::size_t v = index_of(state_names, state, "state");
        const auto per_record = static_cast<std::size_t>(n_states) * n_trajectories;
        return view(states + first * per_record + v * n_trajectories, count, per_record,
                    n_trajectories, 1);
    }

    /// Throws std::out_of_range unless 0 <= index < size, naming both.
    template <class Index, class Size>
    static void check_index(const char* what, Index index, Size size) {
        bool negative = false;
        if constexpr (std::is_signed_v<Index>) negative = index < 0;
        if (negative || static_cast<std::size_t>(index) >= static_cast<std::size_t>(size))
            throw std::out_of_range(std::string(what) + " " + std::to_string(index) +
                                    " is out of range: this result has " + std::to_string(size) +
                                    " (valid: 0 to size - 1)");
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
    static result_view<T> view(const T* data, std::size_t rows, std::size_t row_stride,
                               std::size_t columns, std::size_t column_stride) {
        using extents = cuda::std::dextents<std::size_t, 2>;
        const cuda::std::layout_stride::mapping<extents> mapping(
            extents{rows, columns}, cuda::std::array<std::size_t, 2>{row_stride, column_stride});
        return result_view<T>(data, mapping);
    }
};

}  // namespace cubie
