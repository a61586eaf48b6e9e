#pragma once
// Inputs of a batch solve: initial states and parameters laid out [variable][trajectory]
// (the trajectory index fastest), viewed, not copied.

#include <cstddef>
#include <span>

namespace cubie {

template <class T>
struct batch_inputs {
    std::size_t n_trajectories = 0;
    std::span<const T> initial_states;  ///< n_states * n_trajectories values
    std::span<const T> parameters;      ///< n_parameters * n_trajectories values
};

}  // namespace cubie
