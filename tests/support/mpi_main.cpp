// doctest runner of the MPI suites, started by mpirun. Every rank runs every test case,
// since the cases call collective functions; rank 0 prints the report, the other ranks
// only their failures. The exit code is the worst of all ranks', so a failure on any rank
// fails the run.

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        std::fputs("MPI_Init failed\n", stderr);
        return 1;
    }
    int rank = 0;
    int code = MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS ? 0 : 1;
    if (code == 0) {
        doctest::Context context(argc, argv);
        if (rank != 0) context.setOption("minimal", true);
        code = context.run();
    }
    int worst = code;
    if (MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        worst = worst == 0 ? 1 : worst;
    if (rank == 0 && worst != code)
        std::fprintf(stderr, "another rank failed (exit code %d): see its report above\n", worst);
    MPI_Finalize();
    return worst;
}
