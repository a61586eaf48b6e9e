#pragma once
// Host backend: the trajectories of a batch spread over OpenMP threads, each integrated
// by the same code a GPU thread runs.

#include <cstddef>

#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/trajectory_task.hpp"

namespace cubie::backends {

struct host {
    /// Integrates every trajectory of task on the host, reading inputs and writing outputs
    /// in place.
    template <class Algorithm, class Controller, class System>
    void run(trajectory_task<Algorithm, Controller, System> task,
             const batch_inputs<typename System::value_type>& inputs,
             batch_result<typename System::value_type>& result) const {
        task.initial_states = inputs.initial_states.data();
        task.parameters = inputs.parameters.data();
        task.final_states = result.final_states.data();
        task.statuses = result.statuses.data();
        task.accepted_steps = result.accepted_steps.data();
        task.rejected_steps = result.rejected_steps.data();
        const auto n = static_cast<std::ptrdiff_t>(task.n_trajectories);
        // Adaptive trajectories differ in cost: hand them out in small dynamic chunks.
#pragma omp parallel for schedule(dynamic, 64)
        for (std::ptrdiff_t i = 0; i < n; ++i) task(static_cast<std::size_t>(i));
        result.backend = "host";
    }
};

}  // namespace cubie::backends
