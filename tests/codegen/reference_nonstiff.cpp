// Non-stiff catalogue systems through the batch solver: generated Lorenz gives the very
// trajectories of its equations written out by hand, and van der Pol closes its published
// limit cycle.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

/// Lorenz's equations as written, the oracle of the generated header.
template <class T>
struct lorenz_by_hand {
    using value_type = T;
    static constexpr int n_states = 3;
    static constexpr int n_parameters = 1;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;

    CUBIE_HD void rhs(T, const state_t<lorenz_by_hand>& y, const parameters_t<lorenz_by_hand>& p,
                      const drivers_t<lorenz_by_hand>&, state_t<lorenz_by_hand>& dydt) const {
        dydt[0] = T(10) * (y[1] - y[0]);
        dydt[1] = y[0] * (p[0] - y[2]) - y[1];
        dydt[2] = y[0] * y[1] - T(8.0 / 3.0) * y[2];
    }
};

}  // namespace

TEST_CASE("generated Lorenz and its equations by hand integrate to identical states") {
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
    const auto hand = solver<lorenz_by_hand<float>, tsit5, pi_controller>{}.solve({n, y0, rho}, s,
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
