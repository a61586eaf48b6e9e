#pragma once
// Lane use: how much of its warps' time a batch integrated one trajectory per thread kept
// its lanes stepping. A warp runs as long as its busiest lane, so a warp of trajectories
// that take 100 to 400 steps holds each of its lanes for 400: lane use is the steps the
// trajectories attempted over the lane-steps their warps ran, 1 where every lane of each
// warp takes the same steps. Its inverse bounds what any rescheduling of the same steps can
// gain over one trajectory per thread (batch/scheduling.hpp).
//
//   lane_use(warps_of(accepted, rejected, n))   // trajectory i on lane i % 32 of warp i / 32

#include <cstddef>
#include <cstdint>

#include "cubie/core/config.hpp"

namespace cubie {

/// Steps of a set of warps (in the type CUDA's atomicAdd takes).
struct warp_steps {
    unsigned long long attempted = 0;  ///< by their trajectories: accepted and rejected
    unsigned long long held = 0;       ///< lanes x the busiest lane's attempts, per warp

    CUBIE_HD warp_steps operator+(const warp_steps& other) const {
        return {attempted + other.attempted, held + other.held};
    }
};

/// The attempted steps over the lane-steps held; 1 where nothing was held (no steps).
inline double lane_use(const warp_steps& s) {
    return s.held == 0 ? 1.0 : double(s.attempted) / double(s.held);
}

/// Warp w's steps, from the step counters of `count` trajectories taken one per thread,
/// `lanes` to a warp: the last warp holds what is left.
struct steps_of_warp {
    static constexpr std::size_t lanes = 32;
    const std::uint32_t* accepted;
    const std::uint32_t* rejected;
    std::size_t count;

    CUBIE_HD warp_steps operator()(std::size_t w) const {
        warp_steps s;
        unsigned long long busiest = 0;
        const std::size_t end = (w + 1) * lanes < count ? (w + 1) * lanes : count;
        for (std::size_t i = w * lanes; i < end; ++i) {
            const unsigned long long attempts = 0ull + accepted[i] + rejected[i];
            s.attempted += attempts;
            busiest = attempts > busiest ? attempts : busiest;
        }
        s.held = busiest * (end - w * lanes);
        return s;
    }
    /// The warps the trajectories fill.
    CUBIE_HD std::size_t warps() const { return (count + lanes - 1) / lanes; }
};

/// The steps of every warp of `count` trajectories, on the host.
inline warp_steps warps_of(const std::uint32_t* accepted, const std::uint32_t* rejected,
                           std::size_t count) {
    const steps_of_warp of{accepted, rejected, count};
    warp_steps total;
    for (std::size_t w = 0; w < of.warps(); ++w) total = total + of(w);
    return total;
}

}  // namespace cubie
