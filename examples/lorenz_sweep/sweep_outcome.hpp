#pragma once
// What one lorenz_sweep run produced, independent of the precision it ran in.

#include <cstddef>
#include <cstdint>
#include <string>

#include "cubie/core/host_array.hpp"
#include "cubie/core/status.hpp"

namespace lorenz_sweep {

struct sweep_outcome {
    cubie::host_array<cubie::status> statuses;
    cubie::host_array<std::uint32_t> accepted_steps, rejected_steps;
    std::string backend;
    std::string kernel;  ///< the cuda backend's kernel report, if it ran
    std::size_t saves = 0, windows = 0, summary_rows = 0;  ///< what was recorded
    double first_seconds = 0;                              ///< the first solve, start-up included
    double best_seconds = 0;                               ///< the fastest of --repeat solves
};

}  // namespace lorenz_sweep
