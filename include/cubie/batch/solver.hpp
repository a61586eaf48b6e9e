#pragma once
// solver<System, Algorithm, Controller, Outputs...>: integrates a batch of independent
// trajectories.
//
//   cubie::solver<cubie::systems::lorenz<float>, cubie::tsit5, cubie::pi_controller> s;
//   auto result = s.solve({n, y0, rho}, settings);            // backends::automatic
//   auto result = s.solve({n, y0, rho}, settings, cubie::backends::host{});
//
// Outputs are policy types (outputs/output_policies.hpp); what is not requested is not
// compiled. Final states, statuses and step counts always come back.
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
#include <stdexcept>
#include <string>
#include <type_traits>

#include <unistd.h>

#include "cubie/backends/automatic.hpp"
#include "cubie/backends/host.hpp"
#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/output_plan.hpp"
#include "cubie/batch/solve_control.hpp"
#include "cubie/batch/trajectory_task.hpp"
#include "cubie/controllers/controller.hpp"
#include "cubie/loop/solve_settings.hpp"
#include "cubie/outputs/output_policies.hpp"
#include "cubie/systems/ode_system.hpp"
#if defined(__CUDACC__)
#include "cubie/backends/cuda.hpp"
#endif

namespace cubie {

template <ode_system System, class Algorithm, step_controller Controller, class... Outputs>
class solver {
    using layout = output_layout<System, Outputs...>;
    using plan_type = output_plan<System, Controller, Outputs...>;

public:
    using value_type = typename System::value_type;
    using algorithm = Algorithm;
    using controller = Controller;
    using settings_type = solve_settings<Controller>;

    explicit solver(System system = {}) : system_(system) {}

    /// The outputs a solve with these settings records, validated: times, legends, sizes.
    plan_type plan(const settings_type& settings) const {
        return make_output_plan<System, Controller, Outputs...>(settings);
    }

    template <class Backend = backends::automatic>
    batch_result<value_type> solve(const batch_inputs<value_type>& inputs,
                                   const settings_type& settings, Backend backend = {},
                                   const solve_control& control = {}) const {
        if constexpr (std::is_same_v<Backend, backends::automatic>) {
#if defined(__CUDACC__)
            if (backends::cuda_device_available())
                return solve(inputs, settings, backends::cuda{.verbose = backend.verbose}, control);
#endif
            return solve(inputs, settings, backends::host{}, control);
        } else {
            const auto integration =
                make_integration_settings<Algorithm, Controller, System>(settings);
            check_sizes(inputs);
            const plan_type outputs = plan(settings);
            trajectory_task<Algorithm, Controller, System, Outputs...> task{
                system_, integration, inputs.n_trajectories, outputs.targets};
            batch_result<value_type> result = allocate_result(inputs.n_trajectories, outputs);
            const std::size_t n = inputs.n_trajectories;
            if (n == 0) return result;

            // Inputs and outputs of one trajectory, as the backend holds them.
            const double bytes_per_trajectory =
                outputs.result_bytes(1) +
                double(System::n_states + System::n_parameters) * sizeof(value_type);
            std::size_t chunk = control.chunk_trajectories;
            if (chunk == 0) chunk = control.progress ? (n + 99) / 100 : n;
            chunk = std::min(backend.chunk_capacity(chunk, bytes_per_trajectory), n);
            const std::size_t chunks = (n + chunk - 1) / chunk;
            const auto start = std::chrono::steady_clock::now();
            std::size_t chunks_done = 0;
            const std::size_t done = backend.run(task, inputs, result, chunk, [&](std::size_t d) {
                if (!control.progress) return true;
                solve_progress p;
                p.done = d;
                p.total = n;
                p.chunks_done = ++chunks_done;
                p.chunks = chunks;
                p.elapsed_seconds =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                return control.progress(p);
            });
            if (done < n) mark_cancelled(result, done);
            return result;
        }
    }

private:
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

    /// The result's arrays, sized from the plan; outputs not yet recorded are NaN (counters
    /// 2^32 - 1). Says so before allocating when the outputs cannot fit in host memory.
    static batch_result<value_type> allocate_result(std::size_t n, const plan_type& plan) {
        const double bytes = plan.result_bytes(n);
        const double memory = host_memory_bytes();
        if (bytes > memory || bytes > double(std::numeric_limits<std::ptrdiff_t>::max()))
            throw std::invalid_argument(
                "the outputs of " + std::to_string(n) + " trajectories need " +
                format_value(std::ceil(bytes / (1 << 20))) + " MiB of host memory, more than the " +
                format_value(std::floor(memory / (1 << 20))) +
                " MiB this machine has: save less often, select fewer variables, summarise "
                "instead of saving, or solve fewer trajectories at a time");
        batch_result<value_type> r;
        r.n_trajectories = n;
        r.n_states = System::n_states;
        r.state_names = state_names<System>();
        r.save_times = plan.save_times;
        r.saved_variables = plan.saved_variables;
        r.counter_names = plan.counter_names;
        r.window_ends = plan.window_ends;
        r.summary_legend = plan.summary_legend;
        constexpr value_type unrecorded = std::numeric_limits<value_type>::quiet_NaN();
        try {
            r.final_states.resize(static_cast<std::size_t>(System::n_states) * n);
            r.statuses.resize(n);
            r.accepted_steps.resize(n);
            r.rejected_steps.resize(n);
            r.saved.assign(plan.saved_per_trajectory() * n, unrecorded);
            r.saved_counters.assign(plan.counters_per_trajectory() * n,
                                    std::numeric_limits<std::uint32_t>::max());
            r.summaries.assign(plan.summaries_per_trajectory() * n, unrecorded);
        } catch (const std::bad_alloc&) {
            throw std::invalid_argument("the outputs of " + std::to_string(n) +
                                        " trajectories need " + format_value(bytes) +
                                        " bytes of host memory, more than can be allocated now");
        }
        return r;
    }

    /// Trajectories from `first` on never started: cancelled, NaN final states.
    static void mark_cancelled(batch_result<value_type>& r, std::size_t first) {
        const std::size_t n = r.n_trajectories;
        for (int v = 0; v < System::n_states; ++v)
            std::fill(r.final_states.begin() + static_cast<std::ptrdiff_t>(v * n + first),
                      r.final_states.begin() + static_cast<std::ptrdiff_t>((v + 1) * n),
                      std::numeric_limits<value_type>::quiet_NaN());
        std::fill(r.statuses.begin() + static_cast<std::ptrdiff_t>(first), r.statuses.end(),
                  status::cancelled);
    }

    /// Physical memory of this machine (outputs beyond it could only thrash).
    static double host_memory_bytes() {
        const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
        return pages > 0 && page > 0 ? double(pages) * double(page)
                                     : std::numeric_limits<double>::infinity();
    }

    System system_;
};

}  // namespace cubie
