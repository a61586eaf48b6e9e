#pragma once
// solver<System, Algorithm, Controller, Outputs...>: integrates a batch of independent
// trajectories. Events are one more output policy, events<E...> (events/event_list.hpp).
//
//   cubie::solver<cubie::catalogue::lorenz<float>, cubie::tsit5, cubie::pi_controller> s;
//   auto result = s.solve({n, y0, rho}, settings);            // backends::automatic
//   auto result = s.solve({n, y0, rho}, settings, cubie::backends::host{});
//   auto result = s.solve({n, y0, rho}, settings,
//                         cubie::backends::cuda{.devices = cubie::backends::cuda::all_devices()});
//   auto on_gpu = s.solve_on_device({n, d_y0, d_rho}, settings);  // nothing copied back
//   auto result = s.solve({n, y0, rho}, settings,  // adaptive steps that diverge
//                         cubie::backends::cuda{.scheduling = cubie::scheduling::balanced});
//   s.solve({n, y0, rho}, settings, result);  // into a batch_result reused across solves
//
// Outputs are policy types (outputs/output_policies.hpp); what is not requested is not
// compiled. Final states, statuses and step counts always come back.
//
// On the cuda backend, the Rosenbrock methods integrate each trajectory of a system of more
// than 8 states on several lanes of a warp
// (algorithms/on_lanes.hpp: on_lanes<Method, G> names the lanes, on_lanes<Method, 1> keeps one
// thread).
//
// solve() validates the settings and the input sizes before any work; a bad value throws
// std::invalid_argument naming it. Trajectories that fail report a status and leave the
// others untouched.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/algorithms/stepper.hpp"
#include "cubie/backends/automatic.hpp"
#include "cubie/backends/backend.hpp"
#include "cubie/backends/host.hpp"
#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/output_plan.hpp"
#include "cubie/batch/result_fields.hpp"
#include "cubie/batch/solve_control.hpp"
#include "cubie/batch/solve_settings.hpp"
#include "cubie/batch/trajectory_task.hpp"
#include "cubie/controllers/controller.hpp"
#include "cubie/core/host_memory.hpp"
#include "cubie/outputs/output_policies.hpp"
#include "cubie/systems/ode_system.hpp"
#if defined(__CUDACC__)
#include "cubie/backends/cuda.hpp"
#include "cubie/batch/device_result.hpp"
#include "cubie/core/memory_location.hpp"
#include "cubie/core/scoped_device.hpp"
#endif

namespace cubie {

template <ode_system System, stepper Algorithm, step_controller Controller,
          output_policy... Outputs>
class solver {
    using layout = output_layout<System, Outputs...>;
    using plan_type = output_plan<System, Controller, Outputs...>;

public:
    using value_type = typename System::value_type;
    using system_type = System;
    using algorithm = Algorithm;
    using controller = Controller;
    using settings_type = solve_settings<Controller>;

    /// The values per state that recording adds to one thread's step: the summaries' running
    /// states (over the states and observables summarised, rounded up per state), and the
    /// stages of a dense output that adaptive steps interpolate outputs from.
    static constexpr int recorded_values = [] {
        int values = 0;
        if constexpr (layout::summarises)
            values += (layout::windows_type::values_per_variable * layout::n_summarised +
                       System::n_states - 1) /
                      System::n_states;
        if constexpr (layout::records && Controller::adaptive && has_dense_output<Algorithm>() &&
                      requires { typename Algorithm::template dense_stages_t<state_t<System>>; })
            values += int(size_of<typename Algorithm::template dense_stages_t<state_t<System>>>);
        return values;
    }();
    /// The method as the batch takes it: on as many lanes per trajectory as its mapping
    /// gives (algorithms/on_lanes.hpp), the state dealt out only where no events are watched.
    using mapped_method = mapped_algorithm<System, Algorithm, !layout::watches, recorded_values>;

    explicit solver(System system = {}) : system_(system) {}

    /// The outputs a solve with these settings records, validated: times, legends, sizes.
    plan_type plan(const settings_type& settings) const {
        return make_output_plan<System, Controller, Outputs...>(settings);
    }
    /// The same, with the inputs checked as solve() checks them: throws what it would
    /// throw, before any work.
    plan_type plan(const batch_inputs<value_type>& inputs, const settings_type& settings) const {
        return prepare(inputs, settings).outputs;
    }

    template <backend Backend = backends::automatic>
    batch_result<value_type> solve(const batch_inputs<value_type>& inputs,
                                   const settings_type& settings, Backend backend = {},
                                   const solve_control& control = {}) const
        requires(!std::is_same_v<Backend, batch_result<value_type>>) {
        batch_result<value_type> result;
        solve(inputs, settings, result, backend, control);
        return result;
    }

