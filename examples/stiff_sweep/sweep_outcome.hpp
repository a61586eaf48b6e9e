#pragma once
// What one stiff_sweep run produced, independent of the precision it ran in.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cubie/core/host_array.hpp"
#include "cubie/core/status.hpp"

namespace stiff_sweep {

struct sweep_outcome {
    cubie::host_array<cubie::status> statuses;
    cubie::host_array<std::uint32_t> accepted_steps, rejected_steps;
    cubie::host_array<std::uint32_t> newton_iterations, linear_iterations;
    std::vector<double> k1;                     ///< the swept rate, per trajectory
    std::vector<double> ozone;                  ///< O3 at t = 60, per trajectory
    std::string backend;                        ///< "host" or "cuda:<device name>"
    std::string kernel;                         ///< the cuda backend's kernel report, if it ran
    std::optional<double> kernel_milliseconds;  ///< of the fastest solve, cuda backend only
    double first_seconds = 0;                   ///< the first solve, start-up included
    double best_seconds = 0;                    ///< the fastest of --repeat solves
};

}  // namespace stiff_sweep
