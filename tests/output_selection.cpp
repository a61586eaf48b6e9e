// Which outputs a solve records: states chosen by name or index, observables beside them,
// step counters per save interval, the result's views and legends, and nothing at all
// when nothing is requested.

#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/energy_oscillator.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::energy_oscillator;
using cubie::testing::test_backend;

namespace {

const std::vector<double> lorenz_y0 = {1, 1, 1, 0, 0, 0, 0, 0, 0};
const std::vector<double> lorenz_rho = {10, 20, 28};

solve_settings<pi_controller> lorenz_settings() {
    solve_settings<pi_controller> s;
    s.t_end = 1;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-8};
    s.save_every = 0.1;
    return s;
}

using lorenz_saver = solver<catalogue::lorenz<double>, tsit5, pi_controller, save_state>;

}  // namespace

TEST_CASE("states are saved by name or by index, in the order given") {
    auto s = lorenz_settings();
    const auto all = lorenz_saver{}.solve({3, lorenz_y0, lorenz_rho}, s, test_backend{});
    CHECK(all.saved_variables == std::vector<std::string>{"x", "y", "z"});
    CHECK(all.state_names == std::vector<std::string>{"x", "y", "z"});

    s.saved_states = {"z", "x"};
    const auto by_name = lorenz_saver{}.solve({3, lorenz_y0, lorenz_rho}, s, test_backend{});
    s.saved_states = {2, 0};
    const auto by_index = lorenz_saver{}.solve({3, lorenz_y0, lorenz_rho}, s, test_backend{});
    for (const auto* r : {&by_name, &by_index}) {
        CHECK(r->saved_variables == std::vector<std::string>{"z", "x"});
        REQUIRE(r->saved.size() == 10 * 2 * 3);
        for (std::size_t k = 0; k < 10; ++k)
            for (std::size_t i = 0; i < 3; ++i) {
                CHECK(r->saved_value(k, 0, i) == all.saved_value(k, 2, i));
                CHECK(r->saved_value(k, 1, i) == all.saved_value(k, 0, i));
            }
    }

    // The views address the same values.
    const auto z = by_name.series("z");
    const auto traj = by_name.trajectory(1);
    REQUIRE(z.extent(0) == 10);
    REQUIRE(z.extent(1) == 3);
    REQUIRE(traj.extent(0) == 10);
    REQUIRE(traj.extent(1) == 2);
    for (std::size_t k = 0; k < 10; ++k) {
        CHECK(z(k, 2) == by_name.saved_value(k, 0, 2));
        CHECK(traj(k, 1) == by_name.saved_value(k, 1, 1));
    }
    CHECK_THROWS_WITH_AS(by_name.series("y"), "no saved variable called \"y\" in this result",
                         std::out_of_range);
    CHECK_THROWS_AS(by_name.trajectory(3), std::out_of_range);
}

TEST_CASE("a wrong selection is an error before any work") {
    auto s = lorenz_settings();
    const batch_inputs<double> in{3, lorenz_y0, lorenz_rho};
    s.saved_states = {"w"};
    CHECK_THROWS_WITH_AS(lorenz_saver{}.solve(in, s, test_backend{}),
                         "setting saved_states names \"w\", which is not one of: x, y, z",
                         std::invalid_argument);
    s.saved_states = {3};
    CHECK_THROWS_WITH_AS(lorenz_saver{}.solve(in, s, test_backend{}),
                         doctest::Contains("setting saved_states = 3 is invalid"),
                         std::invalid_argument);
    s.saved_states = {"x", "x"};
    CHECK_THROWS_WITH_AS(lorenz_saver{}.solve(in, s, test_backend{}),
                         doctest::Contains("selects the same variable twice"),
                         std::invalid_argument);
    s.saved_states = {0};
    s.save_every = 0;
    CHECK_THROWS_WITH_AS(
        (solver<catalogue::lorenz<double>, tsit5, pi_controller>{}.solve(in, s, test_backend{})),
        doctest::Contains("this solver saves no states"), std::invalid_argument);
}

