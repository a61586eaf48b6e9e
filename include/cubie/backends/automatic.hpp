#pragma once
// The default backend: cuda when the translation unit is compiled by nvcc and a device is
// present, host otherwise.

#include "cubie/batch/scheduling.hpp"

namespace cubie::backends {

struct automatic {
    bool verbose = false;  ///< passed on to the cuda backend when it is chosen
    /// passed on to the backend chosen (batch/scheduling.hpp)
    cubie::scheduling scheduling = cubie::scheduling::automatic;
};

}  // namespace cubie::backends
