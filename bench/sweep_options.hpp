#pragma once
// What the Lorenz sweep benchmarks share on their command line: the batch size as a power
// of two and the number of timed solves after the warm-up; and their wall clock.

#include <cstdio>
#include <optional>
#include <string>

#include "command_line.hpp"
#include "wall_clock.hpp"

namespace bench {

struct sweep_options {
    int log2n;
    int repeat;
};

/// Parses `--log2n K --repeat R` over the defaults; anything else prints the usage of
/// `program` and gives nothing.
inline std::optional<sweep_options> parse_sweep_options(int argc, char** argv,
                                                        sweep_options options,
                                                        const char* program) {
    const std::string usage = "usage: " + std::string(program) + " [--log2n " +
                              std::to_string(options.log2n) + "] [--repeat " +
                              std::to_string(options.repeat) + "]";
    if (!parse_flags(argc, argv,
                     {{"--log2n", [&](const std::string& v) { options.log2n = std::stoi(v); }},
                      {"--repeat", [&](const std::string& v) { options.repeat = std::stoi(v); }}},
                     usage.c_str()))
        return std::nullopt;
    return options;
}

}  // namespace bench
