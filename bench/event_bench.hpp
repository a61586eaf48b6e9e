#pragma once
// What event_bench's translation units share: its two problems, their settings, and what
// one contender's solves of a batch give back.
//
//   ball    the catalogue's bouncing_ball (systems/bouncing_ball.toml) in float: dropped
//           from 1 m at rest, restitution e = linspace(0.8, 0.95, N), t in [0, 3], Tsit5
//           with the PI controller at atol = rtol = 1e-5, first step 2^-10, dt_max = 0.05
//           (so that no step holds a whole flight); its events: ground (affect v = -e v,
//           16 kept) and apex (recorded, 16 kept); 4 to 6 bounces per trajectory
//   lorenz  the protocol's Lorenz sweep in float (rho = linspace(0, 21, N), x0 = (1, 0, 0),
//           t in [0, 1], Tsit5, PI, 1e-5, first step 2^-10), ended where z rises through 2
//           (terminate, 1 kept): 76% of the trajectories end early, between t = 0.2 and 1

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace event_bench {

constexpr double ball_t_end = 3, ball_dt_max = 0.05, lorenz_t_end = 1;
constexpr double first_step = 1.0 / 1024, tolerance = 1e-5;
constexpr float lorenz_threshold = 2;

/// A batch's inputs, [variable][trajectory].
struct batch {
    std::size_t n;
    std::vector<float> y0, params;
};

/// One contender's fastest times, and what its last solve computed.
struct run {
    double kernel_ms = std::numeric_limits<double>::infinity();
    double e2e_ms = std::numeric_limits<double>::infinity();
    double mean_steps = 0;              ///< attempted steps per trajectory
    std::vector<std::uint32_t> counts;  ///< [event][trajectory]
    std::vector<float> times;           ///< [record][trajectory], NaN where not kept
    std::vector<float> final_states;    ///< [state][trajectory]
    std::size_t terminated = 0;         ///< trajectories an event ended
    int registers = 0;                  ///< of the kernel (library: the backend's report)
    std::size_t local_bytes = 0;        ///< local memory per thread (spills)
    double memory_first_mib = 0, memory_last_mib = 0;  ///< device memory in use
};

/// The library on the ball or the Lorenz sweep, with or without its events: a warm-up and
/// `repeat` timed solves (event_library.cu).
run library_ball(const batch& b, bool events, int repeat);
run library_lorenz(const batch& b, bool events, int repeat);

}  // namespace event_bench
