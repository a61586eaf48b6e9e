#pragma once
// Where a rank sits on its host: its index among the ranks of its communicator that run on
// the same host (share memory with it), and how many those are; and the GPUs of the host
// that such a rank takes, so that the ranks of one host share its GPUs out instead of all
// crowding onto the first.
//
//   const auto place = cubie::mpi::host_placement_of(comm);     // collective
//   const auto mine = cubie::mpi::devices_for(place, device_count);

#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/mpi/mpi_check.hpp"

namespace cubie::mpi {

struct host_placement {
    int rank = 0;   ///< among the ranks on this host
    int ranks = 1;  ///< on this host
};

/// This rank's placement on its host. Collective: every rank of comm must call it.
inline host_placement host_placement_of(MPI_Comm comm) {
    int rank = 0;
    CUBIE_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MPI_Comm host = MPI_COMM_NULL;
    CUBIE_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host));
    host_placement place;
    int code = MPI_Comm_rank(host, &place.rank);
    if (code == MPI_SUCCESS) code = MPI_Comm_size(host, &place.ranks);
    CUBIE_MPI_CHECK(MPI_Comm_free(&host));
    CUBIE_MPI_CHECK(code);
    return place;
}

/// The devices, of `devices` on the host, that the rank at `place` solves on: every
/// (ranks)-th from its own index when there are at least as many devices as ranks, so that
/// each device serves one rank; otherwise one, shared round-robin.
inline std::vector<int> devices_for(host_placement place, int devices) {
    if (place.ranks < 1 || place.rank < 0 || place.rank >= place.ranks || devices < 1)
        throw std::invalid_argument("devices_for: rank " + std::to_string(place.rank) + " of " +
                                    std::to_string(place.ranks) + " on a host with " +
                                    std::to_string(devices) + " devices");
    if (place.ranks >= devices) return {place.rank % devices};
    std::vector<int> mine;
    for (int d = place.rank; d < devices; d += place.ranks) mine.push_back(d);
    return mine;
}

}  // namespace cubie::mpi
