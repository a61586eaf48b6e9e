#pragma once
// Inputs of a batch solve: initial states and parameters laid out [variable][trajectory]
// (the trajectory index fastest), viewed, not copied: the caller's arrays must outlive the
// call that reads them. The drivers' splines, shared by every trajectory in the system's
// driver order, are small and owned: a spline built from a temporary cannot dangle.

#include <cstddef>
#include <span>
#include <vector>

#include "cubie/drivers/cubic_spline_fit.hpp"

namespace cubie {

template <class T>
struct batch_inputs {
    std::size_t n_trajectories = 0;
    std::span<const T> initial_states;          ///< n_states * n_trajectories values
    std::span<const T> parameters;              ///< n_parameters * n_trajectories values
    std::vector<cubic_spline<T>> drivers = {};  ///< n_drivers splines
};

}  // namespace cubie
