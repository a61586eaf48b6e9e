#pragma once
// What divergent_bench's translation units share: an ensemble (float32 inputs laid out
// [variable][trajectory], one parameter each), and the measurement of one library
// configuration on it under each schedule (batch/scheduling.hpp), in one process: kernel
// time (inputs and outputs in device memory, so that only the kernels are timed), the
// attempted steps of every trajectory, and whether the schedules' results agree bit for
// bit. One translation unit per configuration.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cubie/batch/scheduling.hpp"

namespace divergent_bench {

struct ensemble {
    std::size_t n;
    std::vector<float> y0, params;
};

/// A case's settings: atol = rtol = tolerance from dt0 = t_end / 1024 over [0, t_end], PI
/// controller, at most max_steps attempts a trajectory.
struct case_settings {
    double t_end;
    double tolerance;
    std::uint64_t max_steps;
};

/// The schedules measured, static_mapping first (the others are compared with it).
inline constexpr cubie::scheduling schedules[] = {
    cubie::scheduling::static_mapping, cubie::scheduling::balanced, cubie::scheduling::automatic};
inline constexpr std::size_t n_schedules = sizeof schedules / sizeof schedules[0];

struct schedule_timing {
    double kernel_ms = 0;  ///< fastest of the timed solves
    double wall_ms = 0;    ///< the whole solve_on_device call, host included; fastest
    int registers = 0;
    int block_size = 0;
    std::size_t blocks = 0;  ///< of the first chunk's launch
    /// What the solve went by: automatic's choice, and the lane use it measured (-1: none)
    std::string chosen;
    double lane_use = -1;
};

struct measurement {
    schedule_timing timings[n_schedules];
    std::vector<std::uint32_t> steps;  ///< attempted (accepted + rejected), per trajectory
    std::size_t failures = 0;
    /// Every schedule's final states, statuses and step counts are the static mapping's,
    /// bit for bit.
    bool identical = true;
};

/// Tsit5 on Lorenz (rho) and Pleiades (m1); Rosenbrock23 on Van der Pol (mu).
measurement lorenz_tsit5(const ensemble& e, const case_settings& s, int repeat);
measurement pleiades_tsit5(const ensemble& e, const case_settings& s, int repeat);
measurement van_der_pol_rosenbrock23(const ensemble& e, const case_settings& s, int repeat);

}  // namespace divergent_bench
