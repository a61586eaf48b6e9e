#pragma once
// One rank's failure becomes every rank's, so that none waits forever in a collective
// call the failed rank never makes. Each rank passes what it caught (or nothing); when any
// rank failed, every rank throws: the failed ranks their own exception, the others a
// std::runtime_error that names the first failed rank and carries its message.
//
//   std::exception_ptr failure;
//   try { local_work(); } catch (...) { failure = std::current_exception(); }
//   cubie::mpi::throw_if_any_rank_failed(comm, failure);   // collective
//   // from here on, every rank succeeded

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>

#include "cubie/mpi/datatype.hpp"
#include "cubie/mpi/mpi_check.hpp"

namespace cubie::mpi {

namespace detail {

inline std::string message_of(const std::exception_ptr& failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an exception that is not a std::exception";
    }
}

}  // namespace detail

inline void throw_if_any_rank_failed(MPI_Comm comm, const std::exception_ptr& failure) {
    int rank = 0, ranks = 0;
    CUBIE_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    CUBIE_MPI_CHECK(MPI_Comm_size(comm, &ranks));
    const int mine = failure ? rank : ranks;
    int first = ranks;
    CUBIE_MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
    if (first == ranks) return;

    // The first failed rank's message, cut to a length that fits any count.
    constexpr std::size_t longest = 4096;
    std::string message = rank == first ? detail::message_of(failure).substr(0, longest) : "";
    auto length = static_cast<std::uint64_t>(message.size());
    CUBIE_MPI_CHECK(MPI_Bcast(&length, 1, datatype_of<std::uint64_t>(), first, comm));
    message.resize(length);
    CUBIE_MPI_CHECK(MPI_Bcast(message.data(), static_cast<int>(length), MPI_CHAR, first, comm));
    if (failure) std::rethrow_exception(failure);
    throw std::runtime_error("rank " + std::to_string(first) + " of " + std::to_string(ranks) +
                             " failed: " + message);
}

}  // namespace cubie::mpi
