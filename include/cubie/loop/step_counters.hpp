#pragma once
// Per-trajectory step counts, written by the loop.

#include <cstdint>

namespace cubie {

struct step_counters {
    std::uint32_t accepted = 0;
    std::uint32_t rejected = 0;
};

}  // namespace cubie
