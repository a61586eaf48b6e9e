// Non-stiff catalogue systems through the batch solver: generated Lorenz gives the very
// trajectories of the hand-written one, and van der Pol closes its published limit cycle.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/batch/solver.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/controllers/digital_filter_controller.hpp"
#include "cubie/systems/lorenz.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

TEST_CASE("generated and hand-written Lorenz integrate to identical states") {
    const std::size_t n = 16;
    std::vector<float> y0(3 * n, 0.0f), rho(n);
    for (std::size_t i = 0; i < n; ++i) {
        y0[i] = 1.0f;
        rho[i] = 28.0f * float(i) / float(n - 1);
    }
    solve_settings<pi_controller> s;
    s.t_end = 2;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-6};
    const auto hand = solver<systems::lorenz<float>, tsit5, pi_controller>{}.solve({n, y0, rho}, s,
                                                                                   test_backend{});
    const auto generated = solver<catalogue::lorenz<float>, tsit5, pi_controller>{}.solve(
        {n, y0, rho}, s, test_backend{});
    CHECK(generated.final_states == hand.final_states);
    CHECK(generated.accepted_steps == hand.accepted_steps);
}

TEST_CASE("generated van der Pol closes the mu = 1 limit cycle") {
    const double amplitude = 2.00861986087484, period = 6.66328685932313;
    solve_settings<pi_controller> s;
    s.t_end = period;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-12};
    const std::vector<double> y0{amplitude, 0}, mu{1};
    const auto r = solver<catalogue::van_der_pol<double>, vern9, pi_controller>{}.solve(
        {1, y0, mu}, s, test_backend{});
    REQUIRE(r.statuses[0] == status::success);
    CHECK(r.final_state(0, 0) == doctest::Approx(amplitude).epsilon(1e-9));
    CHECK(std::abs(r.final_state(1, 0)) < 1e-8);
}
