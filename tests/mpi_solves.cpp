// One batch solved by every rank of MPI_COMM_WORLD (cubie::mpi::solve), run under mpirun
// with 2 and 3 ranks: rank 0's gathered result equals a one-process solve of the whole
// batch, bit for bit, with uneven slices, failing trajectories and more ranks than
// trajectories; a failure on any rank reaches every rank. And the pieces: slices, message
// blocks, datatypes, the strided gather.

#include <doctest/doctest.h>
#include <mpi.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/catalogue/lorenz.hpp"
#include "cubie/mpi/datatype.hpp"
#include "cubie/mpi/gather_columns.hpp"
#include "cubie/mpi/host_placement.hpp"
#include "cubie/mpi/message_blocks.hpp"
#include "cubie/mpi/solve.hpp"
#include "cubie/mpi/trajectory_slice.hpp"
#include "support/recording_sweep.hpp"

using namespace cubie;
using cubie::testing::recording_solver;
using cubie::testing::same_bits;

namespace {

int world_rank() {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int world_size() {
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

/// Lorenz trajectories with rho over [0, 28]; one NaN parameter.
template <class T>
struct sweep {
    std::size_t n;
    std::vector<T> y0, rho;
    explicit sweep(std::size_t count) : n(count), y0(3 * count, T(0)), rho(count) {
        for (std::size_t i = 0; i < n; ++i) {
            y0[i] = 1;
            rho[i] = n > 1 ? T(28.0 * double(i) / double(n - 1)) : T(28);
        }
        if (n > 37) rho[37] = std::nan("");
    }
    batch_inputs<T> inputs() const { return {n, y0, rho}; }
};

/// Steps enough for small rho only: the trajectories of large rho exceed max_steps.
solve_settings<pi_controller> settings() {
    solve_settings<pi_controller> s = cubie::testing::recording_sweep::settings();
    s.max_steps = 120;
    return s;
}

template <class T>
void check_same(const batch_result<T>& one, const batch_result<T>& gathered) {
    CHECK(gathered.n_trajectories == one.n_trajectories);
    CHECK(gathered.n_states == one.n_states);
    CHECK(gathered.state_names == one.state_names);
    CHECK(cubie::testing::same_results(gathered, one));
    CHECK(same_bits(gathered.save_times, one.save_times));
    CHECK(gathered.saved_variables == one.saved_variables);
    CHECK(gathered.counter_names == one.counter_names);
    CHECK(same_bits(gathered.window_ends, one.window_ends));
    CHECK(gathered.summary_legend == one.summary_legend);
    CHECK(gathered.backend == one.backend);
}

}  // namespace

TEST_CASE("the ranks' slices are contiguous, balanced and cover the batch") {
    for (std::size_t n : {0, 1, 2, 3, 7, 1001}) {
        for (int ranks = 1; ranks <= 5; ++ranks) {
            INFO("n = " << n << ", ranks = " << ranks);
            std::size_t next = 0, smallest = n, largest = 0;
            for (int r = 0; r < ranks; ++r) {
                const mpi::trajectory_slice s = mpi::slice_of(n, r, ranks);
                CHECK(s.first == next);
                next = s.end();
                smallest = std::min(smallest, s.count);
                largest = std::max(largest, s.count);
            }
            CHECK(next == n);
            CHECK(largest - smallest <= 1);
        }
    }
    CHECK(mpi::slice_of(1001, 2, 3) == mpi::trajectory_slice{668, 333});
    CHECK(mpi::slice_of(1001, MPI_COMM_WORLD) == mpi::slice_of(1001, world_rank(), world_size()));
    CHECK_THROWS_WITH_AS(mpi::slice_of(10, 3, 3), "trajectory slice: rank 3 is not one of 3 ranks",
                         std::invalid_argument);
}

TEST_CASE("message blocks tile an array with counts that fit an int, however large") {
    using mpi::message_block;
    const auto small = mpi::message_blocks(3, 10, 4);  // rows of 10 in pieces of 4
    REQUIRE(small.size() == 9);
    CHECK(small[0].row == 0);
    CHECK(small[0].columns == 4);
    CHECK(small[2].column == 8);
    CHECK(small[2].columns == 2);
    CHECK(small[8].row == 2);
    const auto rows = mpi::message_blocks(10, 3, 7);  // two whole rows a message
    REQUIRE(rows.size() == 5);
    CHECK(rows[4].row == 8);
    CHECK(rows[4].rows == 2);
    CHECK(mpi::message_blocks(0, 10, 4).empty());
    CHECK(mpi::message_blocks(4, 0, 4).empty());
    CHECK_THROWS_AS(mpi::message_blocks(4, 4, 0), std::invalid_argument);

    // A slice of 3e9 trajectories (over INT_MAX on its own) and 600 saved rows: 1.8e12
    // doubles, sent in messages that each fit MPI's int counts.
    const std::size_t huge_rows = 600, huge_columns = 3'000'000'000;
    const std::size_t limit = mpi::default_max_message_elements<double>;
    std::size_t covered = 0;
    bool fits = true;
    for (const message_block& b : mpi::message_blocks(huge_rows, huge_columns, limit)) {
        covered += b.elements();
        fits = fits && b.elements() <= limit && b.elements() * sizeof(double) <= INT_MAX &&
               b.row + b.rows <= huge_rows && b.column + b.columns <= huge_columns;
    }
    CHECK(fits);
    CHECK(covered == huge_rows * huge_columns);
}

TEST_CASE("each result array's MPI datatype has the array's element size") {
    const auto size_of = [](MPI_Datatype type) {
        int bytes = 0;
        MPI_Type_size(type, &bytes);
        return static_cast<std::size_t>(bytes);
    };
    CHECK(size_of(mpi::datatype_of<float>()) == sizeof(float));
    CHECK(size_of(mpi::datatype_of<double>()) == sizeof(double));
    CHECK(size_of(mpi::datatype_of<std::uint32_t>()) == sizeof(std::uint32_t));
    CHECK(size_of(mpi::datatype_of<std::uint64_t>()) == sizeof(std::uint64_t));
    CHECK(size_of(mpi::datatype_of<status>()) == sizeof(status));
}

TEST_CASE("the ranks of a host share its GPUs out") {
    // mpirun starts every rank of the test on this host.
    const mpi::host_placement place = mpi::host_placement_of(MPI_COMM_WORLD);
    CHECK(place.rank == world_rank());
    CHECK(place.ranks == world_size());
    CHECK(mpi::devices_for({0, 2}, 4) == std::vector<int>{0, 2});
    CHECK(mpi::devices_for({1, 2}, 4) == std::vector<int>{1, 3});
    CHECK(mpi::devices_for({2, 3}, 8) == std::vector<int>{2, 5});
    CHECK(mpi::devices_for({3, 4}, 2) == std::vector<int>{1});
    CHECK(mpi::devices_for({0, 1}, 1) == std::vector<int>{0});
    CHECK_THROWS_AS(mpi::devices_for({0, 1}, 0), std::invalid_argument);
}

TEST_CASE("gathered columns land in trajectory order, in messages of any size") {
    const int rank = world_rank(), ranks = world_size();
    for (std::size_t n : {23, 1}) {
        constexpr std::size_t rows = 3;
        std::vector<mpi::trajectory_slice> slices;
        for (int r = 0; r < ranks; ++r) slices.push_back(mpi::slice_of(n, r, ranks));
        const mpi::trajectory_slice mine = slices[static_cast<std::size_t>(rank)];
        // Each value names its place: row * 1000 + trajectory.
        std::vector<double> local(rows * mine.count);
        for (std::size_t row = 0; row < rows; ++row)
            for (std::size_t i = 0; i < mine.count; ++i)
                local[row * mine.count + i] = double(row * 1000 + mine.first + i);
        std::vector<double> expected(rows * n);
        for (std::size_t k = 0; k < expected.size(); ++k)
            expected[k] = double((k / n) * 1000 + k % n);
        for (std::size_t limit : {1, 2, 5, 1000}) {
            INFO("n = " << n << ", at most " << limit << " values a message");
            std::vector<double> gathered(rank == 0 ? rows * n : 0, -1.0);
            mpi::gather_columns<double>(MPI_COMM_WORLD, 0, local, gathered, rows, slices, limit);
            if (rank == 0) CHECK(gathered == expected);
        }
    }
    std::vector<float> none;
    std::vector<mpi::trajectory_slice> too_few(static_cast<std::size_t>(ranks) + 1);
    CHECK_THROWS_AS(mpi::gather_columns<float>(MPI_COMM_WORLD, 0, none, none, 1, too_few),
                    std::invalid_argument);
    std::vector<mpi::trajectory_slice> gapped(static_cast<std::size_t>(ranks), {0, 0});
    gapped.back().first = 1;
    CHECK_THROWS_WITH_AS(mpi::gather_columns<float>(MPI_COMM_WORLD, 0, none, none, 1, gapped),
                         doctest::Contains("starts at 1; contiguous slices put it at 0"),
                         std::invalid_argument);
}

TEST_CASE("rank 0 gathers the one-process result bit for bit") {
    const bool root = world_rank() == 0;
    const recording_solver solver;
    for (std::size_t n : {1001, 1, 0}) {
        INFO("n = " << n << " on " << world_size() << " ranks");
        const sweep<double> s(n);
        const auto gathered =
            mpi::solve(MPI_COMM_WORLD, solver, s.inputs(), settings(), backends::host{});
        CHECK(gathered.has_value() == root);
        if (!root || !gathered) continue;
        const auto one = solver.solve(s.inputs(), settings(), backends::host{});
        check_same(one, *gathered);
        if (n == 1001) {  // the comparison covers failures of both kinds
            CHECK(one.statuses[37] == status::nonfinite_input);
            CHECK(one.statuses[1000] == status::max_steps_exceeded);
            CHECK(one.statuses[1] == status::success);
            CHECK(one.failures() > 100);
            CHECK(one.failures() < 900);
        }
    }
}

TEST_CASE("chunks, progress and the automatic backend stay each rank's own") {
    const bool root = world_rank() == 0;
    const sweep<double> s(1001);
    solve_control control;
    control.chunk_trajectories = 50;
    std::size_t reported = 0;
    control.progress = [&](const solve_progress& p) {
        reported = p.total;
        return true;
    };
    const auto chunked = mpi::solve(MPI_COMM_WORLD, recording_solver{}, s.inputs(), settings(),
                                    backends::automatic{}, control);
    CHECK(reported == mpi::slice_of(1001, MPI_COMM_WORLD).count);
    if (root && chunked)
        check_same(recording_solver{}.solve(s.inputs(), settings(), backends::host{}), *chunked);

    // Single precision and no outputs: final states, statuses and steps only.
    using plain_solver = solver<catalogue::lorenz<float>, tsit5, pi_controller>;
    const sweep<float> f(1001);
    solve_settings<pi_controller> plain;
    plain.dt = 1.0 / 1024;
    plain.atol = plain.rtol = {1e-5};
    const auto gathered = mpi::solve(MPI_COMM_WORLD, plain_solver{}, f.inputs(), plain);
    CHECK(gathered.has_value() == root);
    if (root && gathered) {
        const auto one = plain_solver{}.solve(f.inputs(), plain, backends::host{});
        check_same(one, *gathered);
        CHECK(gathered->saved.empty());
        CHECK(one.failures() == 1);
    }
}

TEST_CASE("bad settings throw on every rank, and no rank is left waiting") {
    const sweep<double> s(101);
    auto bad = settings();
    bad.dt = -1;
    CHECK_THROWS_WITH_AS(mpi::solve(MPI_COMM_WORLD, recording_solver{}, s.inputs(), bad),
                         doctest::Contains("setting dt = -1 is invalid"), std::invalid_argument);
    // Every rank is free again: a solve that needs all of them completes.
    const auto after = mpi::solve(MPI_COMM_WORLD, recording_solver{}, s.inputs(), settings());
    CHECK(after.has_value() == (world_rank() == 0));
}

TEST_CASE("a rank that fails alone makes every rank throw") {
    const int rank = world_rank(), last = world_size() - 1;
    const sweep<double> s(101);
    // The last rank's parameters are one short.
    batch_inputs<double> inputs = s.inputs();
    if (rank == last) inputs.parameters = inputs.parameters.first(100);
    const std::string cause = "input parameters has 100 values; expected 1 x 101";
    const std::string relayed = "rank " + std::to_string(last) + " of " +
                                std::to_string(world_size()) + " failed: " + cause;
    if (rank == last)
        CHECK_THROWS_WITH_AS(mpi::solve(MPI_COMM_WORLD, recording_solver{}, inputs, settings()),
                             doctest::Contains(cause.c_str()), std::invalid_argument);
    else
        CHECK_THROWS_WITH_AS(mpi::solve(MPI_COMM_WORLD, recording_solver{}, inputs, settings()),
                             doctest::Contains(relayed.c_str()), std::runtime_error);
}

TEST_CASE("ranks given batches of different sizes all refuse") {
    const int rank = world_rank(), ranks = world_size();
    const sweep<double> s(10 + static_cast<std::size_t>(rank));
    if (ranks == 1) {
        CHECK(mpi::solve(MPI_COMM_WORLD, recording_solver{}, s.inputs(), settings()));
    } else {
        const std::string message =
            "the ranks were given batches of 10 to " + std::to_string(9 + ranks) + " trajectories";
        CHECK_THROWS_WITH_AS(mpi::solve(MPI_COMM_WORLD, recording_solver{}, s.inputs(), settings()),
                             doctest::Contains(message.c_str()), std::invalid_argument);
    }
}
