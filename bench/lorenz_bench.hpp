#pragma once
// What the Lorenz benchmark's translation units share: the sweep's step size, its float64
// reference, and the library's configurations, one per translation unit.

#include <memory>
#include <vector>

#include "contender.hpp"

namespace lorenz_bench {

using bench::contender;
using bench::ensemble;

inline constexpr double dt_fixed = 1.0 / 1024;

/// The float64 reference: the library's vern9 in double at rtol = atol = 1e-12.
std::vector<double> reference_final_states(const ensemble& s);

/// The library's configurations: fixed classical RK4 and Tsitouras 5(4) at dt_fixed;
/// adaptive Tsit5, Dormand-Prince 5(4) and Cash-Karp 5(4) (PI controller) at `tolerance`.
std::unique_ptr<contender> library_classical_rk4(const ensemble& s);
std::unique_ptr<contender> library_fixed_tsit5(const ensemble& s);
std::unique_ptr<contender> library_tsit5(const ensemble& s, double tolerance);
std::unique_ptr<contender> library_dormand_prince_54(const ensemble& s, double tolerance);
std::unique_ptr<contender> library_cash_karp_54(const ensemble& s, double tolerance);

/// The same, saving the state: classical RK4 every `every_steps` steps, adaptive Tsit5
/// (from its interpolant) every `save_every`.
std::unique_ptr<contender> library_classical_rk4_saving(const ensemble& s, unsigned every_steps);
std::unique_ptr<contender> library_tsit5_saving(const ensemble& s, double tolerance,
                                                double save_every);

}  // namespace lorenz_bench
