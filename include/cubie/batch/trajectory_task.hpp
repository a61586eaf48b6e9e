#pragma once
// The work of one trajectory inside a batch: gather its inputs from [variable][trajectory]
// arrays, integrate while recording the requested outputs, scatter its final state.
// Backends bind the arrays (host or device memory) and call the task once per trajectory
// index, a GPU thread each (or `lanes` threads each) or an OpenMP iteration each;
// consecutive indices touch consecutive addresses, so a warp's accesses coalesce. Under
// balanced scheduling (batch/scheduling.hpp) a GPU thread of a one-lane method instead runs
// run_passes(): trajectories one after the other, a pass of the adaptive loop at a time,
// taking up the next between two steps of its warp's other lanes.

#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>
#include <new>

#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/batch/result_fields.hpp"
#include "cubie/core/batch_view.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/status.hpp"
#include "cubie/core/thread_shared.hpp"
#include "cubie/linear/lane_parts.hpp"
#include "cubie/loop/integrate.hpp"
#include "cubie/loop/lane_system.hpp"
#include "cubie/outputs/output_recorder.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

/// Where a batch's outputs live: one pointer per array of result_fields.hpp, laid out
/// [row][trajectory]; null where the solve records none.
template <class T>
struct result_pointers {
    T* final_states = nullptr;
    status* statuses = nullptr;
    std::uint32_t* accepted_steps = nullptr;
    std::uint32_t* rejected_steps = nullptr;
    std::uint32_t* newton_iterations = nullptr;  ///< implicit methods only
    std::uint32_t* linear_iterations = nullptr;
    T* saved = nullptr;
    std::uint32_t* saved_counters = nullptr;
    T* summaries = nullptr;
    std::uint32_t* event_counts = nullptr;
    T* event_times = nullptr;
    T* event_states = nullptr;
};

/// The pointers to column `first` of every array of a result (batch_result, device_result).
template <class T, class Result>
result_pointers<T> pointers_into(Result& r, std::size_t first) {
    result_pointers<T> p;
    for_each_result_field(
        [&](const result_field&, auto*& to, auto& from) {
            to = from.size() == 0 ? nullptr : from.data() + first;
        },
        p, r);
    return p;
}

/// Where a batch's inputs and outputs live, all laid out [variable][trajectory].
template <class T>
struct batch_arrays {
    const T* initial_states;
    const T* parameters;
    result_pointers<T> results;
};

template <stepper Algorithm, step_controller Controller, ode_system System,
          output_policy... Outputs>
struct trajectory_task {
    using T = typename System::value_type;
    using algorithm = Algorithm;
    using controller = Controller;
    using system_type = System;
    using layout = output_layout<System, Outputs...>;
    /// Threads per trajectory on the device (algorithms/on_lanes.hpp): consecutive ones,
    /// each running operator() for the same index and storing the same outputs, or each
    /// running on_lanes() with its share of the state and storing its own components.
    static constexpr int lanes = lanes_per_trajectory<Algorithm>;
    /// Values of shared memory a tile of lanes holds its trajectory's whole state in, where
    /// the method deals the state out over them (loop/lane_system.hpp); else 0.
    static constexpr int shared_values =
        deals_out_state<Algorithm> ? int(size_of<lane_part<T, System::n_states, lanes>>) * lanes
                                   : 0;
    /// Bytes of the block's dynamic shared memory a thread's steps keep values in
    /// (core/thread_shared.hpp); 0: none.
    static constexpr int thread_shared_bytes = thread_shared_bytes_of<Algorithm, System>;

    System system;
    integration_settings<Algorithm, Controller, System> settings;
    std::size_t n_trajectories;
    output_targets<System, Outputs...> outputs{};
    batch_view<const T> initial_states{};
    batch_view<const T> parameters{};
    batch_view<T> final_states{};
    batch_view<status> statuses{};
    batch_view<std::uint32_t> accepted_steps{};
    batch_view<std::uint32_t> rejected_steps{};
    batch_view<std::uint32_t> newton_iterations{};
    batch_view<std::uint32_t> linear_iterations{};

