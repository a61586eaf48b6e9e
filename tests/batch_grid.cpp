// Batch inputs built from value lists: the order and count of a Cartesian product, column
// pairing with broadcast single values, the system's defaults, and the errors.

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/batch/batch_grid.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/failing_steps.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

TEST_CASE("combinatorial grids take every combination, the last variable fastest") {
    batch_grid<catalogue::lorenz<double>> grid;
    grid.set("x", {1}).set("y", {0}).set("z", {0, 10}).set("rho", {5, 6, 7});
    const auto b = grid.combinatorial();
    REQUIRE(b.n_trajectories == 6);
    CHECK(b.initial_states == std::vector<double>{1, 1, 1, 1, 1, 1,  // x
                                                  0, 0, 0, 0, 0, 0,  // y
                                                  0, 0, 0, 10, 10, 10});
    CHECK(b.parameters == std::vector<double>{5, 6, 7, 5, 6, 7});

    grid.set_state(0, {1, 2});
    const auto c = grid.combinatorial();
    REQUIRE(c.n_trajectories == 12);
    // x varies slowest: 1 for the first six trajectories, 2 for the rest.
    for (std::size_t i = 0; i < 12; ++i) {
        CHECK(c.initial_states[i] == (i < 6 ? 1 : 2));
        CHECK(c.initial_states[2 * 12 + i] == (i % 6 < 3 ? 0 : 10));
        CHECK(c.parameters[i] == 5 + double(i % 3));
    }
}

TEST_CASE("verbatim grids pair columns and broadcast single values") {
    batch_grid<catalogue::lorenz<float>> grid;
    grid.set("x", {1, 2, 3}).set("y", {0}).set("z", {0}).set("rho", {10, 20, 30});
    const auto b = grid.verbatim();
    REQUIRE(b.n_trajectories == 3);
    CHECK(b.initial_states == std::vector<float>{1, 2, 3, 0, 0, 0, 0, 0, 0});
    CHECK(b.parameters == std::vector<float>{10, 20, 30});

    grid.set("rho", {10, 20});
    CHECK_THROWS_WITH_AS(grid.verbatim(),
                         "batch grid: verbatim pairing needs lists of one length (or single "
                         "values): x has 3 values, rho has 2",
                         std::invalid_argument);
    CHECK(grid.combinatorial().n_trajectories == 6);  // a product needs no equal lengths
}

TEST_CASE("unset variables take the system's defaults, or are an error") {
    // The generated Lorenz has default_state (1, 0, 0) and default_parameters (28).
    batch_grid<catalogue::lorenz<double>> generated;
    generated.set("rho", {1, 2});
    const auto b = generated.combinatorial();
    REQUIRE(b.n_trajectories == 2);
    for (int s = 0; s < 3; ++s)
        for (std::size_t i = 0; i < 2; ++i)
            CHECK(b.initial_states[s * 2 + i] == catalogue::lorenz<double>::default_state[s]);

    // relaxation (support/failing_steps.hpp) is written by hand, without defaults.
    batch_grid<testing::relaxation<double>> without_defaults;
    without_defaults.set("p", {28});
    CHECK_THROWS_WITH_AS(without_defaults.combinatorial(),
                         "batch grid: y is not set and the system gives no default",
                         std::invalid_argument);
}

TEST_CASE("bad grid settings name what is wrong") {
    batch_grid<catalogue::lorenz<double>> grid;
    CHECK_THROWS_WITH_AS(grid.set("w", {1}),
                         "batch grid: no state or parameter is called \"w\"; the system has: x, "
                         "y, z, rho",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(grid.set("x", {}), "batch grid: x is given no values",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(grid.set_parameter(1, {1}),
                         "batch grid: parameter index 1 is not one of the system's 1",
                         std::invalid_argument);
    std::vector<double> many(1u << 20, 1.0);
    grid.set("x", many).set("y", many).set("z", many).set("rho", many);
    CHECK_THROWS_WITH_AS(grid.combinatorial(),
                         doctest::Contains("combinations are more than memory can address"),
                         std::invalid_argument);
}

TEST_CASE("a grid's batch solves like hand-built arrays") {
    batch_grid<catalogue::lorenz<double>> grid;
    grid.set("x", {1}).set("y", {0}).set("z", {0}).set("rho", {0, 14, 28});
    const auto batch = grid.verbatim();
    solve_settings<pi_controller> s;
    s.dt = 1e-3;
    const solver<catalogue::lorenz<double>, tsit5, pi_controller> lorenz_solver;
    const auto from_grid = lorenz_solver.solve(batch.inputs(), s, test_backend{});
    const std::vector<double> y0 = {1, 1, 1, 0, 0, 0, 0, 0, 0}, rho = {0, 14, 28};
    const auto by_hand = lorenz_solver.solve({3, y0, rho}, s, test_backend{});
    CHECK(from_grid.final_states == by_hand.final_states);
}