TEST_CASE("observables are saved beside the states") {
    using saver =
        solver<energy_oscillator<double>, tsit5, pi_controller, save_state, save_observables>;
    solve_settings<pi_controller> s;
    s.t_end = 2;
    s.dt = 1e-3;
    s.atol = s.rtol = {1e-10};
    s.save_every = 0.25;
    s.save_initial = true;
    s.saved_states = {"x"};
    s.saved_observables = {"kinetic", "energy"};
    const std::vector<double> y0 = {1, 2, 0, 0}, omega = {1.5, 3};
    const auto r = saver{}.solve({2, y0, omega}, s, test_backend{});
    REQUIRE(r.failures() == 0);
    CHECK(r.saved_variables == std::vector<std::string>{"x", "kinetic", "energy"});
    REQUIRE(r.n_saves() == 9);
    for (std::size_t i = 0; i < 2; ++i) {
        const double w = omega[i], x0 = y0[i];
        for (std::size_t k = 0; k < r.n_saves(); ++k) {
            const double t = r.save_times[k];
            const double v = -x0 * w * std::sin(w * t);
            CHECK(r.saved_value(k, 0, i) == doctest::Approx(x0 * std::cos(w * t)).epsilon(1e-8));
            CHECK(r.saved_value(k, 1, i) == doctest::Approx(v * v / 2).epsilon(1e-7).scale(1));
            CHECK(r.saved_value(k, 2, i) == doctest::Approx(w * w * x0 * x0 / 2).epsilon(1e-8));
        }
    }
    const auto energy = r.series("energy");
    CHECK(energy(0, 1) == doctest::Approx(18));  // omega^2 x0^2 / 2 = 9 * 4 / 2
}

TEST_CASE("step counters per save interval add up to the totals") {
    SUBCASE("adaptive") {
        auto s = lorenz_settings();
        s.save_initial = true;
        const auto r =
            solver<catalogue::lorenz<double>, tsit5, pi_controller, save_state, save_counters>{}
                .solve({3, lorenz_y0, lorenz_rho}, s, test_backend{});
        CHECK(r.counter_names == std::vector<std::string>{"accepted_steps", "rejected_steps"});
        REQUIRE(r.n_saves() == 11);
        for (std::size_t i = 0; i < 3; ++i) {
            std::uint32_t accepted = 0, rejected = 0;
            CHECK(r.saved_counter(0, 0, i) == 0);  // nothing happens before t0
            for (std::size_t k = 0; k < r.n_saves(); ++k) {
                accepted += r.saved_counter(k, 0, i);
                rejected += r.saved_counter(k, 1, i);
                if (k > 0) CHECK(r.saved_counter(k, 0, i) > 0);
            }
            CHECK(accepted == r.accepted_steps[i]);
            CHECK(rejected == r.rejected_steps[i]);
        }
    }
    SUBCASE("fixed steps: save_every / dt steps per interval, counters only") {
        solve_settings<fixed_step> s;
        s.t_end = 1;
        s.dt = 1.0 / 128;
        s.save_every = 1.0 / 8;
        const auto r =
            solver<catalogue::lorenz<float>, classical_rk4, fixed_step, save_counters>{}.solve(
                {1, std::vector<float>{1, 0, 0}, std::vector<float>{28}}, s, test_backend{});
        CHECK(r.saved.empty());
        REQUIRE(r.n_saves() == 8);
        for (std::size_t k = 0; k < 8; ++k) {
            CHECK(r.saved_counter(k, 0, 0) == 16);
            CHECK(r.saved_counter(k, 1, 0) == 0);
        }
    }
}

TEST_CASE("a solve that records nothing compiles no recorder and allocates nothing") {
    using plain = solver<catalogue::lorenz<float>, classical_rk4, fixed_step>;
    static_assert(!output_layout<catalogue::lorenz<float>>::records);
    static_assert(output_layout<catalogue::lorenz<float>, save_counters>::records);
    solve_settings<fixed_step> s;
    s.dt = 1.0 / 64;
    // Final states (3 floats), a status byte and two step counters per trajectory.
    CHECK(plain{}.plan(s).result_bytes(1000) == 1000.0 * (3 * 4 + 1 + 2 * 4));
    const auto r = plain{}.solve(
        {2, std::vector<float>{1, 1, 0, 0, 0, 0}, std::vector<float>{28, 28}}, s, test_backend{});
    CHECK(r.saved.empty());
    CHECK(r.saved_counters.empty());
    CHECK(r.summaries.empty());
    CHECK(r.save_times.empty());
    CHECK(r.saved_variables.empty());
    CHECK(r.status_message(0) == std::string("success"));
}

TEST_CASE("outputs that cannot fit in host memory are refused before any work") {
    solve_settings<pi_controller> s = lorenz_settings();
    s.save_every = 1e-7;        // 10^7 saves x 3 states
    s.max_steps = 100'000'000;  // so that the saves are allowed as many output points
    const std::vector<double> y0(3 * 100000, 1.0), rho(100000, 28.0);
    CHECK_THROWS_WITH_AS(lorenz_saver{}.solve({100000, y0, rho}, s, test_backend{}),
                         doctest::Contains("MiB of host memory, more than the"),
                         std::invalid_argument);
}