    /// The same task stepping with Other, a variant of Algorithm (core/thread_shared.hpp):
    /// the same system, settings, outputs and arrays.
    template <stepper Other>
    trajectory_task<Other, Controller, System, Outputs...> stepping_with() const {
        return {system,
                settings.template for_stepper<Other>(),
                n_trajectories,
                outputs,
                initial_states,
                parameters,
                final_states,
                statuses,
                accepted_steps,
                rejected_steps,
                newton_iterations,
                linear_iterations};
    }

    /// Points the task at the arrays of one backend: n_trajectories of them from the
    /// pointers on, rows of the inputs and of the outputs `input_stride` and
    /// `output_stride` apart (a chunk of a larger batch, or the whole of one).
    void bind(const batch_arrays<T>& a, std::size_t input_stride, std::size_t output_stride) {
        initial_states = {a.initial_states, System::n_states, n_trajectories, input_stride};
        parameters = {a.parameters, System::n_parameters, n_trajectories, input_stride};
        const result_pointers<T>& r = a.results;
        final_states = {r.final_states, System::n_states, n_trajectories, output_stride};
        statuses = {r.statuses, 1, n_trajectories, output_stride};
        accepted_steps = {r.accepted_steps, 1, n_trajectories, output_stride};
        rejected_steps = {r.rejected_steps, 1, n_trajectories, output_stride};
        newton_iterations = {r.newton_iterations, 1, n_trajectories, output_stride};
        linear_iterations = {r.linear_iterations, 1, n_trajectories, output_stride};
        outputs.bind(
            {r.saved, r.saved_counters, r.summaries, r.event_counts, r.event_times, r.event_states},
            n_trajectories, output_stride);
    }

    CUBIE_HD void operator()(std::size_t i) const {
        state_t<System> y{};
        parameters_t<System> p{};
        load(i, y, p);

        step_counters counters{};
        status result;
        if constexpr (layout::records) {
            if constexpr (Controller::adaptive) {
                output_recorder<output_schedule::by_time, System, Outputs...> recorder(outputs, i);
                result = integrate_watching(y, p, counters, recorder, i);
            } else {
                output_recorder<output_schedule::by_step, System, Outputs...> recorder(
                    outputs, i, settings.fixed_steps);
                result = integrate_watching(y, p, counters, recorder, i);
            }
        } else if constexpr (layout::watches) {
            no_recorder<System> nothing;
            result = integrate_watching(y, p, counters, nothing, i);
        } else {
            result = integrate<Algorithm, Controller>(system, settings, y, p, counters);
        }
        store(i, y, counters, result);
    }