    /// The same into `result`, reusing its arrays where their capacity fits: repeated solves
    /// of one shape allocate nothing, and write pages that are already mapped (a fresh
    /// result's first touch of each page is a fault, which dominated the end-to-end time of
    /// large batches). The result is overwritten only once inputs and settings are valid.
    template <backend Backend = backends::automatic>
    void solve(const batch_inputs<value_type>& inputs, const settings_type& settings,
               batch_result<value_type>& result, Backend backend = {},
               const solve_control& control = {}) const {
        if constexpr (std::is_same_v<Backend, backends::automatic>) {
#if defined(__CUDACC__)
            if (backends::cuda_device_available()) {
                solve(inputs, settings, result,
                      backends::cuda{.verbose = backend.verbose, .scheduling = backend.scheduling},
                      control);
                return;
            }
#endif
            solve(inputs, settings, result, backends::host{.scheduling = backend.scheduling},
                  control);
        } else if (reads_result(inputs, result)) {
            // Solving on from this result's own arrays (its final states as the next initial
            // states): the result is resized and marked before any input is read, so the
            // inputs are copied first.
            const std::vector<value_type> y(inputs.initial_states.begin(),
                                            inputs.initial_states.end());
            const std::vector<value_type> p(inputs.parameters.begin(), inputs.parameters.end());
            solve({inputs.n_trajectories, y, p, inputs.drivers}, settings, result, backend,
                  control);
        } else {
            const auto [task, outputs] = prepare(inputs, settings);
#if defined(__CUDACC__)
            if constexpr (std::is_same_v<Backend, backends::host>) check_host_readable(inputs);
            if constexpr (std::is_same_v<Backend, backends::cuda>)
                backend.template check_block_size<task_type>();
#endif
            prepare_result(result, inputs.n_trajectories, outputs);
            // Marked up front where the backend leaves outputs unwritten. New arrays are not
            // filled first where it writes every output: its own writes take their page
            // faults (the cuda backend's copies into a pageable result, each device's over
            // its own threads), and a fill would write every byte twice.
            if (!Backend::writes_every_output) result.mark_unsolved(0, inputs.n_trajectories);
            try {
                run(task, inputs, backend, result, outputs.result_bytes(1) + input_bytes(),
                    control);
            } catch (...) {
                result.mark_unsolved(0, inputs.n_trajectories);  // nothing half-written is kept
                throw;
            }
        }
    }

#if defined(__CUDACC__)
    /// Solves on the device into a result kept there: nothing is copied back, and inputs
    /// already in device memory are read in place. backend.devices names one device at
    /// most (the result lives on it); the outputs must fit its memory budget.
    device_result<value_type> solve_on_device(const batch_inputs<value_type>& inputs,
                                              const settings_type& settings,
                                              const backends::cuda& backend = {},
                                              const solve_control& control = {}) const {
        device_result<value_type> result;
        solve_on_device(inputs, settings, result, backend, control);
        return result;
    }

    /// The same into `result`, reusing its device buffers where their sizes fit: repeated
    /// solves of one shape allocate nothing.
    void solve_on_device(const batch_inputs<value_type>& inputs, const settings_type& settings,
                         device_result<value_type>& result, const backends::cuda& backend = {},
                         const solve_control& control = {}) const {
        if (reads_device_result(inputs, result))
            throw std::invalid_argument(
                "inputs lie in the device_result solved into, whose buffers are resized and "
                "marked before any input is read: copy them first, or solve into another "
                "device_result");
        const auto [task, outputs] = prepare(inputs, settings);
        backend.template check_block_size<task_type>();
        const int device = backend.result_device();
        const std::size_t n = inputs.n_trajectories;
        describe_result(result, n, outputs);
        {
            const scoped_device on(device);
            check_device_memory(outputs.result_bytes(n), n, backend.memory_fraction);
            result.prepare(device, n, rows_of(outputs), nullptr);
            CUBIE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
        }
        backends::cuda on_result_device = backend;
        on_result_device.devices = {device};
        // Inputs the device reads in place leave nothing to copy per trajectory.
        const auto in_place = [&](const auto& array) {
            return array.empty() || memory_location::of(array.data()).readable_on(device);
        };
        const bool copies_nothing = in_place(inputs.initial_states) && in_place(inputs.parameters);
        run(task, inputs, on_result_device, result, copies_nothing ? 0.0 : input_bytes(), control);
    }
#endif

private:
    using task_type = trajectory_task<mapped_method, Controller, System, Outputs...>;

