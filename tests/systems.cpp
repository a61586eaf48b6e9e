// Small catalogue systems: right-hand sides at a point (values worked by hand)
// and solutions against analytic or published values.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/catalogue/harmonic_oscillator.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

static_assert(ode_system<catalogue::lorenz<float>>);
static_assert(ode_system<catalogue::exponential_decay<double>>);
static_assert(ode_system<catalogue::harmonic_oscillator<double>>);
static_assert(ode_system<catalogue::van_der_pol<float>>);

TEST_CASE("right-hand sides at a point") {
    state_t<catalogue::lorenz<double>> l;
    catalogue::lorenz<double>{}.rhs(0, {1, 2, 3}, {28}, {}, l);
    CHECK(l[0] == 10.0);                                       // 10 (2 - 1)
    CHECK(l[1] == 23.0);                                       // 1 (28 - 3) - 2
    CHECK(l[2] == doctest::Approx(2.0 - 8.0).epsilon(1e-15));  // 1 * 2 - (8/3) 3

    state_t<catalogue::van_der_pol<double>> v;
    catalogue::van_der_pol<double>{}.rhs(0, {2, 3}, {0.5}, {}, v);
    CHECK(v[0] == 3.0);
    CHECK(v[1] == -6.5);  // 0.5 (1 - 4) 3 - 2

    state_t<catalogue::harmonic_oscillator<double>> h;
    catalogue::harmonic_oscillator<double>{}.rhs(0, {2, 3}, {1.5}, {}, h);
    CHECK(h[0] == 3.0);
    CHECK(h[1] == -4.5);  // -(1.5^2) 2

    state_t<catalogue::exponential_decay<double>> e;
    catalogue::exponential_decay<double>{}.rhs(0, {2}, {0.25}, {}, e);
    CHECK(e[0] == -0.5);
}

namespace {

template <class System>
batch_result<double> solve_tight(const std::vector<double>& y0, const std::vector<double>& p,
                                 double t_end) {
    solve_settings<pi_controller> s;
    s.t_end = t_end;
    s.dt = 1e-3;
    s.atol = {1e-12};
    s.rtol = {1e-12};
    return solver<System, vern9, pi_controller>{}.solve({p.size(), y0, p}, s, test_backend{});
}

}  // namespace

TEST_CASE("exponential decay and the oscillator follow their closed forms") {
    const auto d = solve_tight<catalogue::exponential_decay<double>>({1, 2}, {0.5, 3}, 2);
    CHECK(d.final_state(0, 0) == doctest::Approx(std::exp(-1.0)).epsilon(1e-10));
    CHECK(d.final_state(0, 1) == doctest::Approx(2 * std::exp(-6.0)).epsilon(1e-10));

    const auto h = solve_tight<catalogue::harmonic_oscillator<double>>({1, 0}, {2}, 3);
    CHECK(h.final_state(0, 0) == doctest::Approx(std::cos(6.0)).epsilon(1e-10));
    CHECK(h.final_state(1, 0) == doctest::Approx(-2 * std::sin(6.0)).epsilon(1e-10));
}

TEST_CASE("van der Pol: mu = 0 is the oscillator, mu = 1 closes its limit cycle") {
    // Published limit cycle of mu = 1: amplitude 2.00861986087484 (at v = 0) and period
    // 6.66328685932313. Starting at the amplitude point, one period returns to it.
    const double amplitude = 2.00861986087484;
    const double period = 6.66328685932313;
    const auto r =
        solve_tight<catalogue::van_der_pol<double>>({2, amplitude, 0, 0}, {0, 1}, period);
    CHECK(r.final_state(0, 0) == doctest::Approx(2 * std::cos(period)).epsilon(1e-10));
    CHECK(r.final_state(0, 1) == doctest::Approx(amplitude).epsilon(1e-9));
    CHECK(std::abs(r.final_state(1, 1)) < 1e-8);
}
