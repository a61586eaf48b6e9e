#pragma once
// The work of one trajectory inside a batch: gather its inputs from [variable][trajectory]
// arrays, integrate, scatter its outputs. Backends call it once per trajectory index, a
// GPU thread each or an OpenMP iteration each; consecutive indices touch consecutive
// addresses, so a warp's loads and stores coalesce.

#include <cstddef>
#include <cstdint>

#include "cubie/core/config.hpp"
#include "cubie/core/status.hpp"
#include "cubie/loop/integrate.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

template <class Algorithm, step_controller Controller, ode_system System>
struct trajectory_task {
    using T = typename System::value_type;

    System system;
    integration_settings<Algorithm, Controller, System> settings;
    std::size_t n_trajectories;
    const T* initial_states;
    const T* parameters;
    T* final_states;
    status* statuses;
    std::uint32_t* accepted_steps;
    std::uint32_t* rejected_steps;

    CUBIE_HD void operator()(std::size_t i) const {
        state_t<System> y{};
        parameters_t<System> p{};
        CUBIE_UNROLL
        for (int v = 0; v < System::n_states; ++v) y[v] = initial_states[v * n_trajectories + i];
        CUBIE_UNROLL
        for (int v = 0; v < System::n_parameters; ++v) p[v] = parameters[v * n_trajectories + i];

        step_counters counters{};
        const status result = integrate<Algorithm, Controller>(system, settings, y, p, counters);

        CUBIE_UNROLL
        for (int v = 0; v < System::n_states; ++v) final_states[v * n_trajectories + i] = y[v];
        statuses[i] = result;
        accepted_steps[i] = counters.accepted;
        rejected_steps[i] = counters.rejected;
    }
};

}  // namespace cubie
