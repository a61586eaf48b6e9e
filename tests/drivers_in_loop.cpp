// Drivers reach the right-hand side at every stage time, on both backends: x' = d(t) with
// d a spline through samples of sin integrates to 1 - cos(t), also past the samples when
// the spline wraps around (periodic forcing).

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/driver_integral.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

using integral_system = cubie::testing::driver_integral;

cubic_spline<double> sine_spline(double t_end, int intervals, const spline_options& options) {
    std::vector<double> t(intervals + 1), y(intervals + 1);
    for (int i = 0; i <= intervals; ++i) {
        t[i] = t_end * i / intervals;
        y[i] = std::sin(t[i]);
    }
    if (options.boundary == spline_boundary::periodic) y[intervals] = y[0];  // exact period
    return cubic_spline<double>(t, y, options);
}

double integrate_to(double t_end, const cubic_spline<double>& driver) {
    solve_settings<pi_controller> s;
    s.t_end = t_end;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-12};
    const std::vector<double> x0 = {0};
    const std::vector<cubic_spline<double>> drivers = {driver};
    const auto r = solver<integral_system, vern9, pi_controller>{}.solve({1, x0, {}, drivers}, s,
                                                                         test_backend{});
    REQUIRE(r.statuses[0] == status::success);
    return r.final_state(0, 0);
}

}  // namespace

TEST_CASE("a sampled driver integrates to the integral of the sampled function") {
    // Knots every 0.01: the spline is within 3e-11 of sin.
    const auto driver = sine_spline(10, 1000, {});
    CHECK(integrate_to(10, driver) == doctest::Approx(1 - std::cos(10.0)).epsilon(1e-9));
}

TEST_CASE("a wrapped periodic driver repeats past its last sample") {
    const double two_pi = 6.283185307179586;
    const auto driver = sine_spline(two_pi, 200, {spline_boundary::periodic, 0, 0, true});
    CHECK(integrate_to(20, driver) == doctest::Approx(1 - std::cos(20.0)).epsilon(1e-6));
}

TEST_CASE("the number of driver splines must match the system") {
    solve_settings<pi_controller> s;
    s.dt = 1e-3;
    const std::vector<double> x0 = {0};
    CHECK_THROWS_WITH_AS(
        (solver<integral_system, vern9, pi_controller>{}.solve({1, x0, {}}, s, test_backend{})),
        doctest::Contains("input drivers has 0 splines; the system has 1 drivers"),
        std::invalid_argument);
}