    /// A thread's share of the batch under balanced scheduling (adaptive controllers):
    /// trajectories one after the other, each the index `claim()` gives (n_trajectories or
    /// more: none left), asked only when the thread has none in progress and until none is
    /// left. The loop is flat, an attempted step of the adaptive loop a pass: a GPU lane
    /// whose trajectory ended takes up the next in the pass its neighbours step in, rather
    /// than wait at the end of a loop of its own for the warp's slowest. The threads that
    /// share them (on the GPU a warp's lanes, or a block) call `any_working(working)` and
    /// `all_working(working)` together (a vote, or a barrier): the loop ends where no thread
    /// works, and the passes go on without a claim while every thread does, so that the
    /// claims' code stays out of the step's loop (balanced Tsit5 on a shuffled Lorenz sweep
    /// of 2^24 ran 1.07 times as fast on an H200 with adaptive_loop::advance's one way out,
    /// 1.03 without it; bench/RESULTS.md). The start (the inputs' check, the outputs due at
    /// t0, the events' sides at t0) and the passes are integrate()'s, so every trajectory's
    /// results, its event records included, are the same bit for bit.
    template <class Claim, class AnyWorking, class AllWorking>
    CUBIE_HD void run_passes(Claim&& claim, AnyWorking&& any_working,
                             AllWorking&& all_working) const {
        using recorder_type =
            cuda::std::conditional_t<layout::records, by_time_recorder, no_recorder<System>>;
        using monitor_type =
            cuda::std::conditional_t<layout::watches, event_monitor_type, no_event_monitor>;
        using loop_type =
            detail::adaptive_loop<Algorithm, Controller, System, recorder_type, monitor_type>;
        state_t<System> y{};
        parameters_t<System> p{};
        step_counters counters{};
        const right_hand_side<System> f{system, p, settings.drivers};
        // Made anew for each trajectory in their own places (remade): an object re-seated
        // elsewhere, an optional's, would keep what it refers to out of registers.
        recorder_type recorder = make_recorder(0);
        // The event records refer to a copy of their targets: referring into the task (a
        // kernel's parameter) across trajectories had the whole task copied to local memory
        // (680 bytes with Lorenz and one event; the copy takes 112).
        const auto event_targets = event_targets_copy();
        event_records_type events = make_event_records(event_targets, 0);
        monitor_type monitor = make_monitor(events, p);
        loop_type loop(settings, f, y, counters, recorder, monitor);
        decltype(claim()) i = 0;  // the claim's type: 32 bits within a GPU chunk
        bool working = false, claims_left = true;
        for (;;) {
            while (!working && claims_left) {
                const auto next = claim();
                if (next >= n_trajectories) {
                    claims_left = false;
                    break;
                }
                i = next;
                load(i, y, p);
                counters = {};
                remake(recorder, make_recorder(i));
                remake(events, make_event_records(event_targets, i));
                if (!detail::all_finite(y) || !detail::all_finite(p)) {
                    finish(i, y, counters, events, status::nonfinite_input);
                    continue;
                }
                if constexpr (layout::records)
                    while (recorder.next_time() <= settings.t0)
                        recorder.record(f, settings.t0, y, counters);
                if constexpr (layout::watches) {
                    remake(monitor, events, p);
                    monitor.start(f, settings.t0, y);
                }
                remake(loop, settings, f, y, counters, recorder, monitor);
                working = true;
            }
            if (!any_working(working)) return;
            do {
                status result;  // advance() sets it
                if (working && !loop.advance(result)) {
                    finish(i, y, counters, events, result);
                    working = false;
                }
            } while (all_working(working));
        }
    }

#if defined(__CUDACC__)
    /// Trajectory i on the calling thread's tile of lanes, the state dealt out over them
    /// (loop/lane_system.hpp), `whole` the tile's shared_values values of shared memory:
    /// each lane loads, saves and stores its own components; the status and counts, the
    /// same on every lane, are stored by the first.
    __device__ void on_lanes(std::size_t i, T* whole) const requires deals_out_state<Algorithm> {
        static_assert(has_rhs_at<System>,
                      "an explicit method on several lanes evaluates the system component by "
                      "component: the system needs rhs_at (generated systems have it)");
        using group = tile_lanes<lanes>;
        using shared_system = lane_system<System, group>;
        using method = typename unmapped<Algorithm>::type;
        const int lane = group::of_this_thread().lane();
        const shared_system sys{system, whole};
        state_t<shared_system> y{};
        parameters_t<System> p{};
        CUBIE_UNROLL
        for (int m = 0; m < shared_system::slots; ++m) {
            const int v = shared_system::component(lane, m);
            if (v < System::n_states) y[m] = initial_states(v, i);
        }
        CUBIE_UNROLL
        for (int v = 0; v < System::n_parameters; ++v) p[v] = parameters(v, i);
        step_counters counters{};
        const auto s = lane_settings<group, method>(settings, lane);
        status result;
        if constexpr (layout::records) {
            const auto targets = lane_targets<shared_system>(outputs, lane);
            if constexpr (Controller::adaptive) {
                output_recorder<output_schedule::by_time, shared_system, Outputs...> recorder(
                    targets, i);
                result = integrate<method, Controller>(sys, s, y, p, counters, recorder);
            } else {
                output_recorder<output_schedule::by_step, shared_system, Outputs...> recorder(
                    targets, i, settings.fixed_steps);
                result = integrate<method, Controller>(sys, s, y, p, counters, recorder);
            }
        } else {
            static_assert(!layout::watches,
                          "with the state dealt out over lanes a solve "
                          "watches no events (take on_lanes<Method, 1>)");
            result = integrate<method, Controller>(sys, s, y, p, counters);
        }
        CUBIE_UNROLL
        for (int m = 0; m < shared_system::slots; ++m) {
            const int v = shared_system::component(lane, m);
            if (v < System::n_states) final_states(v, i) = y[m];
        }
        if (lane == 0) store_counts(i, counters, result);
    }
#endif

private:
    /// The recorder of an adaptive trajectory's outputs (output_recorder.hpp).
    using by_time_recorder = output_recorder<output_schedule::by_time, System, Outputs...>;

