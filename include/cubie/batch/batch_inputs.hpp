#pragma once
// Inputs of a batch solve: initial states and parameters laid out [variable][trajectory]
// (the trajectory index fastest), and the drivers' splines shared by every trajectory,
// in the system's driver order; viewed, not copied.

#include <cstddef>
#include <span>

#include "cubie/drivers/cubic_spline_fit.hpp"

namespace cubie {

template <class T>
struct batch_inputs {
    std::size_t n_trajectories = 0;
    std::span<const T> initial_states;              ///< n_states * n_trajectories values
    std::span<const T> parameters;                  ///< n_parameters * n_trajectories values
    std::span<const cubic_spline<T>> drivers = {};  ///< n_drivers splines
};

}  // namespace cubie
