#pragma once
// What one lorenz_sweep run produced, independent of the precision it ran in.

#include <cstddef>
#include <string>
#include <vector>

#include "cubie/core/status.hpp"

namespace lorenz_sweep {

struct sweep_outcome {
    std::vector<double> rho, x, y, z;  ///< exact copies of the working-precision values
    std::vector<cubie::status> statuses;
    std::vector<std::uint32_t> accepted_steps, rejected_steps;
    std::string backend;
    std::string kernel;        ///< the cuda backend's kernel report, if it ran
    int digits = 17;           ///< significant digits that round-trip the precision
    double first_seconds = 0;  ///< the first solve, start-up included
    double best_seconds = 0;   ///< the fastest of --repeat solves
};

/// Writes trajectory,rho,x,y,z,status rows.
void write_csv(const sweep_outcome& outcome, const std::string& path);

}  // namespace lorenz_sweep
