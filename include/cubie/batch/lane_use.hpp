#pragma once
// Lane use: how much of its warps' time a batch integrated one trajectory per thread kept
// its lanes stepping. A warp runs as long as its busiest lane, so a warp of trajectories
// that take 100 to 400 steps holds each of its lanes for 400: lane use is the steps the
// trajectories attempted over the lane-steps their warps ran, 1 where every lane of each
// warp takes the same steps. Its inverse bounds what any rescheduling of the same steps can
// gain over one trajectory per thread (batch/scheduling.hpp).
//
//   lane_use(warps_of(accepted, rejected, n, block))  // trajectory i on thread i

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

/// Warp w's steps, from the step counters of `count` trajectories taken one per thread
/// in blocks of `block` threads: each block's warps start at its first thread, and the
/// last warp of a block, or of the batch, holds what is left.
struct steps_of_warp {
    static constexpr std::size_t lanes = 32;
    const std::uint32_t* accepted;
    const std::uint32_t* rejected;
    std::size_t count;
    std::size_t block = lanes;

    CUBIE_HD std::size_t warps_per_block() const { return (block + lanes - 1) / lanes; }
    /// The warps of the blocks the trajectories fill (the last block's may be empty).
    CUBIE_HD std::size_t warps() const { return (count + block - 1) / block * warps_per_block(); }
    CUBIE_HD warp_steps operator()(std::size_t w) const {
        const std::size_t start = w / warps_per_block() * block;  // the warp's block
        const std::size_t in_block = w % warps_per_block() * lanes;
        const std::size_t first = start + in_block;
        std::size_t end = start + (in_block + lanes < block ? in_block + lanes : block);
        end = end < count ? end : count;
        warp_steps s;
        unsigned long long busiest = 0;
        for (std::size_t i = first; i < end; ++i) {
            const unsigned long long attempts = 0ull + accepted[i] + rejected[i];
            s.attempted += attempts;
            busiest = attempts > busiest ? attempts : busiest;
        }
        s.held = first < end ? busiest * (end - first) : 0;
        return s;
    }
};

/// The steps of every warp of `count` trajectories in blocks of `block` threads, on the
/// host.
inline warp_steps warps_of(const std::uint32_t* accepted, const std::uint32_t* rejected,
                           std::size_t count, std::size_t block = steps_of_warp::lanes) {
    const steps_of_warp of{accepted, rejected, count, block};
    warp_steps total;
    for (std::size_t w = 0; w < of.warps(); ++w) total = total + of(w);
    return total;
}

}  // namespace cubie
