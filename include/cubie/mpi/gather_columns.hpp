#pragma once
// Gathers a [row][trajectory] array whose columns are spread over the ranks of a
// communicator in contiguous slices (trajectory_slice.hpp). Every rank holds its block,
// rows x count values laid out [row][local trajectory]; the root receives each block
// straight into its place in the [row][trajectory] array of rows x n values, through a
// strided datatype (MPI_Type_create_hvector: `rows` runs of `count` values, a full row
// apart). Nothing is packed, staged or transposed; the root copies its own block in place.
//
//   cubie::mpi::gather_columns<double>(comm, 0, local, gathered, rows, slices);
//
// Collective over comm: every rank passes the same rows, slices (contiguous, rank 0's first
// at 0) and max_message_elements.
// A message carries at most max_message_elements values (message_blocks.hpp), 1 GiB by
// default, so no MPI count overflows however large the batch.

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/mpi/datatype.hpp"
#include "cubie/mpi/message_blocks.hpp"
#include "cubie/mpi/mpi_check.hpp"
#include "cubie/mpi/trajectory_slice.hpp"

namespace cubie::mpi {

template <class T>
inline constexpr std::size_t default_max_message_elements = (std::size_t{1} << 30) / sizeof(T);

namespace detail {

/// Committed datatypes, freed together once the messages using them are complete.
class datatype_list {
public:
    datatype_list() = default;
    datatype_list(const datatype_list&) = delete;
    datatype_list& operator=(const datatype_list&) = delete;
    // Freeing is local and cannot be reported from a destructor; a type that fails to
    // free only stays allocated.
    ~datatype_list() {
        for (MPI_Datatype& type : types_) MPI_Type_free(&type);
    }

    /// `rows` runs of `columns` elements, stride_bytes apart.
    MPI_Datatype strided(std::size_t rows, std::size_t columns, std::size_t stride_bytes,
                         MPI_Datatype element) {
        MPI_Datatype type = MPI_DATATYPE_NULL;
        CUBIE_MPI_CHECK(MPI_Type_create_hvector(static_cast<int>(rows), static_cast<int>(columns),
                                                static_cast<MPI_Aint>(stride_bytes), element,
                                                &type));
        types_.push_back(type);
        CUBIE_MPI_CHECK(MPI_Type_commit(&types_.back()));
        return types_.back();
    }

private:
    std::vector<MPI_Datatype> types_;
};

[[noreturn]] inline void gather_size_mismatch(const char* what, int rank, std::size_t got,
                                              std::size_t rows, std::size_t columns) {
    throw std::invalid_argument("gather_columns: the " + std::string(what) + " array of rank " +
                                std::to_string(rank) + " has " + std::to_string(got) +
                                " values; expected " + std::to_string(rows) + " rows x " +
                                std::to_string(columns) + " trajectories");
}

}  // namespace detail

template <class T>
void gather_columns(MPI_Comm comm, int root, std::span<const T> local, std::span<T> gathered,
                    std::size_t rows, std::span<const trajectory_slice> slices,
                    std::size_t max_message_elements = default_max_message_elements<T>) {
    int rank = 0, ranks = 0;
    CUBIE_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    CUBIE_MPI_CHECK(MPI_Comm_size(comm, &ranks));
    if (slices.size() != static_cast<std::size_t>(ranks) || root < 0 || root >= ranks)
        throw std::invalid_argument("gather_columns: " + std::to_string(slices.size()) +
                                    " slices and root " + std::to_string(root) + " for " +
                                    std::to_string(ranks) + " ranks");
    // A message's counts, and its datatype's size in bytes, must fit an int.
    if (max_message_elements == 0 || max_message_elements > std::size_t{INT_MAX} / sizeof(T))
        throw std::invalid_argument(
            "gather_columns: max_message_elements = " + std::to_string(max_message_elements) +
            " must be positive and at most INT_MAX bytes");
    std::size_t start = 0;
    for (std::size_t r = 0; r < slices.size(); ++r) {
        if (slices[r].first != start)
            throw std::invalid_argument("gather_columns: the slice of rank " + std::to_string(r) +
                                        " starts at " + std::to_string(slices[r].first) +
                                        "; contiguous slices put it at " + std::to_string(start));
        start = slices[r].end();
    }
    const trajectory_slice mine = slices[static_cast<std::size_t>(rank)];
    const std::size_t n = slices.back().end();
    if (local.size() != rows * mine.count)
        detail::gather_size_mismatch("local", rank, local.size(), rows, mine.count);
    if (rank == root && gathered.size() != rows * n)
        detail::gather_size_mismatch("gathered", rank, gathered.size(), rows, n);

    const MPI_Datatype element = datatype_of<T>();
    constexpr int tag = 0;  // one sender's messages match the root's receives in order
    detail::datatype_list types;
    std::vector<MPI_Request> requests;
    if (rank == root) {
        for (int r = 0; r < ranks; ++r) {
            const trajectory_slice slice = slices[static_cast<std::size_t>(r)];
            if (r == root) continue;
            for (const message_block& b : message_blocks(rows, slice.count, max_message_elements)) {
                T* place = gathered.data() + b.row * n + slice.first + b.column;
                requests.push_back(MPI_REQUEST_NULL);
                CUBIE_MPI_CHECK(MPI_Irecv(place, 1,
                                          types.strided(b.rows, b.columns, n * sizeof(T), element),
                                          r, tag, comm, &requests.back()));
            }
        }
        for (std::size_t row = 0; row < rows; ++row)
            std::copy_n(local.data() + row * mine.count, mine.count,
                        gathered.data() + row * n + mine.first);
    } else {
        for (const message_block& b : message_blocks(rows, mine.count, max_message_elements)) {
            const T* block = local.data() + b.row * mine.count + b.column;
            requests.push_back(MPI_REQUEST_NULL);
            CUBIE_MPI_CHECK(MPI_Isend(
                block, 1, types.strided(b.rows, b.columns, mine.count * sizeof(T), element), root,
                tag, comm, &requests.back()));
        }
    }
    CUBIE_MPI_CHECK(
        MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
}

}  // namespace cubie::mpi
