#pragma once
// The default backend: cuda when the translation unit is compiled by nvcc and a device is
// present, host otherwise.

namespace cubie::backends {

struct automatic {
    bool verbose = false;  ///< passed on to the cuda backend when it is chosen
};

}  // namespace cubie::backends
