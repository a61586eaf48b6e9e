#pragma once
// Recording a trajectory's outputs while it is integrated.
//
// output_targets: what every trajectory of a solve shares (the save and sample time grids,
// which variable goes to which row, the output arrays); built by the solver on the host,
// bound to host or device arrays by the backend.
//
// output_recorder: one trajectory's side of it. The integration loop asks for the next
// time an output is due, next_time(), and hands over the state there, record(f, t, y,
// counters); f is the trajectory's right-hand side (for observables). A recorder whose
// `records` is false is never asked and compiles to nothing.

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>

#include "cubie/core/batch_view.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/step_counters.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/events/event_recorder.hpp"
#include "cubie/outputs/output_layout.hpp"
#include "cubie/outputs/time_grid.hpp"
#include "cubie/systems/ode_system.hpp"
#include "cubie/systems/right_hand_side.hpp"

namespace cubie {

/// Counters saved per save interval, in row order.
inline constexpr int n_saved_counters = 2;  // accepted steps, rejected steps

/// The output arrays of a batch, [row][trajectory] each; null where not requested.
template <class T>
struct output_arrays {
    T* saved = nullptr;                       ///< [save][saved variable][trajectory]
    std::uint32_t* saved_counters = nullptr;  ///< [save][counter][trajectory]
    T* summaries = nullptr;                   ///< [window][summary row][trajectory]
    std::uint32_t* event_counts = nullptr;    ///< [event channel][trajectory]
    T* event_times = nullptr;                 ///< [event record][trajectory]
    T* event_states = nullptr;                ///< [event record][state][trajectory]
};

namespace detail {
struct nothing_summarised {};

/// The events' counts and records (events/event_recorder.hpp), as `events`; an empty base
/// without events, so that a kernel without them takes the same arguments as ever.
template <ode_system System, class List, bool Watches = event_layout<System, List>::channels != 0>
struct event_targets_of {};
template <ode_system System, class List>
struct event_targets_of<System, List, true> {
    event_targets<System, List> events{};
};
}  // namespace detail

template <ode_system System, class... Outputs>
struct output_targets
    : detail::event_targets_of<System, typename output_layout<System, Outputs...>::event_list> {
    using layout = output_layout<System, Outputs...>;
    using T = typename System::value_type;

    time_grid<T> saves{};
    /// Row of each state / observable within a save, -1 where not saved.
    vector<int, System::n_states> state_row{};
    vector<int, System::n_observables> observable_row{};
    int rows_per_save = 0;
    batch_view<T> saved{};
    batch_view<std::uint32_t> saved_counters{};

    time_grid<T> samples{};  ///< summary samples: k = 0 (t0, history only) .. K
    std::uint32_t samples_per_window = 0;
    std::uint32_t n_windows = 0;
    batch_view<T> summaries{};

    /// n_trajectories from the pointers on, rows `stride` apart (see batch_view).
    void bind(const output_arrays<T>& a, std::size_t n_trajectories, std::size_t stride) {
        const int n_saves = static_cast<int>(saves.count());
        if constexpr (layout::saves_states || layout::saves_observables)
            saved = {a.saved, n_saves * rows_per_save, n_trajectories, stride};
        if constexpr (layout::saves_counters)
            saved_counters = {a.saved_counters, n_saves * n_saved_counters, n_trajectories, stride};
        if constexpr (layout::summarises)
            summaries = {a.summaries, static_cast<int>(n_windows) * layout::windows_type::rows,
                         n_trajectories, stride};
        if constexpr (layout::watches)
            this->events.bind(a.event_counts, a.event_times, a.event_states, n_trajectories,
                              stride);
    }
};

template <ode_system System, class... Outputs>
class output_recorder {
    using layout = output_layout<System, Outputs...>;
    using T = typename System::value_type;
    using windows_type = cuda::std::conditional_t<layout::summarises, typename layout::windows_type,
                                                  detail::nothing_summarised>;

public:
    static constexpr bool records = layout::records;

    CUBIE_HD output_recorder(const output_targets<System, Outputs...>& targets,
                             std::size_t trajectory)
        : targets_(targets),
          trajectory_(trajectory),
          next_time_(time_due()),
          next_since_t0_(since_t0_due()) {}

    /// The next time an output is due; +infinity when none is. Kept rather than computed
    /// from the grids: the loop asks after every step.
    CUBIE_HD T next_time() const { return next_time_; }
    /// The same time since t0, not rounded through t0 (time_grid::since_t0_or_never).
    CUBIE_HD T next_since_t0() const { return next_since_t0_; }

