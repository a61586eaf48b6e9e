// Rosenbrock steps taken by several lanes together (algorithms/on_lanes.hpp) against the
// one-thread step (support/lanes_against_one_thread.hpp): on the host bit for bit, with teams
// of 2 to 32 host threads on Pollution (20 states: lanes holding 1 to 10 rows, and lanes
// holding none) in float and double, whole integrations, adaptive and with fixed steps; on
// the device within the tolerance. The solver's mapping, and the block sizes it takes.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "support/lanes_against_one_thread.hpp"

using namespace cubie;
using namespace cubie::testing;

#if !defined(__CUDACC__)
TEST_CASE_TEMPLATE("rodas5p on 2 to 32 lanes: adaptive Pollution bit for bit", T, float, double) {
    const auto s = pollution_settings<T, pi_controller>(sizeof(T) == 4 ? 1e-5 : 1e-8);
    for (const double k1 : {0.035, 0.35, 3.5}) {
        CAPTURE(k1);
        const outcome<T> alone = integrate_pollution<rodas5p, pi_controller>(s, T(k1));
        REQUIRE(alone.result == status::success);
        REQUIRE(alone.counters.accepted > 10);
        check_team_integration<rodas5p, 2>(s, T(k1));
        check_team_integration<rodas5p, 4>(s, T(k1));
        check_team_integration<rodas5p, 8>(s, T(k1));
    }
    // Lanes that hold no row (20 rows over 32 lanes), on one trajectory.
    check_team_integration<rodas5p, 32>(s, T(0.35));
}

TEST_CASE_TEMPLATE("rosenbrock23 on 4 and 16 lanes: adaptive and fixed steps bit for bit", T, float,
                   double) {
    check_team_integration<rosenbrock23, 4>(pollution_settings<T, pi_controller>(1e-4), T(0.35));
    check_team_integration<rosenbrock23, 16>(pollution_settings<T, pi_controller>(1e-4), T(3.5));
    auto fixed = pollution_settings<T, fixed_step>(0);
    fixed.dt = 60.0 / 256;
    check_team_integration<rosenbrock23, 4>(fixed, T(0.35));
}

#endif

TEST_CASE("mapped_algorithm: cooperative methods on lanes for larger dense systems, as named") {
    CHECK(automatic_lanes(3) == 1);
    CHECK(automatic_lanes(8) == 1);
    CHECK(automatic_lanes(9) == 4);
    CHECK(automatic_lanes(20) == 4);
    CHECK(automatic_lanes(21) == 8);
    CHECK(automatic_lanes(40) == 8);
    CHECK(automatic_lanes(41) == 16);
    CHECK(automatic_lanes(200) == 32);
    // pollution<T> here hides the pattern (dense_jacobian); the catalogue's own declares it,
    // and its factors in the pattern fit one thread.
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, rodas5p>> == 4);
    CHECK(std::is_same_v<mapped_algorithm<catalogue::pollution<float>, rodas5p>, rodas5p>);
    CHECK(
        lanes_per_trajectory<mapped_algorithm<catalogue::pollution<float>, on_lanes<rodas5p, 4>>> ==
        4);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, on_lanes<rodas5p, 1>>> == 1);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, on_lanes<rodas5p, 32>>> == 32);
    // DIRK methods take lanes only when named; methods whose steps one thread takes never.
    CHECK(std::is_same_v<mapped_algorithm<pollution<float>, kvaerno5>, kvaerno5>);
    CHECK(lanes_per_trajectory<mapped_algorithm<pollution<float>, on_lanes<kvaerno5, 4>>> == 4);
    CHECK(std::is_same_v<mapped_algorithm<pollution<float>, kvaerno5_gmres>, kvaerno5_gmres>);
}

#if defined(__CUDACC__)
TEST_CASE("cuda: rodas5p on 4, 8 and 32 lanes against one thread, within the tolerance") {
    using one_thread = on_lanes<rodas5p, 1>;
    check_against_one_thread<float, rodas5p, one_thread>(1e-5);               // mapped to 4 lanes
    check_against_one_thread<float, on_lanes<rodas5p, 8>, one_thread>(1e-5);  // rows: 3, 3, 2
    check_against_one_thread<double, on_lanes<rodas5p, 32>, one_thread>(1e-8);
}

TEST_CASE("cuda: blocks of any whole number of tiles give the same bits") {
    // Blocks of 48 threads (12 tiles of 4; the second warp of each block half full) against
    // the block size the occupancy chooses: the same kernel, the same arithmetic.
    const batch_result<float> chosen = pollution_sweep<float, on_lanes<rodas5p, 4>>(1e-5);
    const batch_result<float> small = pollution_sweep<float, on_lanes<rodas5p, 4>>(1e-5, 48);
    REQUIRE(small.kernel.has_value());
    CHECK(small.kernel->block_size == 48);
    CHECK(std::memcmp(chosen.final_states.data(), small.final_states.data(),
                      chosen.final_states.size() * sizeof(float)) == 0);
    CHECK(chosen.accepted_steps == small.accepted_steps);
}

TEST_CASE("cuda: lanes asked for balanced scheduling go one trajectory per group of lanes") {
    const batch_result<float> chosen = pollution_sweep<float, on_lanes<rodas5p, 4>>(1e-5);
    const batch_result<float> asked =
        pollution_sweep<float, on_lanes<rodas5p, 4>>(1e-5, 0, scheduling::balanced);
    REQUIRE(asked.kernel.has_value());
    CHECK(asked.kernel->scheduling == "static");
    CHECK(asked.kernel->lanes_per_trajectory == 4);
    CHECK(std::memcmp(chosen.final_states.data(), asked.final_states.data(),
                      chosen.final_states.size() * sizeof(float)) == 0);
    CHECK(chosen.accepted_steps == asked.accepted_steps);
}

TEST_CASE("cuda: a block size that splits a trajectory's lanes is refused before any work") {
    const solver<pollution<float>, on_lanes<rodas5p, 32>, pi_controller> s;
    std::vector<float> y0(pollution<float>::n_states, 1.f), k1{0.35f};
    const auto settings = pollution_settings<float, pi_controller>(1e-5);
    batch_result<float> kept = s.solve({1, y0, k1}, settings, backends::cuda{});
    const std::vector<float> before(kept.final_states.begin(), kept.final_states.end());
    for (const int block_size : {48, -32, 2048}) {
        CAPTURE(block_size);
        CHECK_THROWS_WITH_AS(
            s.solve({1, y0, k1}, settings, kept, backends::cuda{.block_size = block_size}),
            doctest::Contains("backends::cuda::block_size"), std::invalid_argument);
        CHECK(std::equal(before.begin(), before.end(), kept.final_states.begin()));
    }
}
#endif
