#pragma once
// What lanes_bench's translation units share: one Lorenz 96 size per unit (bench/CMakeLists.txt
// generates each size's System), measured in the precisions and methods asked for.

#include <cstddef>
#include <string>

namespace lanes_bench {

/// The settings of one run of the benchmark.
struct request {
    std::string methods;     ///< "tsit5", "rk4", comma-separated
    std::string precisions;  ///< "float", "double", comma-separated
    std::string outputs;     ///< "final" (states), "summaries" (and final states)
    std::size_t n;           ///< trajectories
    int repeat;
};

/// Whether the comma-separated `list` names `item`.
inline bool lists(const std::string& list, const std::string& item) {
    return ("," + list + ",").find("," + item + ",") != std::string::npos;
}

/// Prints the rows of Lorenz 96 at Sites sites, keeping summaries or final states alone
/// (each defined in its own unit).
template <int Sites, bool Summaries>
void measure_lorenz96(const request& r);

/// The sizes compiled.
inline constexpr int lorenz96_sites[] = {16, 32, 40, 48, 56, 64, 128};

}  // namespace lanes_bench
