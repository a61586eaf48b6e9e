#pragma once
// What a batch solve returns: final states [state][trajectory], per trajectory its status
// and step counts, and with the save_state output the saved states
// [save][state][trajectory] at save_times (NaN where a trajectory failed before).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cubie/batch/kernel_report.hpp"
#include "cubie/core/status.hpp"

namespace cubie {

template <class T>
struct batch_result {
    std::size_t n_trajectories = 0;
    int n_states = 0;
    std::vector<T> final_states;  ///< [state][trajectory]
    std::vector<status> statuses;
    std::vector<std::uint32_t> accepted_steps;
    std::vector<std::uint32_t> rejected_steps;
    std::string backend;                  ///< where it ran: "host" or "cuda:<device name>"
    std::optional<kernel_report> kernel;  ///< the cuda backend's launch
    std::vector<T> save_times;            ///< with save_state: the times states were saved at
    std::vector<T> saved_states;          ///< with save_state: [save][state][trajectory]

    std::size_t n_saves() const { return save_times.size(); }

    T saved_state(std::size_t save, int state, std::size_t trajectory) const {
        return saved_states.at(
            (save * static_cast<std::size_t>(n_states) + static_cast<std::size_t>(state)) *
                n_trajectories +
            trajectory);
    }

    T final_state(int state, std::size_t trajectory) const {
        return final_states.at(static_cast<std::size_t>(state) * n_trajectories + trajectory);
    }

    /// Trajectories whose status is not success.
    std::size_t failures() const {
        return static_cast<std::size_t>(std::count_if(
            statuses.begin(), statuses.end(), [](status s) { return s != status::success; }));
    }
};

}  // namespace cubie
