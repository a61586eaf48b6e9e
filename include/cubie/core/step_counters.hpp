#pragma once
// Per-trajectory step counts, written by the loop.

#include <cstdint>

namespace cubie {

struct step_counters {
    std::uint32_t accepted = 0;
    std::uint32_t rejected = 0;
    /// Implicit methods only, over accepted and rejected steps alike
    /// (linear/implicit_step_report.hpp); zero for explicit ones.
    std::uint32_t newton_iterations = 0;
    std::uint32_t linear_iterations = 0;
};

}  // namespace cubie
