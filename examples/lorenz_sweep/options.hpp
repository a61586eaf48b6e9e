#pragma once
// Command line of lorenz_sweep.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace lorenz_sweep {

/// A malformed command line; main prints the message and the usage, and exits with 2.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class precision { single, double_ };

struct options {
    std::size_t n = 1024;
    std::string method = "tsit5";
    std::optional<double> dt;   ///< fixed step
    std::optional<double> tol;  ///< adaptive: atol = rtol = tol, initial dt 2^-10
    std::string controller;     ///< fixed, i, pi, pid or gustafsson
    std::string backend = "auto";
    precision prec = precision::single;
    std::optional<std::string> out;
    int repeat = 1;
};

/// Parses argv; throws usage_error.
options parse_options(int argc, char** argv);

extern const char* const usage;

}  // namespace lorenz_sweep