    /// Takes the outputs due at next_time(); y is the state there (t is its time, equal to
    /// next_time() up to the rounding of fixed steps).
    CUBIE_HD void record(const right_hand_side<System>& f, T t, const state_t<System>& y,
                         const step_counters& counters) {
        // With one grid, the output due is that grid's.
        if constexpr (layout::saves) {
            if (!layout::summarises || targets_.saves.time_or_never(next_save_) == next_time_) {
                save(f, t, y, counters);
                ++next_save_;
            }
        }
        if constexpr (layout::summarises) {
            if (!layout::saves || targets_.samples.time_or_never(next_sample_) == next_time_) {
                sample(f, t, y);
                ++next_sample_;
            }
        }
        next_time_ = time_due();
        next_since_t0_ = since_t0_due();
    }

private:
    /// The earliest next point of the grids, as `at` gives it: time_grid::time_or_never, or
    /// time_grid::since_t0_or_never.
    template <T (time_grid<T>::*at)(std::uint32_t) const>
    CUBIE_HD T earliest_due() const {
        T next = cuda::std::numeric_limits<T>::infinity();
        if constexpr (layout::saves) next = (targets_.saves.*at)(next_save_);
        if constexpr (layout::summarises)
            next = cuda::std::fmin(next, (targets_.samples.*at)(next_sample_));
        return next;
    }
    CUBIE_HD T time_due() const { return earliest_due<&time_grid<T>::time_or_never>(); }
    CUBIE_HD T since_t0_due() const { return earliest_due<&time_grid<T>::since_t0_or_never>(); }

    CUBIE_HD void save(const right_hand_side<System>& f, T t, const state_t<System>& y,
                       const step_counters& counters) {
        const int base = static_cast<int>(next_save_) * targets_.rows_per_save;
        if constexpr (layout::saves_states) {
            CUBIE_UNROLL
            for (int v = 0; v < System::n_states; ++v)
                if (targets_.state_row[v] >= 0)
                    targets_.saved(base + targets_.state_row[v], trajectory_) = y[v];
        }
        if constexpr (layout::saves_observables) {
            observables_t<System> o{};
            f.observables(t, y, o);
            CUBIE_UNROLL
            for (int v = 0; v < System::n_observables; ++v)
                if (targets_.observable_row[v] >= 0)
                    targets_.saved(base + targets_.observable_row[v], trajectory_) = o[v];
        }
        if constexpr (layout::saves_counters) {
            const int row = static_cast<int>(next_save_) * n_saved_counters;
            targets_.saved_counters(row, trajectory_) = counters.accepted - at_last_save_.accepted;
            targets_.saved_counters(row + 1, trajectory_) =
                counters.rejected - at_last_save_.rejected;
            at_last_save_ = counters;
        }
    }

    CUBIE_HD void sample(const right_hand_side<System>& f, T t, const state_t<System>& y) {
        vector<T, layout::n_summarised> x{};
        CUBIE_UNROLL
        for (int v = 0; v < System::n_states; ++v) x[v] = y[v];
        if constexpr (layout::summarises_observables) {
            observables_t<System> o{};
            f.observables(t, y, o);
            CUBIE_UNROLL
            for (int v = 0; v < System::n_observables; ++v) x[System::n_states + v] = o[v];
        }
        if (next_sample_ == 0)
            windows_.start(x, targets_.samples.t0, targets_.samples.every,
                           targets_.samples_per_window, targets_.n_windows, targets_.summaries,
                           trajectory_);
        else
            windows_.add(x);
    }

    const output_targets<System, Outputs...>& targets_;
    std::size_t trajectory_;
    std::uint32_t next_save_ = 0;
    std::uint32_t next_sample_ = 0;
    T next_time_;
    T next_since_t0_;
    step_counters at_last_save_{};
    [[no_unique_address]] windows_type windows_{};
};

/// The recorder of a solve that records nothing: never asked for a state.
template <ode_system System>
struct no_recorder {
    static constexpr bool records = false;
    CUBIE_HD typename System::value_type next_time() const {
        return cuda::std::numeric_limits<typename System::value_type>::infinity();
    }
    CUBIE_HD typename System::value_type next_since_t0() const { return next_time(); }
    CUBIE_HD void record(const right_hand_side<System>&, typename System::value_type,
                         const state_t<System>&, const step_counters&) {}
};

}  // namespace cubie
