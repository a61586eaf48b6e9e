#pragma once
// Command line of lorenz_sweep.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

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
    /// --devices: the cuda backend's devices; empty: the current one.
    std::vector<int> devices;
    bool all_devices = false;  ///< --devices all
    precision prec = precision::single;
    std::optional<std::string> out;  ///< a directory (csv, npy) or a file (h5)
    std::string format = "csv";      ///< csv, npy or h5
    int repeat = 1;
    bool progress = false;             ///< a progress bar on stderr, the batch in about 100 chunks
    std::optional<double> save_every;  ///< save states and step counters
    std::vector<std::string> summaries;     ///< metric names, e.g. mean, extrema, peaks
    std::optional<double> summarise_every;  ///< window length; default: the whole interval
    std::optional<double> sample_every;     ///< summary samples; default: dt (or 2^-10)

    bool records_outputs() const { return save_every.has_value() || !summaries.empty(); }
};

/// The metrics --summaries accepts, in the order their rows are written.
extern const std::vector<std::string> summary_metric_names;

/// Parses argv; throws usage_error.
options parse_options(int argc, char** argv);

extern const char* const usage;

}  // namespace lorenz_sweep
