#pragma once
// Recording a trajectory's events: how often each channel (condition) crossed, and the time
// and state of its first occurrences, up to the channel's capacity. Occurrences past it are
// counted and never written: a trajectory's records are fixed rows, sized at compile time.
//
// event_targets: what every trajectory of a solve shares, the arrays [row][trajectory]
//   counts  [channel][trajectory]               std::uint32_t
//   times   [record][trajectory]                T
//   states  [record][state][trajectory]         T
// and the tolerance to which crossings are located; bound by the backend like the outputs.
// event_recorder: one trajectory's side. Its counts stay in registers until write_counts();
// the times and states of the records it keeps are written as they occur, and rows a
// trajectory never reaches keep what the arrays held (NaN, as the backends mark them).

#include <cuda/std/array>

#include <cstddef>
#include <cstdint>

#include "cubie/core/batch_view.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/events/event_list.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

template <ode_system System, class List>
struct event_targets {
    using T = typename System::value_type;
    using layout = event_layout<System, List>;

    batch_view<std::uint32_t> counts{};
    batch_view<T> times{};
    batch_view<T> states{};
    /// Crossings are located to this time (absolute); 0: to the working precision.
    T time_tolerance = 0;

    /// n_trajectories from the pointers on, rows `stride` apart (see batch_view).
    void bind(std::uint32_t* counts_data, T* times_data, T* states_data, std::size_t n_trajectories,
              std::size_t stride) {
        counts = {counts_data, layout::channels, n_trajectories, stride};
        times = {times_data, layout::records, n_trajectories, stride};
        states = {states_data, layout::records * System::n_states, n_trajectories, stride};
    }
};

template <ode_system System, class List>
class event_recorder {
    using T = typename System::value_type;
    using layout = event_layout<System, List>;

public:
    using list = List;
    /// A recorder of no events is never asked and compiles to nothing.
    static constexpr bool watches = layout::channels > 0;

    CUBIE_HD event_recorder(const event_targets<System, List>& targets, std::size_t trajectory)
        : targets_(targets), trajectory_(trajectory) {}

    CUBIE_HD T time_tolerance() const { return targets_.time_tolerance; }

    /// One occurrence of Channel at time t with state y: counted, and kept while the
    /// channel has room. The count saturates at 2^32 - 1.
    template <int Channel>
    CUBIE_HD void record(T t, const state_t<System>& y) {
        const std::uint32_t k = counts_[Channel];
        if constexpr (layout::capacity(Channel) > 0) {
            if (k < static_cast<std::uint32_t>(layout::capacity(Channel))) {
                const int row = layout::first_record(Channel) + static_cast<int>(k);
                targets_.times(row, trajectory_) = t;
                CUBIE_UNROLL
                for (int v = 0; v < System::n_states; ++v)
                    targets_.states(row * System::n_states + v, trajectory_) = y[v];
            }
        }
        counts_[Channel] = k + (k != ~std::uint32_t{0} ? 1u : 0u);
    }

    /// The occurrences of a channel so far.
    CUBIE_HD std::uint32_t count(int channel) const { return counts_[channel]; }

    /// Writes every channel's count (after the integration, whatever its outcome).
    CUBIE_HD void write_counts() const {
        CUBIE_UNROLL
        for (int c = 0; c < layout::channels; ++c) targets_.counts(c, trajectory_) = counts_[c];
    }

private:
    const event_targets<System, List>& targets_;
    std::size_t trajectory_;
    vector<std::uint32_t, layout::channels> counts_{};
};

}  // namespace cubie
