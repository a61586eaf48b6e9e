#pragma once
// The trajectories one rank of a communicator solves: a contiguous slice [first, first +
// count) of the batch, balanced so that counts differ by at most one (the first n % ranks
// ranks hold one more). Contiguous slices keep each rank's block of a [row][trajectory]
// array one rectangle, which a strided MPI datatype moves without a staging copy.
//
//   const auto mine = cubie::mpi::slice_of(n, MPI_COMM_WORLD);   // this rank's slice

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "cubie/mpi/mpi_check.hpp"

namespace cubie::mpi {

struct trajectory_slice {
    std::size_t first = 0;
    std::size_t count = 0;

    std::size_t end() const { return first + count; }
    bool operator==(const trajectory_slice&) const = default;
};

/// The slice of n trajectories that rank `rank` of `ranks` solves.
inline trajectory_slice slice_of(std::size_t n, int rank, int ranks) {
    if (ranks < 1 || rank < 0 || rank >= ranks)
        throw std::invalid_argument("trajectory slice: rank " + std::to_string(rank) +
                                    " is not one of " + std::to_string(ranks) + " ranks");
    const auto r = static_cast<std::size_t>(rank);
    const std::size_t base = n / static_cast<std::size_t>(ranks);
    const std::size_t extra = n % static_cast<std::size_t>(ranks);
    return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

/// The slice of n trajectories that the calling rank of comm solves.
inline trajectory_slice slice_of(std::size_t n, MPI_Comm comm) {
    int rank = 0, ranks = 0;
    CUBIE_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    CUBIE_MPI_CHECK(MPI_Comm_size(comm, &ranks));
    return slice_of(n, rank, ranks);
}

}  // namespace cubie::mpi