    /// The per-trajectory work and the outputs' plan, from validated settings and inputs
    /// (throws before any allocation when either is wrong).
    struct prepared_solve {
        task_type task;
        plan_type outputs;
    };
    prepared_solve prepare(const batch_inputs<value_type>& inputs,
                           const settings_type& settings) const {
        const auto integration =
            make_integration_settings<mapped_method, Controller, System>(settings);
        check_sizes(inputs);
        plan_type outputs = plan(settings);
        task_type task{system_, integration, inputs.n_trajectories, outputs.targets};
        return {task, std::move(outputs)};
    }

    /// Rows per trajectory of every array of a result.
    static result_rows rows_of(const plan_type& plan) {
        const std::size_t iteration_counts = is_implicit<Algorithm>() ? 1 : 0;  // implicit only
        return {std::size_t(System::n_states),
                1,
                1,
                1,
                iteration_counts,
                iteration_counts,
                plan.saved_per_trajectory(),
                plan.counters_per_trajectory(),
                plan.summaries_per_trajectory(),
                plan.event_counts_per_trajectory(),
                plan.event_times_per_trajectory(),
                plan.event_states_per_trajectory()};
    }

    static constexpr double input_bytes() {
        return double(System::n_states + System::n_parameters) * sizeof(value_type);
    }

    /// Runs the task over the batch in chunks, reporting progress; the backend writes the
    /// trajectories it integrates into `result`, those a cancellation left keep their
    /// unsolved marks.
    template <class Backend, class Result>
    static void run(const task_type& task, const batch_inputs<value_type>& inputs,
                    const Backend& backend, Result& result, double bytes_per_trajectory,
                    const solve_control& control) {
        const std::size_t n = inputs.n_trajectories;
        if (n == 0) return;
        std::size_t chunk = control.chunk_trajectories;
        if (chunk == 0) chunk = control.progress ? (n + 99) / 100 : n;
        chunk = std::min(backend.chunk_capacity(chunk, bytes_per_trajectory, task_type::lanes,
                                                Controller::adaptive),
                         n);
        const auto start = std::chrono::steady_clock::now();
        solve_progress p;
        p.total = n;
        p.chunks = (n + chunk - 1) / chunk;
        backend.run(task, inputs, result, chunk, [&](std::size_t count) {
            p.done += count;
            ++p.chunks_done;
            p.chunks = std::max(p.chunks, p.chunks_done);  // solve_progress::chunks
            if (!control.progress) return true;
            p.elapsed_seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            return control.progress(p);
        });
    }

    /// Whether an input array lies in memory one of r's arrays holds (its outputs, or the
    /// inputs it kept).
    static bool reads_result(const batch_inputs<value_type>& in, batch_result<value_type>& r) {
        bool found = false;
        auto check = [&](const auto& array) {
            const std::size_t bytes = array.size() * sizeof(array[0]);
            found = found || overlaps(in.initial_states, array.data(), bytes) ||
                    overlaps(in.parameters, array.data(), bytes);
        };
        for_each_result_field([&](const result_field&, const auto& a) { check(a); }, r);
        check(r.initial_states);  // inputs a previous solve kept
        check(r.parameters);
        return found;
    }

#if defined(__CUDACC__)
    /// Whether an input array lies in one of r's device buffers.
    static bool reads_device_result(const batch_inputs<value_type>& in,
                                    const device_result<value_type>& r) {
        bool found = false;
        auto check = [&](const auto& buffer) {
            found = found || overlaps(in.initial_states, buffer.data(), buffer.bytes()) ||
                    overlaps(in.parameters, buffer.data(), buffer.bytes());
        };
        for_each_result_field([&](const result_field&, const auto& b) { check(b); }, r);
        return found;
    }
#endif

    /// Whether the input array `in` shares a byte with [data, data + bytes).
    static bool overlaps(std::span<const value_type> in, const void* data, std::size_t bytes) {
        const auto a = reinterpret_cast<std::uintptr_t>(in.data());
        const auto b = reinterpret_cast<std::uintptr_t>(data);
        return in.size_bytes() > 0 && bytes > 0 && a < b + bytes && b < a + in.size_bytes();
    }

    static void check_size(const char* what, std::size_t got, int per_trajectory, std::size_t n) {
        const std::size_t expected = static_cast<std::size_t>(per_trajectory) * n;
        if (got != expected)
            throw std::invalid_argument(std::string("input ") + what + " has " +
                                        std::to_string(got) + " values; expected " +
                                        std::to_string(per_trajectory) + " x " + std::to_string(n) +
                                        " trajectories = " + std::to_string(expected) +
                                        ", laid out [variable][trajectory]");
    }

