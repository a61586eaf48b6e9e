// The save_state output: how many states are saved and when (exactly, also for intervals
// that do not divide evenly in float), their accuracy against a SciPy reference series
// (reference/make_lorenz_series_reference.py), and what failing trajectories leave.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/series_reference.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

template <class T>
using decay_saver = solver<catalogue::exponential_decay<T>, tsit5, pi_controller, save_state>;

template <class T>
batch_result<T> decay_series(double t0, double t_end, double save_every, bool initial,
                             bool final_point) {
    solve_settings<pi_controller> s;
    s.t0 = t0;
    s.t_end = t_end;
    s.dt = 1e-3;
    s.save_every = save_every;
    s.save_initial = initial;
    s.save_final = final_point;
    const std::vector<T> y0 = {1}, k = {1};
    return decay_saver<T>{}.solve({1, y0, k}, s, test_backend{});
}

/// Largest error of the saved Lorenz series (4 trajectories, t = 0.05 k) against SciPy.
template <class T, class Algorithm, class Controller>
double lorenz_series_error(const solve_settings<Controller>& s) {
    const auto ref = cubie::testing::read_series_reference("lorenz_series_reference.csv", 4 * 21);
    const std::vector<T> y0 = {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    const std::vector<T> rho = {0, 7, 14, 21};
    const auto r = solver<catalogue::lorenz<T>, Algorithm, Controller, save_state>{}.solve(
        {4, y0, rho}, s, test_backend{});
    REQUIRE(r.failures() == 0);
    REQUIRE(r.n_saves() == 21);
    double err = 0;
    for (std::size_t traj = 0; traj < 4; ++traj) {
        for (std::size_t k = 0; k < 21; ++k) {
            const std::size_t row = traj * 21 + k;
            CHECK(static_cast<double>(r.save_times[k]) == doctest::Approx(ref.t[row]));
            err = std::fmax(err, std::abs(r.saved_value(k, 0, traj) - ref.x[row]));
            err = std::fmax(err, std::abs(r.saved_value(k, 1, traj) - ref.y[row]));
            err = std::fmax(err, std::abs(r.saved_value(k, 2, traj) - ref.z[row]));
        }
    }
    return err;
}

template <class Controller>
solve_settings<Controller> series_settings(double dt) {
    solve_settings<Controller> s;
    s.dt = dt;
    s.save_every = 0.05;
    s.save_initial = true;
    return s;
}

}  // namespace

TEST_CASE("save counts and times are exact, also where float rounding would drift") {
    // 0.1 is not exact in float: ten additions of it miss 1.0; k * 0.1 does not.
    auto r = decay_series<float>(0, 1, 0.1, false, false);
    REQUIRE(r.n_saves() == 10);
    for (std::size_t k = 0; k < 10; ++k) CHECK(r.save_times[k] == float(k + 1) * 0.1f);
    CHECK(decay_series<float>(0, 1, 0.1, true, false).n_saves() == 11);
    CHECK(decay_series<float>(0, 1, 0.1, true, true).n_saves() == 11);  // 1.0 saved once

    // (0.7 - 0.1) / 0.2 = 2.9999999999999996 in double: still three saves. In float,
    // 0.1f + 3 * 0.2f rounds above 0.7f: the last save is still taken, at t_end.
    r = decay_series<float>(0.1, 0.7, 0.2, false, false);
    REQUIRE(r.n_saves() == 3);
    CHECK(r.save_times[2] == 0.7f);
    for (std::size_t k = 0; k < 3; ++k)
        CHECK(r.saved_value(k, 0, 0) ==
              doctest::Approx(std::exp(-(r.save_times[k] - 0.1))).epsilon(1e-4));
    CHECK(decay_series<double>(0.1, 0.7, 0.2, false, false).n_saves() == 3);

    const auto partial = decay_series<double>(0, 1, 0.3, false, true);
    REQUIRE(partial.n_saves() == 4);  // 0.3, 0.6, 0.9 and t_end
    CHECK(partial.save_times[3] == 1.0);
    CHECK(partial.saved_value(3, 0, 0) == partial.final_state(0, 0));
    CHECK(decay_series<double>(0, 1, 0.3, false, false).n_saves() == 3);
    CHECK(decay_series<double>(0, 1, 5, false, true).n_saves() == 1);
}

TEST_CASE("saved states match the SciPy series: adaptive and fixed steps") {
    auto tight = series_settings<pi_controller>(1e-3);
    tight.atol = tight.rtol = {1e-10};
    const double tsit5_error = lorenz_series_error<double, tsit5>(tight);
    MESSAGE("tsit5 at 1e-10: " << tsit5_error);
    CHECK(tsit5_error < 1e-7);

    const double rk4_error =
        lorenz_series_error<double, classical_rk4>(series_settings<fixed_step>(0.05 / 64));
    MESSAGE("classical_rk4, dt = 0.05 / 64: " << rk4_error);
    CHECK(rk4_error < 1e-8);

    auto loose = series_settings<pi_controller>(1.0 / 1024);
    loose.atol = loose.rtol = {1e-5};
    // Saves come from tsit5's interpolant and no longer shorten steps: the error is the
    // method's own at the steps it chooses, 24 x the tolerance here.
    const double float_error = lorenz_series_error<float, tsit5>(loose);
    MESSAGE("tsit5 in float at 1e-5: " << float_error);
    CHECK(float_error < 5e-4);
}

TEST_CASE("saving often leaves the adaptive solution's accuracy alone") {
    solve_settings<pi_controller> s;
    s.t_end = 2;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-8};
    s.save_every = 0.01;  // far shorter than the steps the controller wants
    const std::vector<double> y0 = {1}, k = {1};
    const auto r = decay_saver<double>{}.solve({1, y0, k}, s, test_backend{});
    REQUIRE(r.n_saves() == 200);
    for (std::size_t i = 0; i < r.n_saves(); ++i)
        CHECK(r.saved_value(i, 0, 0) == doctest::Approx(std::exp(-r.save_times[i])).epsilon(1e-7));
}

TEST_CASE("saves after a trajectory fails hold NaN; the other trajectories are whole") {
    solve_settings<pi_controller> s;
    s.dt = 1e-3;
    s.save_every = 0.25;
    s.save_initial = true;
    const std::vector<double> y0 = {1, std::nan("")}, k = {1, 1};
    const auto r = decay_saver<double>{}.solve({2, y0, k}, s, test_backend{});
    REQUIRE(r.n_saves() == 5);
    CHECK(r.statuses[1] == status::nonfinite_input);
    for (std::size_t i = 0; i < 5; ++i) {
        CHECK(std::isnan(r.saved_value(i, 0, 1)));
        CHECK(r.saved_value(i, 0, 0) == doctest::Approx(std::exp(-0.25 * i)).epsilon(1e-5));
    }
}
