#pragma once
// What the Lorenz sweep benchmarks share on their command line: the batch size as a power
// of two and the number of timed solves after the warm-up; and their wall clock.

#include <cstdio>
#include <optional>
#include <string>

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
    for (int i = 1; i < argc; i += 2) {
        const std::string flag = argv[i];
        if (i + 1 < argc && flag == "--log2n") {
            options.log2n = std::stoi(argv[i + 1]);
        } else if (i + 1 < argc && flag == "--repeat") {
            options.repeat = std::stoi(argv[i + 1]);
        } else {
            std::fprintf(stderr, "usage: %s [--log2n %d] [--repeat %d]\n", program, options.log2n,
                         options.repeat);
            return std::nullopt;
        }
    }
    return options;
}

}  // namespace bench
