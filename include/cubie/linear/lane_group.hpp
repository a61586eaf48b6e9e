#pragma once
// The lanes that integrate one trajectory together under a cooperative mapping: Group::size
// lanes, each knowing its lane(), exchanging values by broadcast(value, from) (every lane
// gets lane `from`'s value) and exchange(value, mask) (every lane gets lane lane() ^ mask's
// value, the butterfly of a reduction) and meeting at sync() (what one lane wrote to
// memory they share is then seen by all). Every lane of a group makes the same calls in the
// same order: an exchange is a meeting of all of them.
//
//   single_lane     one lane: the thread-per-trajectory mapping, and the host backend
//   tile_lanes<G>   G lanes of a warp (cooperative_groups::thread_block_tile), on the device
//
// Cooperative code (cooperative_lu.hpp) is written once over a lane_group; with single_lane
// it is plain per-thread code.

#include <concepts>

#include "cubie/core/config.hpp"
#if defined(__CUDACC__)
#include <cooperative_groups.h>
#endif

namespace cubie {

template <class Group>
concept lane_group = requires(const Group& g, float f, double d, int i) {
    { Group::size } -> std::convertible_to<int>;
    { g.lane() } -> std::convertible_to<int>;
    { g.broadcast(f, i) } -> std::same_as<float>;
    { g.broadcast(d, i) } -> std::same_as<double>;
    { g.broadcast(i, i) } -> std::same_as<int>;
    { g.exchange(f, i) } -> std::same_as<float>;
    { g.exchange(d, i) } -> std::same_as<double>;
    { g.exchange(i, i) } -> std::same_as<int>;
    g.sync();
};

/// One lane: every exchange is with itself.
struct single_lane {
    static constexpr int size = 1;
    CUBIE_HD int lane() const { return 0; }
    template <class T>
    CUBIE_HD T broadcast(T value, int /*from*/) const {
        return value;
    }
    template <class T>
    CUBIE_HD T exchange(T value, int /*mask*/) const {
        return value;
    }
    CUBIE_HD void sync() const {}
};

#if defined(__CUDACC__)
/// G lanes (a power of two up to 32) of one warp, by warp shuffles.
template <int G>
struct tile_lanes {
    static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "a tile is 1, 2, 4, 8, 16 or 32 lanes");
    static constexpr int size = G;
    cooperative_groups::thread_block_tile<G> tile;

    /// The tile of the calling thread: threads G r to G r + G - 1 of its block.
    __device__ static tile_lanes of_this_thread() {
        return {cooperative_groups::tiled_partition<G>(cooperative_groups::this_thread_block())};
    }
    __device__ int lane() const { return static_cast<int>(tile.thread_rank()); }
    template <class T>
    __device__ T broadcast(T value, int from) const {
        return tile.shfl(value, from);
    }
    template <class T>
    __device__ T exchange(T value, int mask) const {
        return tile.shfl_xor(value, mask);
    }
    __device__ void sync() const { tile.sync(); }
};
#endif

}  // namespace cubie
