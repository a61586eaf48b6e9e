#pragma once
// Recording a trajectory's outputs while it is integrated.
//
// output_targets: what every trajectory of a solve shares (the save and sample time grids,
// which variable goes to which row, the output arrays); built by the solver on the host,
// bound to host or device arrays by the backend.
//
// output_recorder: one trajectory's side of it. The integration loop asks when the next
// output is due and hands over the state there, record(f, t, y, counters); f is the
// trajectory's right-hand side (for observables). How it asks is the recorder's schedule:
// by time for adaptive steps (next_time(), next_since_t0()), by the number of steps taken
// for fixed steps (next_step()), whose output times are whole numbers of steps: counts
// known before the solve, compared without any float arithmetic. A recorder whose
// `records` is false is never asked and compiles to nothing.

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cassert>
#include <concepts>
#include <cstddef>
#include <cstdint>

#include "cubie/core/batch_view.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/step_counters.hpp"
#include "cubie/core/unrecorded_nan.hpp"
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
    /// The same rows as offsets in `saved` (row times its stride; -1 where not saved), and
    /// the offset from one save to the next, set by bind(): a save adds them to its first
    /// row's address rather than multiplying a row by the stride for every value.
    vector<std::ptrdiff_t, System::n_states> state_offset{};
    vector<std::ptrdiff_t, System::n_observables> observable_offset{};
    std::size_t save_offset = 0;
    /// Every state saved, in order, in a save's first rows (the default): a save writes
    /// them one stride apart without looking up their offsets.
    bool states_in_order = false;
    batch_view<std::uint32_t> saved_counters{};

    time_grid<T> samples{};  ///< summary samples: k = 0 (t0, history only) .. K
    std::uint32_t samples_per_window = 0;
    std::uint32_t n_windows = 0;
    batch_view<T> summaries{};

    /// n_trajectories from the pointers on, rows `stride` apart (see batch_view).
    void bind(const output_arrays<T>& a, std::size_t n_trajectories, std::size_t stride) {
        const int n_saves = static_cast<int>(saves.count());
        if constexpr (layout::saves_states || layout::saves_observables) {
            saved = {a.saved, n_saves * rows_per_save, n_trajectories, stride};
            const auto offset_of = [&](int row) {
                return row < 0 ? std::ptrdiff_t{-1} : static_cast<std::ptrdiff_t>(row * stride);
            };
            states_in_order = true;
            for (int v = 0; v < System::n_states; ++v) {
                state_offset[v] = offset_of(state_row[v]);
                states_in_order = states_in_order && state_row[v] == v;
            }
            for (int v = 0; v < System::n_observables; ++v)
                observable_offset[v] = offset_of(observable_row[v]);
            save_offset = static_cast<std::size_t>(rows_per_save) * stride;
        }
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

/// How a loop learns when outputs are due: by time (adaptive steps), or by the number of
/// fixed steps taken.
enum class output_schedule { by_time, by_step };

namespace detail {
/// When the next output is due, as a schedule tells it: the time and the time since t0,
/// or the count of steps (time_grid::step_or_never) and the solve's number of fixed steps.
template <output_schedule Schedule, class T>
struct next_due {
    T time;
    T since_t0;
};
template <class T>
struct next_due<output_schedule::by_step, T> {
    std::uint64_t step;
    std::uint32_t n_steps;
};
}  // namespace detail

/// Outputs of one grid that a fixed-step loop may take without a check between them
/// (output_recorder::next_run()).
struct output_run {
    std::uint32_t length = 0;  ///< outputs
    std::uint32_t every = 0;   ///< steps from one to the next
    bool saves = false;        ///< saves, else summary samples
};

/// A run's kind as a type (output_recorder::visit_run()): saves or summary samples, one
/// step apart where OneStep.
template <bool Saves, bool OneStep>
struct output_run_kind {
    static constexpr bool saves = Saves;
    static constexpr bool one_step = OneStep;
};

template <output_schedule Schedule, ode_system System, class... Outputs>
class output_recorder {
    using layout = output_layout<System, Outputs...>;
    using T = typename System::value_type;
    using windows_type = cuda::std::conditional_t<layout::summarises, typename layout::windows_type,
                                                  detail::nothing_summarised>;
    static constexpr bool by_step = Schedule == output_schedule::by_step;

    static constexpr bool summarises_without_neighbours = [] {
        if constexpr (layout::summarises)
            return !windows_type::needs_neighbours;
        else
            return false;
    }();

public:
    static constexpr bool records = layout::records;
    static constexpr output_schedule schedule = Schedule;
    /// By step, summaries whose accumulators see each sample alone can be taken in runs
    /// (next_run()), and saves without counters; neither with observables, which are only
    /// ever evaluated at states found finite (a system's observables need not be defined
    /// elsewhere).
    static constexpr bool samples_in_runs =
        by_step && summarises_without_neighbours && !layout::summarises_observables;
    static constexpr bool saves_in_runs =
        by_step && layout::saves_states && !layout::saves_observables && !layout::saves_counters;
    static constexpr bool records_in_runs = samples_in_runs || saves_in_runs;

    /// By time: for adaptive steps.
    CUBIE_HD output_recorder(const output_targets<System, Outputs...>& targets,
                             std::size_t trajectory) requires(!by_step)
        : targets_(targets), trajectory_(trajectory), next_{time_due(), since_t0_due()} {
        bind_windows();
    }
    /// By step: for a solve of n_steps fixed steps (integration_settings::fixed_steps),
    /// the grids' every_steps set (output_plan.hpp).
    CUBIE_HD output_recorder(const output_targets<System, Outputs...>& targets,
                             std::size_t trajectory, std::uint32_t n_steps) requires(by_step)
        : targets_(targets), trajectory_(trajectory), next_{0, n_steps} {
        next_.step = step_due();
        bind_windows();
    }

    /// The next time an output is due; +infinity when none is. Kept rather than computed
    /// from the grids: the loop asks after every step.
    CUBIE_HD T next_time() const requires(!by_step) { return next_.time; }
    /// The same time since t0, not rounded through t0 (time_grid::since_t0_or_never).
    CUBIE_HD T next_since_t0() const requires(!by_step) { return next_.since_t0; }
    /// The number of fixed steps taken when the next output is due (0: at t0), or
    /// time_grid<T>::never() when none is.
    CUBIE_HD std::uint64_t next_step() const requires(by_step) { return next_.step; }

    /// Takes the outputs due next; y is the state there and t its time (by step, t0 + i dt
    /// after i fixed steps, which the output time equals up to rounding).
    CUBIE_HD void record(const right_hand_side<System>& f, T t, const state_t<System>& y,
                         const step_counters& counters) {
        // With one grid, the output due is that grid's.
        if constexpr (layout::saves) {
            if (!layout::summarises || due_now(targets_.saves, next_save_)) {
                save(f, t, y, counters);
                ++next_save_;
            }
        }
        if constexpr (layout::summarises) {
            if (!layout::saves || due_now(targets_.samples, next_sample_)) {
                sample(f, t, y);
                ++next_sample_;
            }
        }
        if constexpr (by_step) {
            next_.step = step_due();
        } else {
            next_.time = time_due();
            next_.since_t0 = since_t0_due();
        }
    }

    /// The run of outputs due next: `length` points of one grid (saves, or summary samples
    /// inside a window), `every` steps apart from next_step() on, with no output of the
    /// other grid among them and none at the last step or past it. The loop takes a run
    /// without checking finiteness between its outputs (take_in_run(), end_run()). A run
    /// that ends non-finite is taken again step by step from its start, with the checks:
    /// saves are written again with the same values up to the failure, and the run's later
    /// saves are set NaN (after_failed_run()), as for any save not reached; a run of
    /// samples is ended first (end_run()), so the retake records none again: they went to
    /// a window the failure leaves unfinished, which is never written. Saves with counters
    /// are not taken in runs (their differences would have to be taken back); summaries
    /// whose accumulators see neighbours are not either (each sample finishes the last).
    /// length 0 where the next output starts no run. Asked only while an output is due
    /// before the last step, so n_steps > 0, and sample 0 (at t0) is taken.
    CUBIE_HD output_run next_run() const requires(records_in_runs) {
        const std::uint64_t never = time_grid<T>::never();
        assert(next_.n_steps > 0 && (!layout::summarises || next_sample_ > 0));
        std::uint64_t save = never, sample = never;
        if constexpr (layout::saves) save = targets_.saves.step_or_never(next_save_, next_.n_steps);
        if constexpr (layout::summarises)
            sample = targets_.samples.step_or_never(next_sample_, next_.n_steps);
        if constexpr (saves_in_runs)
            if (save < sample) return run_of(targets_.saves, next_save_, save, sample, never, true);
        if constexpr (samples_in_runs)
            if (sample < save)
                return run_of(targets_.samples, next_sample_, sample, save,
                              windows_.samples_within_window(), false);
        return {};
    }
    /// Calls visit(kind) with the kind of `run` as a type (output_run_kind), so that the
    /// loop keeps a copy of its steps for each: saves two steps per iteration, samples one
    /// step apart in pairs without an inner loop (take_pair_in_run()), other samples a step
    /// per iteration (bench/RESULTS.md).
    template <class Visit>
    CUBIE_HD void visit_run(const output_run& run, Visit&& visit) const requires(records_in_runs) {
        if constexpr (saves_in_runs) {
            if (run.saves) {
                visit(output_run_kind<true, false>{});
                return;
            }
        }
        if constexpr (samples_in_runs) {
            if (run.every == 1) {
                visit(output_run_kind<false, true>{});
                return;
            }
        }
        visit(output_run_kind<false, false>{});  // samples: not reached where none are taken
    }
    /// Output j (from 0) of a run of `Kind` (visit_run()), at (t, y).
    template <class Kind>
    CUBIE_HD void take_in_run(Kind, const right_hand_side<System>& f, T t, const state_t<System>& y,
                              std::uint32_t j) requires(records_in_runs) {
        if constexpr (Kind::saves && saves_in_runs)
            write_save(next_save_ + j, f, t, y);
        else if constexpr (!Kind::saves && samples_in_runs)
            windows_.add_within(summarised(f, t, y), j);
    }
    /// Samples j and j + 1 of a run of samples one step apart, at (t1, y1) and (t2, y2),
    /// where sample j opens a pair (opens_pair()): the same as take_in_run() on each, at
    /// less cost for accumulators that sum pairs (metrics/running_sum.hpp). A template, as
    /// opens_pair() is, so that Clang before 16 checks the constraint only where called.
    template <std::same_as<output_run_kind<false, true>> Kind>
    CUBIE_HD void take_pair_in_run(Kind, const right_hand_side<System>& f, T t1,
                                   const state_t<System>& y1, T t2, const state_t<System>& y2,
                                   std::uint32_t j) requires(samples_in_runs) {
        windows_.add_pair_within(summarised(f, t1, y1), summarised(f, t2, y2), j);
    }
    /// Output j (from 0) of a run of samples one step apart is an odd one of its window,
    /// which opens a pair with the next.
    template <std::same_as<output_run_kind<false, true>> Kind>
    CUBIE_HD bool opens_pair(Kind, std::uint32_t j) const requires(samples_in_runs) {
        return windows_.opens_pair(j);
    }
    /// The run's outputs are taken: the outputs due next are those after them.
    CUBIE_HD void end_run(const output_run& run) requires(records_in_runs) {
        if (run.saves) {
            next_save_ += run.length;
        } else {
            if constexpr (samples_in_runs) {
                next_sample_ += run.length;
                windows_.end_run(run.length);
            }
        }
        next_.step = step_due();
    }
    /// The index past `run`'s last output in its grid, before the run is taken.
    CUBIE_HD std::uint32_t run_end(const output_run& run) const requires(records_in_runs) {
        return (run.saves ? next_save_ : next_sample_) + run.length;
    }
    /// The trajectory failed inside a run (which would have ended at index `end`, run_end()),
    /// taken again up to the failure: the run's saves not reached are set NaN.
    CUBIE_HD void after_failed_run(const right_hand_side<System>& f, const output_run& run,
                                   std::uint32_t end) requires(records_in_runs) {
        if (run.saves)
            for (std::uint32_t index = next_save_; index < end; ++index)
                write_save(index, f, T(0), state_t<System>{}, true);
    }

private:
    CUBIE_HD static std::uint64_t least(std::uint64_t a, std::uint64_t b) { return a < b ? a : b; }

    /// The regular points of `grid` from point `index` on before the last step (k every_steps
    /// < n_steps).
    CUBIE_HD std::uint64_t regular_points_left(const time_grid<T>& grid,
                                               std::uint32_t index) const {
        const std::uint64_t k = std::uint64_t{grid.first_k} + index;
        const std::uint64_t last_k = least(grid.last_k, (next_.n_steps - 1) / grid.every_steps);
        return k <= last_k ? last_k - k + 1 : 0;
    }

    /// The run of `grid`'s points from `index` on, the first at step `first`: regular points
    /// before the last step, before `other` (the other grid's next step), at most `limit`.
    CUBIE_HD output_run run_of(const time_grid<T>& grid, std::uint32_t index, std::uint64_t first,
                               std::uint64_t other, std::uint64_t limit, bool saves) const {
        const std::uint64_t every = grid.every_steps;
        assert(every > 0);  // a fixed step's grids are whole numbers of steps (output_plan.hpp)
        std::uint64_t length = least(regular_points_left(grid, index), limit);
        if (other != time_grid<T>::never())
            length = least(length, (other - first + every - 1) / every);
        return {static_cast<std::uint32_t>(length), static_cast<std::uint32_t>(every), saves};
    }

    /// The windows take the targets' settings before any sample: bound outside the loop,
    /// they are read from the kernel's parameters rather than held in registers.
    CUBIE_HD void bind_windows() {
        if constexpr (layout::summarises)
            windows_.bind(targets_.samples.t0, targets_.samples.every, targets_.samples_per_window,
                          targets_.n_windows, targets_.summaries, trajectory_);
    }

    /// True when point `index` of `grid` is the output due next.
    CUBIE_HD bool due_now(const time_grid<T>& grid, std::uint32_t index) const {
        if constexpr (by_step)
            return grid.step_or_never(index, next_.n_steps) == next_.step;
        else
            return grid.time_or_never(index) == next_.time;
    }

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
    CUBIE_HD std::uint64_t step_due() const {
        std::uint64_t next = time_grid<T>::never();
        if constexpr (layout::saves) next = targets_.saves.step_or_never(next_save_, next_.n_steps);
        if constexpr (layout::summarises) {
            const std::uint64_t sample =
                targets_.samples.step_or_never(next_sample_, next_.n_steps);
            next = sample < next ? sample : next;
        }
        return next;
    }

    CUBIE_HD void save(const right_hand_side<System>& f, T t, const state_t<System>& y,
                       const step_counters& counters) {
        write_save(next_save_, f, t, y);
        if constexpr (layout::saves_counters) {
            const int row = static_cast<int>(next_save_) * n_saved_counters;
            targets_.saved_counters(row, trajectory_) = counters.accepted - at_last_save_.accepted;
            targets_.saved_counters(row + 1, trajectory_) =
                counters.rejected - at_last_save_.rejected;
            at_last_save_ = counters;
        }
    }

    /// The saved states and observables of save `index`, at (t, y); NaN for `unreached`.
    CUBIE_HD void write_save(std::uint32_t index, const right_hand_side<System>& f, T t,
                             const state_t<System>& y, bool unreached = false) {
        if constexpr (layout::saves_states || layout::saves_observables) {
            assert((static_cast<int>(index) + 1) * targets_.rows_per_save <= targets_.saved.rows());
            T* const first_row = targets_.saved.column(trajectory_) +
                                 static_cast<std::size_t>(index) * targets_.save_offset;
            const T nan = unrecorded_nan<T>();
            if constexpr (layout::saves_states) {
                if (targets_.states_in_order) {
                    T* row = first_row;
                    CUBIE_UNROLL
                    for (int v = 0; v < System::n_states; ++v, row += targets_.saved.stride())
                        *row = unreached ? nan : y[v];
                } else {
                    CUBIE_UNROLL
                    for (int v = 0; v < System::n_states; ++v)
                        if (targets_.state_offset[v] >= 0)
                            first_row[targets_.state_offset[v]] = unreached ? nan : y[v];
                }
            }
            if constexpr (layout::saves_observables) {
                observables_t<System> o{};
                if (!unreached) f.observables(t, y, o);
                CUBIE_UNROLL
                for (int v = 0; v < System::n_observables; ++v)
                    if (targets_.observable_offset[v] >= 0)
                        first_row[targets_.observable_offset[v]] = unreached ? nan : o[v];
            }
        }
    }

    /// The summarised variables at (t, y): the states, then the observables where summarised.
    CUBIE_HD vector<T, layout::n_summarised> summarised(const right_hand_side<System>& f, T t,
                                                        const state_t<System>& y) const {
        vector<T, layout::n_summarised> x{};
        CUBIE_UNROLL
        for (int v = 0; v < System::n_states; ++v) x[v] = y[v];
        if constexpr (layout::summarises_observables) {
            observables_t<System> o{};
            f.observables(t, y, o);
            CUBIE_UNROLL
            for (int v = 0; v < System::n_observables; ++v) x[System::n_states + v] = o[v];
        }
        return x;
    }

    CUBIE_HD void sample(const right_hand_side<System>& f, T t, const state_t<System>& y) {
        const vector<T, layout::n_summarised> x = summarised(f, t, y);
        if (next_sample_ == 0)
            windows_.first(x);
        else
            windows_.add(x);
    }

    const output_targets<System, Outputs...>& targets_;
    std::size_t trajectory_;
    std::uint32_t next_save_ = 0;
    std::uint32_t next_sample_ = 0;
    detail::next_due<Schedule, T> next_;
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
    CUBIE_HD std::uint64_t next_step() const {
        return time_grid<typename System::value_type>::never();
    }
    CUBIE_HD void record(const right_hand_side<System>&, typename System::value_type,
                         const state_t<System>&, const step_counters&) {}
};

}  // namespace cubie
