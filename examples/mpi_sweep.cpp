// mpi_sweep: the Lorenz rho-sweep (x0 = (1, 0, 0), rho = linspace(0, 21, N), t in [0, 1],
// tsit5 with a PI controller, atol = rtol = 1e-5, x, y, z saved every 0.05) solved by the
// ranks of an MPI job, each its own slice of the trajectories, and gathered to rank 0, which
// prints a summary and, with --out, writes the whole result.
//
//   mpirun -np 4 mpi_sweep --n 100000 --out sweep --format npy
//
// A CUDA build (CUBIE_ENABLE_CUDA) compiles it with nvcc: the ranks of each host share its
// GPUs out, and a host without one uses the host backend. A host-only build compiles it
// with the host compiler: every rank uses the host backend, its OpenMP threads on the cores
// of its host (set OMP_NUM_THREADS so that ranks x threads matches them).
// Exits with 0 when every trajectory succeeded.

#include <mpi.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/io/write_result.hpp"
#include "cubie/mpi/mpi_check.hpp"
#include "cubie/mpi/solve.hpp"
#include "cubie/solver/solver.hpp"
#include "cubie/systems/variable_names.hpp"

namespace {

const char* const usage =
    "usage: mpirun -np RANKS mpi_sweep [--n N] [--out PATH [--format csv|npy|h5]]\n"
    "Integrates the Lorenz system for N values of rho in [0, 21] (default 4096), x0 = (1, 0,\n"
    "0), t in [0, 1], split over the ranks; rank 0 gathers the result.\n"
    "  --out PATH   writes it: a folder of CSV tables or NPY arrays, or one HDF5 file (h5)\n"
    "  --format F   csv, npy (default) or h5\n";

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct options {
    std::size_t n = 4096;
    std::optional<std::string> out;
    std::string format = "npy";
};

options parse_options(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "--help") throw usage_error("");
        if (i + 1 >= argc)
            throw usage_error("unknown option or missing value: " + std::string(flag));
        const char* value = argv[++i];
        if (flag == "--n") {
            char* end = nullptr;
            errno = 0;
            const unsigned long long n = std::strtoull(value, &end, 10);
            if (end == value || *end != '\0' || errno != 0 || value[0] == '-' || n < 2)
                throw usage_error("--n expects a whole number of at least 2, got '" +
                                  std::string(value) + "'");
            o.n = n;
        } else if (flag == "--out") {
            o.out = value;
        } else if (flag == "--format") {
            o.format = value;
        } else {
            throw usage_error("unknown option " + std::string(flag));
        }
    }
    cubie::parse_result_format(o.format);  // an unknown format fails before any work
    return o;
}

int run(const options& o, int rank, int ranks) {
    using cubie::solver;
    using sweep_solver = solver<cubie::catalogue::lorenz<float>, cubie::tsit5, cubie::pi_controller,
                                cubie::save_state>;

    // Every rank builds (or could read) the whole batch's inputs; each solves its slice.
    const std::size_t n = o.n;
    std::vector<float> y0(3 * n, 0.0f), rho(n);
    for (std::size_t i = 0; i < n; ++i) {
        y0[i] = 1.0f;
        rho[i] = static_cast<float>(21.0 * double(i) / double(n - 1));
    }
    cubie::solve_settings<cubie::pi_controller> settings;
    settings.t_end = 1;
    settings.dt = 1.0 / 1024;
    settings.atol = settings.rtol = {1e-5};
    settings.save_every = 0.05;

    CUBIE_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));  // time the solve, not the start-up
    const double start = MPI_Wtime();
    auto result = cubie::mpi::solve(MPI_COMM_WORLD, sweep_solver{}, {n, y0, rho}, settings);
    if (rank != 0) return 0;
    const double seconds = MPI_Wtime() - start;  // rank 0 is done when every slice is in

    std::printf("trajectories  %zu\n", result->n_trajectories);
    std::printf("ranks         %d, %zu to %zu trajectories each\n", ranks, n / std::size_t(ranks),
                (n + std::size_t(ranks) - 1) / std::size_t(ranks));
    std::printf("backend       %s (rank 0)\n", result->backend.c_str());
    std::printf("time          %.3f ms, solve and gather\n", seconds * 1e3);
    std::printf("saved         %zu times x %zu variables\n", result->n_saves(),
                result->n_saved_variables());
    std::printf("failures      %zu\n", result->failures());
    if (o.out) {  // with the inputs, so that the files say which rho each trajectory had
        result->keep_inputs({n, y0, rho},
                            cubie::parameter_names<cubie::catalogue::lorenz<float>>());
        cubie::write_result(*result, *o.out, cubie::parse_result_format(o.format));
        std::printf("written       %s (%s)\n", o.out->c_str(), o.format.c_str());
    }
    return result->failures() == 0 && result->n_trajectories == n ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        std::fputs("mpi_sweep: MPI_Init failed\n", stderr);
        return 1;
    }
    int rank = 0, ranks = 1;
    int code = 0;
    try {
        CUBIE_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
        CUBIE_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &ranks));
        code = run(parse_options(argc, argv), rank, ranks);
    } catch (const usage_error& e) {
        // Every rank parses the same arguments; rank 0 speaks for them.
        if (rank == 0) {
            if (*e.what() == '\0')
                std::fputs(usage, stdout);
            else
                std::fprintf(stderr, "mpi_sweep: %s\n%s", e.what(), usage);
        }
        code = *e.what() == '\0' ? 0 : 2;
    } catch (const std::exception& e) {
        // cubie::mpi::solve throws on every rank alike; a write fails on rank 0 alone.
        if (rank == 0) std::fprintf(stderr, "mpi_sweep: %s\n", e.what());
        code = 1;
    }
    MPI_Finalize();
    return code;
}
