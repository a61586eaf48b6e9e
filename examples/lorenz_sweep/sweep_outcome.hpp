#pragma once
// What one lorenz_sweep run produced, independent of the precision it ran in.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cubie/core/host_array.hpp"
#include "cubie/core/status.hpp"

namespace lorenz_sweep {

/// One trajectory of the results table: its rho and where it ended.
struct final_row {
    std::size_t trajectory = 0;
    double rho = 0;
    double x = 0, y = 0, z = 0;
    cubie::status status = cubie::status::success;
};

struct sweep_outcome {
    cubie::host_array<cubie::status> statuses;
    cubie::host_array<std::uint32_t> accepted_steps, rejected_steps;
    std::string backend;
    std::string kernel;            ///< the cuda backend's kernel report, if it ran
    std::vector<final_row> table;  ///< a few trajectories across the sweep
    std::size_t saves = 0, windows = 0, summary_rows = 0;  ///< what was recorded
    double first_seconds = 0;                              ///< the first solve, start-up included
    double best_seconds = 0;                               ///< the fastest of --repeat solves
};

}  // namespace lorenz_sweep
