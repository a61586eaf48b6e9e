#pragma once
// cubie::mpi::solve: one batch solved by every rank of a communicator, each rank its own
// contiguous slice of the trajectories (trajectory_slice.hpp) with the solver's ordinary
// solve, the results gathered to rank 0 in trajectory order.
//
//   MPI_Init(&argc, &argv);
//   cubie::solver<cubie::catalogue::lorenz<float>, cubie::tsit5, cubie::pi_controller> s;
//   auto result = cubie::mpi::solve(MPI_COMM_WORLD, s, {n, y0, rho}, settings);
//   if (result) cubie::write_result(*result, "out", cubie::result_format::npy);  // rank 0
//
// Every rank holds (or views) the whole batch's inputs and passes the same settings.
// Rank 0 gets the batch_result one process solving the whole batch would return, bit for
// bit: final states, statuses, step counts, saved series and counters, summaries, events,
// legends and times. Its `backend` and `kernel` describe rank 0's own solve of its slice. The
// other ranks get an empty optional: their slices are part of rank 0's result.
//
// backend is each rank's: backends::automatic, when compiled by nvcc and a device is
// present, shares the GPUs of each host out among its ranks (host_placement.hpp: each rank
// its own devices, or one device shared round-robin when the ranks outnumber them);
// elsewhere it is the host backend. control applies to each rank's slice
// (its chunks, its progress, its cancellation).
//
// Errors: ranks that disagree on the batch's size all throw std::invalid_argument. Bad
// settings or input sizes are rejected by every rank alike before any result moves, since
// every rank validates the same values; and whatever one rank throws, the others throw
// too (shared_failure.hpp) instead of waiting for it. MPI errors throw mpi_error.

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cubie/backends/automatic.hpp"
#include "cubie/backends/backend.hpp"
#include "cubie/backends/host.hpp"
#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/solve_control.hpp"
#include "cubie/core/host_array.hpp"
#include "cubie/core/invalid_setting.hpp"
#include "cubie/mpi/communicator.hpp"
#include "cubie/mpi/datatype.hpp"
#include "cubie/mpi/gather_columns.hpp"
#include "cubie/mpi/host_placement.hpp"
#include "cubie/mpi/mpi_check.hpp"
#include "cubie/mpi/shared_failure.hpp"
#include "cubie/mpi/sliced_inputs.hpp"
#include "cubie/mpi/trajectory_slice.hpp"
#include "cubie/solver/solver.hpp"
#if defined(__CUDACC__)
#include "cubie/backends/cuda.hpp"
#include "cubie/core/cuda_check.hpp"
#endif

