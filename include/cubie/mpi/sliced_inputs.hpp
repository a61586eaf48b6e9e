#pragma once
// One rank's share of a batch's inputs: columns [first, first + count) of every
// [variable][trajectory] row, copied into arrays of their own, because batch_inputs views
// contiguous [variable][n] arrays and a slice of one is count values every n. The drivers'
// splines are shared by every trajectory and copied whole, as batch_inputs owns them.
//
//   const auto part = cubie::mpi::slice_inputs(inputs, slice, System::n_states,
//                                              System::n_parameters);
//   auto result = solver.solve(part.inputs(), settings);

#include <algorithm>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/batch/batch_inputs.hpp"
#include "cubie/drivers/cubic_spline_fit.hpp"
#include "cubie/mpi/trajectory_slice.hpp"

namespace cubie::mpi {

template <class T>
struct sliced_inputs {
    std::size_t n_trajectories = 0;
    std::vector<T> initial_states;  ///< [state][trajectory of the slice]
    std::vector<T> parameters;      ///< [parameter][trajectory of the slice]
    std::vector<cubic_spline<T>> drivers;

    batch_inputs<T> inputs() const { return {n_trajectories, initial_states, parameters, drivers}; }
};

namespace detail {

template <class T>
std::vector<T> slice_rows(std::span<const T> all, const char* what, std::size_t rows, std::size_t n,
                          trajectory_slice slice) {
    if (all.size() != rows * n)
        throw std::invalid_argument(
            "input " + std::string(what) + " has " + std::to_string(all.size()) +
            " values; expected " + std::to_string(rows) + " x " + std::to_string(n) +
            " trajectories = " + std::to_string(rows * n) + ", laid out [variable][trajectory]");
    std::vector<T> part(rows * slice.count);
    for (std::size_t row = 0; row < rows; ++row)
        std::copy_n(all.data() + row * n + slice.first, slice.count,
                    part.data() + row * slice.count);
    return part;
}

}  // namespace detail

/// The inputs of the trajectories in `slice`; throws std::invalid_argument when the
/// batch's arrays do not hold n_states and n_parameters rows, or the slice lies outside it.
template <class T>
sliced_inputs<T> slice_inputs(const batch_inputs<T>& all, trajectory_slice slice, int n_states,
                              int n_parameters) {
    const std::size_t n = all.n_trajectories;
    if (slice.first > n || slice.count > n - slice.first)
        throw std::invalid_argument("trajectories [" + std::to_string(slice.first) + ", " +
                                    std::to_string(slice.end()) + ") are not all among the " +
                                    std::to_string(n) + " of the batch");
    sliced_inputs<T> part;
    part.n_trajectories = slice.count;
    part.initial_states = detail::slice_rows(all.initial_states, "initial_states",
                                             static_cast<std::size_t>(n_states), n, slice);
    part.parameters = detail::slice_rows(all.parameters, "parameters",
                                         static_cast<std::size_t>(n_parameters), n, slice);
    part.drivers = all.drivers;
    return part;
}

}  // namespace cubie::mpi
