#pragma once
// What the Lorenz benchmark's translation units share: the sweep, timings, and the library
// runs, each library configuration compiled in its own translation unit.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>
#include <vector>

#include "cubie/batch/batch_result.hpp"

namespace lorenz_bench {

inline constexpr double dt_fixed = 1.0 / 1024;
inline constexpr double tolerance = 1e-5;

struct timing {
    double e2e_ms = std::numeric_limits<double>::infinity();
    double kernel_ms = std::numeric_limits<double>::infinity();
    void keep_best(double e2e, double kernel) {
        e2e_ms = std::min(e2e_ms, e2e);
        kernel_ms = std::min(kernel_ms, kernel);
    }
};

inline double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// The protocol's inputs for N trajectories, laid out [variable][trajectory].
struct sweep {
    std::size_t n;
    std::vector<float> y0, rho;
    std::vector<double> reference;  ///< float64 final states [state][trajectory]
};

/// The float64 reference: the library's vern9 in double at rtol = atol = 1e-12.
std::vector<double> reference_final_states(const sweep& s);

/// The library, end to end through solver.solve() from std::vector inputs.
cubie::batch_result<float> library_classical_rk4(const sweep& s, int repeat, timing& t);
cubie::batch_result<float> library_tsit5(const sweep& s, int repeat, timing& t);

}  // namespace lorenz_bench
