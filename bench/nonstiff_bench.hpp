#pragma once
// What the non-stiff benchmark's translation units share: the library's side of each
// problem (one translation unit per problem, and per number of Lorenz 96 sites), built the
// same way for every System.

#include <memory>
#include <vector>

#include "contender.hpp"

namespace nonstiff_bench {

using bench::contender;
using bench::ensemble;

/// The library on one problem: classical RK4 at a fixed dt and Tsit5 (PI controller) at
/// atol = rtol = tolerance from a first step dt0, over [0, t_end]; and the float64 reference
/// of the final states (vern9 in double at atol = rtol = 1e-12; NaN for the trajectories it
/// fails on).
struct library_side {
    std::unique_ptr<contender> (*rk4)(const ensemble& s, double dt, double t_end);
    std::unique_ptr<contender> (*tsit5)(const ensemble& s, double dt0, double tolerance,
                                        double t_end);
    std::vector<double> (*reference)(const ensemble& s, double dt0, double t_end);
};

/// The sites the benchmark is compiled for (bench/CMakeLists.txt generates each size).
inline constexpr int lorenz96_sites[] = {4, 8, 16, 32, 64, 128};

template <int Sites>
library_side lorenz96_library();
library_side pleiades_library();

}  // namespace nonstiff_bench
