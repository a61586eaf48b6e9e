// Streamed solves (io/streamed_solve.hpp): a batch whose result is several times the host
// memory budget set for it, solved chunk by chunk into NPY files and an HDF5 file, gives the
// files that writing the whole in-memory result gives (NPY: every file byte for byte; HDF5:
// every dataset and legend, bit for bit); a budget too small for one chunk and a path that
// cannot be written are refused before any work.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/io/npy_result.hpp"
#include "cubie/io/npy_stream.hpp"
#include "support/event_systems.hpp"
#include "support/file_bytes.hpp"
#include "support/recording_sweep.hpp"
#include "support/scratch_directory.hpp"
#include "support/test_backend.hpp"
#if CUBIE_WITH_HDF5
#include "cubie/io/hdf5_result.hpp"
#include "cubie/io/hdf5_stream.hpp"
#endif

using namespace cubie;
using namespace cubie::testing;
namespace fs = std::filesystem;

namespace {

std::set<std::string> file_names(const fs::path& directory) {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory))
        names.insert(entry.path().filename().string());
    return names;
}

/// Every file of two folders has the same bytes, and they hold the same files.
void check_same_folders(const fs::path& a, const fs::path& b) {
    const std::set<std::string> names = file_names(a);
    CHECK(file_names(b) == names);
    for (const std::string& name : names) {
        INFO(name);
        CHECK(file_bytes(a / name) == file_bytes(b / name));
    }
}

/// The budget that the whole result of n trajectories takes `times` times over.
template <class Solver>
std::size_t budget_for(const Solver& solver, const batch_inputs<typename Solver::value_type>& in,
                       const typename Solver::settings_type& s, double times) {
    return static_cast<std::size_t>(solver.plan(in, s).result_bytes(in.n_trajectories) / times);
}

/// Solves the batch whole and streamed, into NPY files and (with HDF5) an HDF5 file, with
/// a budget the whole result takes 5 times over, and compares the files.
template <class Solver>
void check_streamed_like_whole(const Solver& solver,
                               const batch_inputs<typename Solver::value_type>& in,
                               const typename Solver::settings_type& s, const char* tag) {
    using T = typename Solver::value_type;
    const scratch_directory scratch(tag);
    batch_result<T> whole = solver.solve(in, s, test_backend{});
    whole.keep_inputs(in, parameter_names<typename Solver::system_type>());
    const stream_settings stream{budget_for(solver, in, s, 5), true};

    write_result_npy(whole, scratch.path() / "whole");
    const stream_report report =
        solve_to_npy(solver, in, s, scratch.path() / "streamed", stream, test_backend{});
    CHECK(report.chunks >= 5 * 2);  // 2: the budget holds two chunk results
    CHECK(report.host_bytes <= double(stream.host_memory_budget));
    check_same_folders(scratch.path() / "whole", scratch.path() / "streamed");

#if CUBIE_WITH_HDF5
    write_result_hdf5(whole, scratch.path() / "whole.h5");
    solve_to_hdf5(solver, in, s, scratch.path() / "streamed.h5", stream, test_backend{});
    const batch_result<T> a = read_result_hdf5<T>(scratch.path() / "whole.h5");
    const batch_result<T> b = read_result_hdf5<T>(scratch.path() / "streamed.h5");
    CHECK(b.backend == a.backend);
    for_each_result_array(a, [&, k = std::size_t{0}](const auto& x) mutable {
        std::size_t j = 0;
        for_each_result_array(b, [&](const auto& y) {
            if (j++ != k) return;
            INFO(x.name);
            CHECK(x.shape == y.shape);
            if constexpr (std::is_same_v<decltype(x.data.data()), decltype(y.data.data())>)
                CHECK(same_bits(x.data, y.data));
            if (x.legend) CHECK(*x.legend == *y.legend);
        });
        ++k;
    });
#endif
}

}  // namespace

TEST_CASE("a streamed solve writes the files of the whole result, in a fifth of its memory") {
    const recording_sweep sweep(2000, 37);
    check_streamed_like_whole(recording_solver{}, sweep.inputs(), sweep.settings(), "stream");
}

TEST_CASE("a streamed solve with events writes the files of the whole result") {
    using ball = falling_ball<double>;
    constexpr std::size_t n = 600;
    std::vector<double> y0(2 * n, 0.0), p(2 * n, -1.0);
    for (std::size_t i = 0; i < n; ++i) {
        y0[i] = 1 + 0.002 * double(i);
        p[i] = 0.8 + 0.0002 * double(i);
    }
    using bouncing =
        solver<ball, tsit5, pi_controller, save_state, events<ball::ground, ball::apex>>;
    auto s = event_settings(3, 1e-8, 0.05);
    s.save_every = 0.25;
    check_streamed_like_whole(bouncing{}, {n, y0, p}, s, "stream-events");
}

TEST_CASE("a streamed solve refuses a budget too small for one chunk, and a path it cannot write") {
    const recording_sweep sweep(100, 37);
    const recording_solver solver;
    const auto in = sweep.inputs();
    const auto s = sweep.settings();
    const scratch_directory scratch("stream-bad");
    const fs::path folder = scratch.path() / "out";
    const std::size_t one = static_cast<std::size_t>(solver.plan(in, s).result_bytes(1));
    CHECK_THROWS_WITH_AS(solve_to_npy(solver, in, s, folder, {one, false}, test_backend{}),
                         doctest::Contains("holds no chunk"), std::invalid_argument);
    CHECK_FALSE(fs::exists(folder));  // refused before anything was written
    CHECK_THROWS_WITH_AS(solve_to_npy(solver, in, s, folder, {}, test_backend{}),
                         doctest::Contains("host_memory_budget = 0"), std::invalid_argument);

    // A folder where a file is: it cannot be made.
    std::ofstream(scratch.path() / "file") << "x";
    CHECK_THROWS_WITH_AS(solve_to_npy(solver, in, s, scratch.path() / "file" / "out",
                                      {1 << 20, false}, test_backend{}),
                         doctest::Contains("cannot create the folder"), std::runtime_error);
#if CUBIE_WITH_HDF5
    CHECK_THROWS_AS(solve_to_hdf5(solver, in, s, scratch.path() / "file" / "out.h5",
                                  {1 << 20, false}, test_backend{}),
                    std::runtime_error);
#endif
    // Bad inputs are refused as solve() refuses them, before the budget is looked at.
    const batch_inputs<double> short_inputs{sweep.n, std::span(sweep.y0).first(10), sweep.rho};
    CHECK_THROWS_WITH_AS(
        solve_to_npy(solver, short_inputs, s, folder, {1 << 20, false}, test_backend{}),
        doctest::Contains("initial_states"), std::invalid_argument);
    CHECK_FALSE(fs::exists(folder));
}