    static void check_sizes(const batch_inputs<value_type>& in) {
        // The largest per-trajectory array must be addressable.
        constexpr auto widest =
            static_cast<std::size_t>(std::max({System::n_states, System::n_parameters, 1}));
        if (in.n_trajectories >
            std::numeric_limits<std::size_t>::max() / sizeof(value_type) / widest)
            throw std::invalid_argument(
                "input n_trajectories = " + std::to_string(in.n_trajectories) +
                " is too large: its arrays exceed the address space");
        check_size("initial_states", in.initial_states.size(), System::n_states, in.n_trajectories);
        check_size("parameters", in.parameters.size(), System::n_parameters, in.n_trajectories);
        if (in.drivers.size() != static_cast<std::size_t>(System::n_drivers))
            throw std::invalid_argument("input drivers has " + std::to_string(in.drivers.size()) +
                                        " splines; the system has " +
                                        std::to_string(System::n_drivers) + " drivers");
    }

    /// Sizes r's arrays and legends for n trajectories from the plan, within the arrays'
    /// capacity where it fits. Says so before allocating when the outputs cannot fit in
    /// host memory.
    static void prepare_result(batch_result<value_type>& r, std::size_t n, const plan_type& plan) {
        const double bytes = plan.result_bytes(n);
        const double memory = host_memory_bytes();
        if (bytes > memory || bytes > double(std::numeric_limits<std::ptrdiff_t>::max()))
            throw std::invalid_argument(
                "the outputs of " + std::to_string(n) + " trajectories need " +
                format_value(std::ceil(bytes / (1 << 20))) + " MiB of host memory, more than the " +
                format_value(std::floor(memory / (1 << 20))) +
                " MiB this machine has: save less often, select fewer variables, summarise "
                "instead of saving, or solve fewer trajectories at a time");
        const result_rows rows = rows_of(plan);
        try {
            // Sized untouched (cleared first: growing copies nothing).
            for_each_result_field(
                [&](const result_field& f, auto& a) { resize_untouched(a, rows.*f.rows * n); }, r);
        } catch (const std::bad_alloc&) {
            throw std::invalid_argument("the outputs of " + std::to_string(n) +
                                        " trajectories need " + format_value(bytes) +
                                        " bytes of host memory, more than can be allocated now");
        }
        describe_result(r, n, plan);
        r.initial_states.clear();  // another solve's, until keep_inputs is called again
        r.parameters.clear();
        r.parameter_names.clear();
        r.backend.clear();
        r.kernel.reset();
    }

    /// The legends of a result of n trajectories.
    static void describe_result(result_legend<value_type>& r, std::size_t n,
                                const plan_type& plan) {
        r.n_trajectories = n;
        r.n_states = System::n_states;
        r.state_names = state_names<System>();
        r.save_times = plan.save_times;
        r.saved_variables = plan.saved_variables;
        r.counter_names = plan.counter_names;
        r.window_ends = plan.window_ends;
        r.summary_legend = plan.summary_legend;
        r.event_names = plan.event_names;
        r.event_record_names = plan.event_record_names;
    }

#if defined(__CUDACC__)
    /// The host backend cannot read device memory: says so rather than faulting.
    static void check_host_readable(const batch_inputs<value_type>& in) {
        if (memory_location::of(in.initial_states.data()).where == memory_location::kind::device ||
            memory_location::of(in.parameters.data()).where == memory_location::kind::device)
            throw std::invalid_argument(
                "inputs are in device memory, which backends::host cannot read: solve them "
                "with backends::cuda, or copy them to the host");
    }

    /// A result kept on the current device must fit its memory budget whole.
    static void check_device_memory(double bytes, std::size_t n, double memory_fraction) {
        std::size_t free_bytes = 0, total_bytes = 0;
        CUBIE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        const double budget = memory_fraction * double(free_bytes);
        if (bytes > budget)
            throw std::invalid_argument(
                "the outputs of " + std::to_string(n) + " trajectories need " +
                format_value(std::ceil(bytes / (1 << 20))) +
                " MiB of device memory, more than the budget of " +
                format_value(std::floor(budget / (1 << 20))) +
                " MiB (memory_fraction of the free memory): solve into host memory (solve), "
                "which goes in chunks, or record less");
    }
#endif

    System system_;
};

}  // namespace cubie
