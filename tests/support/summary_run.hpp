#pragma once
// Feeding a sampled series to summary_windows on the host, and reading its output.

#include <cuda/std/array>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "cubie/core/batch_view.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/outputs/summary_windows.hpp"

namespace cubie::testing {

template <class T, int N>
using sampled_series = std::vector<vector<T, N>>;  ///< samples k = 0 .. K

/// The output of one run, [window][row][trajectory], with the rows of other trajectories
/// and of windows never written left at NaN.
template <class T>
struct summary_output {
    std::vector<T> values;
    int rows;
    std::size_t n_trajectories;

    T operator()(std::size_t window, int row, std::size_t trajectory) const {
        return values[(window * rows + row) * n_trajectories + trajectory];
    }
};

/// Starts Windows with series[0] and adds series[1 .. last] (all of it by default), as
/// `trajectory` of a batch of n_trajectories.
template <class Windows, class T, std::size_t N>
summary_output<T> run_windows(const std::vector<cuda::std::array<T, N>>& series, T t0, T interval,
                              std::uint32_t samples_per_window, std::uint32_t n_windows,
                              std::size_t last = 0, std::size_t n_trajectories = 1,
                              std::size_t trajectory = 0) {
    if (last == 0) last = series.size() - 1;
    summary_output<T> out{std::vector<T>(n_windows * Windows::rows * n_trajectories,
                                         std::numeric_limits<T>::quiet_NaN()),
                          Windows::rows, n_trajectories};
    Windows windows{};
    windows.start(series[0], t0, interval, samples_per_window, n_windows,
                  batch_view<T>(out.values.data(), static_cast<int>(n_windows) * Windows::rows,
                                n_trajectories),
                  trajectory);
    for (std::size_t k = 1; k <= last; ++k) windows.add(series[k]);
    return out;
}

}  // namespace cubie::testing
