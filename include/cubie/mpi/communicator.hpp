#pragma once
// The library's own communicator: a duplicate of the caller's, freed when it goes out of
// scope. Its messages cannot match the caller's (a duplicate is a separate matching
// context), and MPI errors on it come back as return codes (MPI_ERRORS_RETURN) that
// CUBIE_MPI_CHECK turns into exceptions, where the default handler would abort the job.
//
// Creating one is collective: every rank of the parent communicator must do it.

#include <mpi.h>

#include "cubie/mpi/mpi_check.hpp"

namespace cubie::mpi {

class communicator {
public:
    explicit communicator(MPI_Comm parent) {
        CUBIE_MPI_CHECK(MPI_Comm_dup(parent, &comm_));
        try {
            CUBIE_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
            CUBIE_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
            CUBIE_MPI_CHECK(MPI_Comm_size(comm_, &size_));
        } catch (...) {
            MPI_Comm_free(&comm_);  // already failing: the first error is the one reported
            throw;
        }
    }
    // A destructor cannot throw, and a communicator that fails to free leaves nothing to
    // undo: its return code has no one to go to.
    ~communicator() { MPI_Comm_free(&comm_); }
    communicator(const communicator&) = delete;
    communicator& operator=(const communicator&) = delete;

    MPI_Comm get() const { return comm_; }
    int rank() const { return rank_; }
    int size() const { return size_; }

private:
    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0;
    int size_ = 0;
};

}  // namespace cubie::mpi
