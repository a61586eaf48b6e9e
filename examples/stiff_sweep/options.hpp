#pragma once
// Command line of stiff_sweep.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace stiff_sweep {

/// A malformed command line; main prints the message and the usage, and exits with 2.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class precision { single, double_ };

struct options {
    std::size_t n = 1024;
    std::string method = "rodas5p";
    double rtol = 1e-5;  ///< the benchmark protocol's timing tolerance
    double atol = 1e-5;
    std::string backend = "auto";
    /// --devices: the cuda backend's devices; empty: the current one.
    std::vector<int> devices;
    bool all_devices = false;  ///< --devices all
    precision prec = precision::double_;
    int repeat = 1;
};

/// Parses argv; throws usage_error.
options parse_options(int argc, char** argv);

extern const char* const usage;

}  // namespace stiff_sweep