    /// A trajectory's event records and their monitor (events/event_monitor.hpp) under
    /// balanced scheduling; without events, the monitor of none in both places.
    using event_monitor_type = event_monitor<System, typename layout::event_list>;
    using event_records_type = cuda::std::conditional_t<
        layout::watches, event_recorder<System, typename layout::event_list>, no_event_monitor>;

    CUBIE_HD auto make_recorder(std::size_t i) const {
        if constexpr (layout::records)
            return by_time_recorder(outputs, i);
        else
            return no_recorder<System>{};
    }

    CUBIE_HD auto event_targets_copy() const {
        if constexpr (layout::watches)
            return outputs.events;
        else
            return no_event_monitor{};
    }

    template <class Targets>
    static CUBIE_HD event_records_type make_event_records(const Targets& targets, std::size_t i) {
        if constexpr (layout::watches)
            return event_records_type(targets, i);
        else
            return {};
    }

    static CUBIE_HD auto make_monitor(event_records_type& events, parameters_t<System>& p) {
        if constexpr (layout::watches)
            return event_monitor_type(events, p);
        else
            return no_event_monitor{};
    }

    /// Ends `object`'s lifetime and makes a new one in its place from `args`.
    template <class U, class... Args>
    static CUBIE_HD void remake(U& object, Args&&... args) {
        object.~U();
        ::new (static_cast<void*>(&object)) U(static_cast<Args&&>(args)...);
    }

    /// A trajectory's end under balanced scheduling: its event counts, then what store()
    /// writes, as operator() writes them.
    CUBIE_HD void finish(std::size_t i, const state_t<System>& y, const step_counters& counters,
                         const event_records_type& events, status result) const {
        if constexpr (layout::watches) events.write_counts();
        store(i, y, counters, result);
    }

    CUBIE_HD void load(std::size_t i, state_t<System>& y, parameters_t<System>& p) const {
        CUBIE_UNROLL
        for (int v = 0; v < System::n_states; ++v) y[v] = initial_states(v, i);
        CUBIE_UNROLL
        for (int v = 0; v < System::n_parameters; ++v) p[v] = parameters(v, i);
    }

    CUBIE_HD void store(std::size_t i, const state_t<System>& y, const step_counters& counters,
                        status result) const {
        CUBIE_UNROLL
        for (int v = 0; v < System::n_states; ++v) final_states(v, i) = y[v];
        store_counts(i, counters, result);
    }

    CUBIE_HD void store_counts(std::size_t i, const step_counters& counters, status result) const {
        statuses(0, i) = result;
        accepted_steps(0, i) = counters.accepted;
        rejected_steps(0, i) = counters.rejected;
        if constexpr (is_implicit<Algorithm>()) {
            newton_iterations(0, i) = counters.newton_iterations;
            linear_iterations(0, i) = counters.linear_iterations;
        }
    }

    /// integrate() with the solve's events, where it has any, whose counts are then written.
    template <class Recorder>
    CUBIE_HD status integrate_watching(state_t<System>& y, parameters_t<System>& p,
                                       step_counters& counters, Recorder& recorder,
                                       std::size_t i) const {
        if constexpr (layout::watches) {
            event_recorder<System, typename layout::event_list> events(outputs.events, i);
            const status result = integrate<Algorithm, Controller>(system, settings, y, p, counters,
                                                                   recorder, events);
            events.write_counts();
            return result;
        } else {
            return integrate<Algorithm, Controller>(system, settings, y, p, counters, recorder);
        }
    }
};

}  // namespace cubie
