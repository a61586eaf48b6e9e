#pragma once
// The Backend concept: where a batch's trajectories run.
//
//   writes_every_output           static constexpr bool; false: the solver marks the result
//                                 unsolved first, and run() writes only what it integrates
//   chunk_capacity(wanted, bytes_per_trajectory, lanes, adaptive) -> std::size_t
//                                 the most trajectories one chunk may hold, each integrated
//                                 by `lanes` threads (algorithms/on_lanes.hpp), with an
//                                 adaptive controller or not
//   run(task, inputs, result, chunk, after_chunk)
//                                 calls the trajectory task (batch/trajectory_task.hpp) once
//                                 per trajectory, `chunk` at a time, and after_chunk(count)
//                                 after each chunk, stopping when it returns false
//
// backends::automatic is not one itself: the solver resolves it to cuda or host.

#include <concepts>
#include <cstddef>
#include <type_traits>

#include "cubie/backends/automatic.hpp"

namespace cubie {

template <class B>
concept backend = std::is_same_v<B, backends::automatic> ||
    requires(const B& b, std::size_t wanted, double bytes) {
    { B::writes_every_output } -> std::convertible_to<bool>;
    { b.chunk_capacity(wanted, bytes, 1, true) } -> std::convertible_to<std::size_t>;
};

}  // namespace cubie