namespace cubie::mpi {

namespace detail {

/// Every rank must slice the same batch; a rank that disagrees would send blocks that
/// land in the wrong places. All ranks learn the smallest and largest n alike.
inline void check_same_batch_size(const communicator& group, std::size_t n) {
    // The largest n and the largest of (max - n), which is max - (the smallest n).
    const std::uint64_t mine[2] = {n, UINT64_MAX - n};
    std::uint64_t largest[2] = {0, 0};
    CUBIE_MPI_CHECK(
        MPI_Allreduce(mine, largest, 2, datatype_of<std::uint64_t>(), MPI_MAX, group.get()));
    const std::uint64_t smallest = UINT64_MAX - largest[1];
    if (smallest != largest[0])
        throw std::invalid_argument("cubie::mpi::solve: the ranks were given batches of " +
                                    std::to_string(smallest) + " to " + std::to_string(largest[0]) +
                                    " trajectories; every rank must pass the whole batch");
}

/// rank 0's result for all n trajectories: its own legends, times, backend and kernel
/// report, and arrays sized for the whole batch, to be filled by the gather.
template <class T>
batch_result<T> whole_batch_result(const batch_result<T>& own, std::size_t n, double bytes_needed) {
    try {
        batch_result<T> r = own;
        r.n_trajectories = n;
        r.final_states.resize(static_cast<std::size_t>(own.n_states) * n);
        r.statuses.resize(n);
        r.accepted_steps.resize(n);
        r.rejected_steps.resize(n);
        r.newton_iterations.resize(own.newton_iterations.empty() ? 0 : n);
        r.linear_iterations.resize(own.linear_iterations.empty() ? 0 : n);
        r.saved.resize(own.n_saves() * own.n_saved_variables() * n);
        r.saved_counters.resize(own.n_saves() * own.counter_names.size() * n);
        r.summaries.resize(own.n_windows() * own.n_summary_rows() * n);
        r.event_counts.resize(own.n_event_channels() * n);
        r.event_times.resize(own.n_event_records() * n);
        r.event_states.resize(own.n_event_records() * static_cast<std::size_t>(own.n_states) * n);
        return r;
    } catch (const std::bad_alloc&) {
        throw std::runtime_error("cubie::mpi::solve: rank 0 cannot hold the gathered outputs of " +
                                 std::to_string(n) + " trajectories (" +
                                 format_value(bytes_needed) +
                                 " bytes): save less often, select fewer variables or solve "
                                 "fewer trajectories at a time");
    }
}

/// One of the result's [row][trajectory] arrays, to rank 0's whole-batch array (whole is
/// null on the other ranks).
template <class U>
void gather_array(const communicator& group, const host_array<U>& local, host_array<U>* whole,
                  std::size_t rows, std::span<const trajectory_slice> slices) {
    gather_columns<U>(group.get(), 0, local, whole ? std::span<U>(*whole) : std::span<U>(), rows,
                      slices);
}

}  // namespace detail

template <class System, class Algorithm, class Controller, class... Outputs,
          backend Backend = backends::automatic>
std::optional<batch_result<typename System::value_type>> solve(
    MPI_Comm comm, const solver<System, Algorithm, Controller, Outputs...>& batch_solver,
    const batch_inputs<typename System::value_type>& inputs,
    const typename solver<System, Algorithm, Controller, Outputs...>::settings_type& settings,
    Backend backend = {}, const solve_control& control = {}) {
    using T = typename System::value_type;
    const communicator group(comm);
    const std::size_t n = inputs.n_trajectories;
    detail::check_same_batch_size(group, n);

    std::vector<trajectory_slice> slices;
    for (int r = 0; r < group.size(); ++r) slices.push_back(slice_of(n, r, group.size()));
    const trajectory_slice mine = slices[static_cast<std::size_t>(group.rank())];
#if defined(__CUDACC__)
    // Collective, so asked by every rank whether or not it has a device.
    const host_placement place = std::is_same_v<Backend, backends::automatic>
                                     ? host_placement_of(group.get())
                                     : host_placement{};
#endif

    std::optional<batch_result<T>> own, whole;
    std::exception_ptr failure;
    try {
        const sliced_inputs<T> part =
            slice_inputs(inputs, mine, System::n_states, System::n_parameters);
        if constexpr (std::is_same_v<Backend, backends::automatic>) {
#if defined(__CUDACC__)
            if (backends::cuda_device_available()) {
                int devices = 0;
                CUBIE_CUDA_CHECK(cudaGetDeviceCount(&devices));
                own = batch_solver.solve(part.inputs(), settings,
                                         backends::cuda{.devices = devices_for(place, devices),
                                                        .verbose = backend.verbose,
                                                        .scheduling = backend.scheduling},
                                         control);
            }
#endif
            if (!own)
                own = batch_solver.solve(part.inputs(), settings,
                                         backends::host{.scheduling = backend.scheduling}, control);
        } else {
            own = batch_solver.solve(part.inputs(), settings, backend, control);
        }
        if (group.rank() == 0)
            whole =
                detail::whole_batch_result(*own, n, batch_solver.plan(settings).result_bytes(n));
    } catch (...) {
        failure = std::current_exception();
    }
    throw_if_any_rank_failed(group.get(), failure);

    // Every rank's result has the same legends (one plan from the same settings), so every
    // rank knows the rows of each array.
    const batch_result<T>& r = *own;
    batch_result<T>* w = whole ? &*whole : nullptr;
    detail::gather_array(group, r.final_states, w ? &w->final_states : nullptr,
                         static_cast<std::size_t>(r.n_states), slices);
    detail::gather_array(group, r.statuses, w ? &w->statuses : nullptr, 1, slices);
    detail::gather_array(group, r.accepted_steps, w ? &w->accepted_steps : nullptr, 1, slices);
    detail::gather_array(group, r.rejected_steps, w ? &w->rejected_steps : nullptr, 1, slices);
    const std::size_t iteration_rows = r.newton_iterations.empty() ? 0 : 1;
    detail::gather_array(group, r.newton_iterations, w ? &w->newton_iterations : nullptr,
                         iteration_rows, slices);
    detail::gather_array(group, r.linear_iterations, w ? &w->linear_iterations : nullptr,
                         iteration_rows, slices);
    detail::gather_array(group, r.saved, w ? &w->saved : nullptr,
                         r.n_saves() * r.n_saved_variables(), slices);
    detail::gather_array(group, r.saved_counters, w ? &w->saved_counters : nullptr,
                         r.n_saves() * r.counter_names.size(), slices);
    detail::gather_array(group, r.summaries, w ? &w->summaries : nullptr,
                         r.n_windows() * r.n_summary_rows(), slices);
    detail::gather_array(group, r.event_counts, w ? &w->event_counts : nullptr,
                         r.n_event_channels(), slices);
    detail::gather_array(group, r.event_times, w ? &w->event_times : nullptr, r.n_event_records(),
                         slices);
    detail::gather_array(group, r.event_states, w ? &w->event_states : nullptr,
                         r.n_event_records() * static_cast<std::size_t>(r.n_states), slices);
    return whole;
}

}  // namespace cubie::mpi
