#pragma once
// solver<System, Algorithm, Controller, Outputs...>: integrates a batch of independent
// trajectories.
//
//   cubie::solver<cubie::systems::lorenz<float>, cubie::tsit5, cubie::pi_controller> s;
//   auto result = s.solve({n, y0, rho}, settings);            // backends::automatic
//   auto result = s.solve({n, y0, rho}, settings, cubie::backends::host{});
//
// Outputs are policy types; what is not requested is not compiled. Final states, statuses
// and step counts always come back; cubie::save_state adds states saved every
// settings.save_every.
//
// solve() validates the settings and the input sizes before any work; a bad value throws
// std::invalid_argument naming it. Trajectories that fail report a status and leave the
// others untouched.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "cubie/backends/automatic.hpp"
#include "cubie/backends/host.hpp"
#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/trajectory_task.hpp"
#include "cubie/controllers/controller.hpp"
#include "cubie/loop/solve_settings.hpp"
#include "cubie/outputs/save_state.hpp"
#include "cubie/systems/ode_system.hpp"
#if defined(__CUDACC__)
#include "cubie/backends/cuda.hpp"
#endif

namespace cubie {

template <ode_system System, class Algorithm, step_controller Controller, class... Outputs>
class solver {
    static_assert((std::is_same_v<Outputs, save_state> && ...),
                  "unknown output policy: the outputs available are cubie::save_state");
    static constexpr bool saves_states = (std::is_same_v<Outputs, save_state> || ...);

public:
    using value_type = typename System::value_type;
    using algorithm = Algorithm;
    using controller = Controller;
    using settings_type = solve_settings<Controller>;

    explicit solver(System system = {}) : system_(system) {}

    template <class Backend = backends::automatic>
    batch_result<value_type> solve(const batch_inputs<value_type>& inputs,
                                   const settings_type& settings, Backend backend = {}) const {
        if constexpr (std::is_same_v<Backend, backends::automatic>) {
#if defined(__CUDACC__)
            if (backends::cuda_device_available())
                return solve(inputs, settings, backends::cuda{.verbose = backend.verbose});
#endif
            return solve(inputs, settings, backends::host{});
        } else {
            const auto integration =
                make_integration_settings<Algorithm, Controller, System>(settings);
            check_sizes(inputs);
            trajectory_task<Algorithm, Controller, System, saves_states> task{
                system_, integration, inputs.n_trajectories};
            if constexpr (saves_states)
                task.schedule = make_schedule(settings);
            else if (settings.save_every != 0)
                invalid_setting("save_every", settings.save_every,
                                "but this solver saves no states: add cubie::save_state to its "
                                "outputs");
            batch_result<value_type> result = allocate_result(inputs.n_trajectories, task.schedule);
            if (inputs.n_trajectories == 0) return result;
            backend.run(task, inputs, result);
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

    static save_schedule<value_type> make_schedule(const settings_type& s) {
        const auto schedule = make_save_schedule<value_type>(s.t0, s.t_end, s.save_every,
                                                             s.save_initial, s.save_final);
        if constexpr (!Controller::adaptive) {
            // Fixed steps reach save times only when they are whole numbers of steps.
            const double steps = s.save_every / s.dt;
            if (std::abs(steps - std::round(steps)) > 1e-9 * std::max(1.0, steps))
                invalid_setting(
                    "save_every", s.save_every,
                    "is not a whole number of fixed steps of dt = " + format_value(s.dt));
        }
        return schedule;
    }

    static batch_result<value_type> allocate_result(std::size_t n,
                                                    const save_schedule<value_type>& schedule) {
        batch_result<value_type> r;
        r.n_trajectories = n;
        r.n_states = System::n_states;
        r.final_states.resize(static_cast<std::size_t>(System::n_states) * n);
        r.statuses.resize(n);
        r.accepted_steps.resize(n);
        r.rejected_steps.resize(n);
        if constexpr (saves_states) {
            const std::size_t saves = schedule.count();
            for (std::uint32_t k = 0; k < saves; ++k) r.save_times.push_back(schedule.time(k));
            const std::size_t per_save = static_cast<std::size_t>(System::n_states) * n;
            if (n > 0 &&
                saves > std::numeric_limits<std::size_t>::max() / sizeof(value_type) / per_save)
                throw std::invalid_argument("saved states of " + std::to_string(saves) +
                                            " saves x " + std::to_string(per_save) +
                                            " values exceed the address space");
            try {
                r.saved_states.assign(saves * per_save,
                                      std::numeric_limits<value_type>::quiet_NaN());
            } catch (const std::bad_alloc&) {
                throw std::invalid_argument(
                    "saved states need " + std::to_string(saves * per_save * sizeof(value_type)) +
                    " bytes of host memory, more than can be allocated: save less often or "
                    "solve fewer trajectories at a time");
            }
        }
        return r;
    }

    System system_;
};

}  // namespace cubie
