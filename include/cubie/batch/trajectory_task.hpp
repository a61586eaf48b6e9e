#pragma once
// The work of one trajectory inside a batch: gather its inputs from [variable][trajectory]
// arrays, integrate while recording the requested outputs, scatter its final state.
// Backends bind the arrays (host or device memory) and call the task once per trajectory
// index, a GPU thread each (or `lanes` threads each) or an OpenMP iteration each;
// consecutive indices touch consecutive addresses, so a warp's accesses coalesce.

#include <cstddef>
#include <cstdint>

#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/batch/result_fields.hpp"
#include "cubie/core/batch_view.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/status.hpp"
#include "cubie/loop/integrate.hpp"
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
    /// each running operator() for the same index and storing the same outputs.
    static constexpr int lanes = lanes_per_trajectory<Algorithm>;

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
        CUBIE_UNROLL
        for (int v = 0; v < System::n_states; ++v) y[v] = initial_states(v, i);
        CUBIE_UNROLL
        for (int v = 0; v < System::n_parameters; ++v) p[v] = parameters(v, i);

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

        CUBIE_UNROLL
        for (int v = 0; v < System::n_states; ++v) final_states(v, i) = y[v];
        statuses(0, i) = result;
        accepted_steps(0, i) = counters.accepted;
        rejected_steps(0, i) = counters.rejected;
        if constexpr (is_implicit<Algorithm>()) {
            newton_iterations(0, i) = counters.newton_iterations;
            linear_iterations(0, i) = counters.linear_iterations;
        }
    }

private:
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
