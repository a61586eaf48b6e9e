#pragma once
// Host backend: the trajectories of a batch spread over OpenMP threads, each integrated
// by the same code a GPU thread runs, in place in the caller's and the result's arrays.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>

#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/scheduling.hpp"
#include "cubie/batch/trajectory_task.hpp"

namespace cubie::backends {

struct host {
    /// How OpenMP threads take trajectories (batch/scheduling.hpp): static_mapping gives each
    /// thread a contiguous share; balanced hands out blocks of `balanced_block`
    /// trajectories as threads free up. Fixed steps always go in contiguous shares.
    cubie::scheduling scheduling = cubie::scheduling::automatic;
    static constexpr cubie::scheduling automatic_adaptive = cubie::scheduling::balanced;
    static constexpr int balanced_block = 64;

    /// run() writes only what the trajectories it integrates record, in place: the solver
    /// marks the result unsolved first (batch_result::mark_unsolved).
    static constexpr bool writes_every_output = false;

    /// Host memory sets no limit beyond the result's own (checked by the solver).
    std::size_t chunk_capacity(std::size_t wanted, double /*bytes_per_trajectory*/,
                               int /*lanes*/ = 1, bool /*adaptive*/ = false) const {
        return wanted;
    }

    /// Integrates every trajectory of the batch, `chunk` at a time; after_chunk(count) is
    /// told of every finished chunk and returns false to stop before the next. The first
    /// exception a trajectory throws is rethrown once the chunk's threads have stopped.
    /// Trajectories never started, and saves and windows a trajectory never reaches, keep what the
    /// result held.
    template <class Task, class T, class AfterChunk>
    void run(Task task, const batch_inputs<T>& inputs, batch_result<T>& result, std::size_t chunk,
             AfterChunk&& after_chunk) const {
        for (std::size_t k = 0; k < inputs.drivers.size(); ++k)
            task.settings.drivers[k] = inputs.drivers[k].view();
        const std::size_t n = inputs.n_trajectories;
        result.backend = "host";
        const cubie::scheduling schedule =
            resolve_scheduling<typename Task::controller>(scheduling, automatic_adaptive);
        for (std::size_t first = 0; first < n; first += chunk) {
            task.n_trajectories = std::min(chunk, n - first);
            task.bind({at(inputs.initial_states.data(), first), at(inputs.parameters.data(), first),
                       pointers_into<T>(result, first)},
                      n, n);
            const auto count = static_cast<std::ptrdiff_t>(task.n_trajectories);
            // An exception thrown by user code (a system, a driver, a metric) must not leave
            // the parallel region, which would end the process: the first one is kept, the
            // trajectories not yet started are skipped, and it reaches the caller after.
            std::exception_ptr first_error;
            std::atomic<bool> failed{false};
            const auto integrate_one = [&](std::ptrdiff_t i) {
                if (failed.load(std::memory_order_relaxed)) return;
                try {
                    task(static_cast<std::size_t>(i));
                } catch (...) {
#pragma omp critical(cubie_host_backend_error)
                    if (!first_error) first_error = std::current_exception();
                    failed.store(true, std::memory_order_relaxed);
                }
            };
            if (schedule == cubie::scheduling::static_mapping) {
#pragma omp parallel for schedule(static)
                for (std::ptrdiff_t i = 0; i < count; ++i) integrate_one(i);
            } else {
#pragma omp parallel for schedule(dynamic, balanced_block)
                for (std::ptrdiff_t i = 0; i < count; ++i) integrate_one(i);
            }
            if (first_error) std::rethrow_exception(first_error);
            if (!after_chunk(task.n_trajectories)) return;
        }
    }

private:
    /// The chunk's first trajectory in a [variable][trajectory] array (none: null).
    template <class U>
    static U* at(U* data, std::size_t first) {
        return data ? data + first : nullptr;
    }
};

}  // namespace cubie::backends
