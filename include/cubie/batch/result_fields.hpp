#pragma once
// The one list of a result's [row][trajectory] arrays: final_states, statuses, the step and
// iteration counts, saved, saved_counters, summaries and the events' counts, times and
// states. Every structure that holds one thing per array (batch_result's host arrays,
// device_result's buffers, the cuda backend's chunk slots, the pointers a task is bound
// to, rows per trajectory) names its members after them, and goes through them with
// for_each_result_field instead of spelling the list out:
//
//   for_each_result_field([](const result_field& f, auto& to, const auto& from) {
//       ...  // f.name, rows per trajectory (rows.*f.rows), the unsolved mark f.unsolved
//   }, device, host);

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cubie/core/status.hpp"
#include "cubie/core/unrecorded_nan.hpp"

namespace cubie {

/// What a trajectory that was never integrated holds in an array.
enum class unsolved_mark {
    unrecorded,  ///< NaN values (unrecorded_nan.hpp), counters of 2^32 - 1: all bits set
    zero,        ///< no steps, iterations or events
    cancelled,   ///< status::cancelled
};

/// The value of an unsolved mark in an array of U, as the host writes it.
template <class U>
constexpr U unsolved_value(unsolved_mark mark) {
    if constexpr (std::is_same_v<U, status>) {
        return status::cancelled;
    } else if constexpr (std::is_floating_point_v<U>) {
        return mark == unsolved_mark::zero ? U{0} : unrecorded_nan<U>();
    } else {
        return mark == unsolved_mark::zero ? U{0} : std::numeric_limits<U>::max();
    }
}

/// The byte an unsolved mark repeats (cudaMemset): all bits set is a NaN and 2^32 - 1.
constexpr int unsolved_byte(unsolved_mark mark) {
    switch (mark) {
        case unsolved_mark::unrecorded:
            return 0xFF;
        case unsolved_mark::cancelled:
            return static_cast<int>(status::cancelled);
        default:
            return 0;
    }
}

/// Rows per trajectory of each array (a result of n trajectories holds rows x n values).
struct result_rows {
    std::size_t final_states = 0;                                      ///< the system's states
    std::size_t statuses = 0, accepted_steps = 0, rejected_steps = 0;  ///< 1 each
    std::size_t newton_iterations = 0, linear_iterations = 0;          ///< 1 each, implicit methods
    std::size_t saved = 0, saved_counters = 0, summaries = 0;
    std::size_t event_counts = 0, event_times = 0, event_states = 0;
    bool operator==(const result_rows&) const = default;
};

/// One array of the list: its name, its rows per trajectory, its mark where unsolved, and
/// whether every trajectory integrated writes all of its rows (saves and windows a
/// trajectory never reaches, and event records it never fills, are left as they were).
struct result_field {
    // Through an alias: nvcc's generated host code would otherwise declare the member
    // with parentheses, which g++ warns of.
    using rows_member = std::size_t result_rows::*;
    const char* name;
    rows_member rows;
    unsolved_mark unsolved;
    bool always_written;
};

/// Calls f(field, s.<field>...) for each array of the list, in order, with the member of
/// that name of every structure s.
template <class F, class... S>
void for_each_result_field(F&& f, S&&... s) {
    using m = unsolved_mark;
    using r = result_rows;
    f(result_field{"final_states", &r::final_states, m::unrecorded, true}, s.final_states...);
    f(result_field{"statuses", &r::statuses, m::cancelled, true}, s.statuses...);
    f(result_field{"accepted_steps", &r::accepted_steps, m::zero, true}, s.accepted_steps...);
    f(result_field{"rejected_steps", &r::rejected_steps, m::zero, true}, s.rejected_steps...);
    f(result_field{"newton_iterations", &r::newton_iterations, m::zero, true},
      s.newton_iterations...);
    f(result_field{"linear_iterations", &r::linear_iterations, m::zero, true},
      s.linear_iterations...);
    f(result_field{"saved", &r::saved, m::unrecorded, false}, s.saved...);
    f(result_field{"saved_counters", &r::saved_counters, m::unrecorded, false},
      s.saved_counters...);
    f(result_field{"summaries", &r::summaries, m::unrecorded, false}, s.summaries...);
    f(result_field{"event_counts", &r::event_counts, m::zero, true}, s.event_counts...);
    f(result_field{"event_times", &r::event_times, m::unrecorded, false}, s.event_times...);
    f(result_field{"event_states", &r::event_states, m::unrecorded, false}, s.event_states...);
}

}  // namespace cubie
