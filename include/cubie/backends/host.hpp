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
    template <class Task, class T>
    void run(Task task, const batch_inputs<T>& inputs, batch_result<T>& result) const {
        for (std::size_t k = 0; k < inputs.drivers.size(); ++k)
            task.settings.drivers[k] = inputs.drivers[k].view();
        task.bind({inputs.initial_states.data(),
                   inputs.parameters.data(),
                   result.final_states.data(),
                   result.statuses.data(),
                   result.accepted_steps.data(),
                   result.rejected_steps.data(),
                   {result.saved.data(), result.saved_counters.data(), result.summaries.data()}});
        const auto n = static_cast<std::ptrdiff_t>(task.n_trajectories);
        // Adaptive trajectories differ in cost: hand them out in small dynamic chunks.
#pragma omp parallel for schedule(dynamic, 64)
        for (std::ptrdiff_t i = 0; i < n; ++i) task(static_cast<std::size_t>(i));
        result.backend = "host";
    }
};

}  // namespace cubie::backends
