// Events (cubie/events): crossings located, recorded and acted on, against analytic
// solutions. A ball bouncing with restitution (bounce times, speeds and the heights of its
// apexes), a leaky integrate-and-fire neuron (spike times), a dose given where a
// concentration falls (an affect on the parameters), a vector condition, crossings exactly
// at t0 and t_end, termination that leaves every other trajectory bit for bit as it was,
// the capacity of the records, and the settings. The methods are in events_methods.cpp.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/harmonic_oscillator.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/event_systems.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

using ball = testing::falling_ball<double>;

using testing::event_settings;

/// Dropped from 1 (and, for a second trajectory, 2) with restitution 0.8 over [0, 3]:
/// six bounces for the first. (Their bounces accumulate at 4.1 and 5.7.)
struct dropped_balls {
    std::vector<double> y0 = {1.0, 2.0, 0.0, 0.0};
    std::vector<double> p = {0.8, 0.8, -1.0, -1.0};
    batch_inputs<double> inputs() const { return {2, y0, p}; }
};

}  // namespace

TEST_CASE("a bouncing ball: its bounces and apexes where the analytic solution has them") {
    const dropped_balls balls;
    const auto r = solver<ball, tsit5, pi_controller, events<ball::ground, ball::apex>>{}.solve(
        balls.inputs(), event_settings(3, 1e-12, 0.05), test_backend{});
    CHECK(r.event_names == std::vector<std::string>{"ground", "apex"});
    REQUIRE(r.n_event_records() == 16);
    CHECK(r.event_record_names[9] == "apex.1");
    for (std::size_t i = 0; i < 2; ++i) {
        const testing::bounce_analytic exact{balls.y0[i], 0.8};
        INFO("dropped from " << exact.h0);
        CHECK(r.statuses[i] == status::success);
        int bounces = 0;
        while (exact.time(bounces) < 3) ++bounces;
        REQUIRE(r.event_count("ground", i) == std::uint32_t(bounces));
        for (int k = 0; k < bounces; ++k) {
            CHECK(std::abs(r.event_time("ground", k, i) - exact.time(k)) < 1e-10);
            CHECK(std::abs(r.event_state("ground", k, 0, i)) < 1e-10);  // on the ground
            CHECK(std::abs(r.event_state("ground", k, 1, i) + exact.speed(k)) < 1e-10);
        }
        // The ball starts at rest: its first apex is t0 itself (v leaves 0 downwards).
        CHECK(r.event_time("apex", 0, i) == 0.0);
        CHECK(r.event_state("apex", 0, 0, i) == exact.h0);
        int apexes = 1;
        while (exact.apex_time(apexes - 1) < 3) ++apexes;
        REQUIRE(r.event_count("apex", i) == std::uint32_t(apexes));
        for (int k = 1; k < apexes; ++k) {
            CHECK(std::abs(r.event_time("apex", k, i) - exact.apex_time(k - 1)) < 1e-10);
            CHECK(std::abs(r.event_state("apex", k, 0, i) - exact.apex_height(k - 1)) < 1e-10);
        }
        // Records a trajectory did not fill are NaN.
        CHECK(std::isnan(r.event_time("ground", 7, i)));
        CHECK(std::isnan(r.event_state("ground", 7, 1, i)));
    }
    // The views: [occurrence][trajectory].
    CHECK(r.event_times_of("ground")(2, 1) == r.event_time("ground", 2, 1));
    CHECK(r.event_states_of("apex", "y0")(3, 0) == r.event_state("apex", 3, 0, 0));
    CHECK_THROWS_AS(r.event_count("roof", 0), std::out_of_range);
    CHECK_THROWS_AS(r.event_time("ground", 8, 0), std::out_of_range);
}

TEST_CASE("a batch in chunks keeps the same event records, and cancelled ones are marked") {
    constexpr std::size_t n = 10;
    std::vector<double> y0(2 * n, 0.0), p(2 * n, -1.0);
    for (std::size_t i = 0; i < n; ++i) {
        y0[i] = 1 + 0.2 * double(i);
        p[i] = 0.8 + 0.01 * double(i);
    }
    using bouncing = solver<ball, tsit5, pi_controller, events<ball::ground, ball::apex>>;
    const auto s = event_settings(3, 1e-10, 0.05);
    const auto whole = bouncing{}.solve({n, y0, p}, s, test_backend{});
    // Chunks of 2: five, one more than the cuda backend has in flight at once, so that the
    // last is never started when the solve is cancelled after the first.
    solve_control chunks;
    chunks.chunk_trajectories = 2;
    const auto chunked = bouncing{}.solve({n, y0, p}, s, test_backend{}, chunks);
    CHECK(chunked.event_counts == whole.event_counts);
    REQUIRE(chunked.event_times.size() == whole.event_times.size());
    for (std::size_t k = 0; k < whole.event_times.size(); ++k)
        CHECK((chunked.event_times[k] == whole.event_times[k] ||
               (std::isnan(chunked.event_times[k]) && std::isnan(whole.event_times[k]))));
    for (std::size_t k = 0; k < whole.event_states.size(); ++k)
        CHECK((chunked.event_states[k] == whole.event_states[k] ||
               (std::isnan(chunked.event_states[k]) && std::isnan(whole.event_states[k]))));

    solve_control first_only = chunks;
    first_only.progress = [](const solve_progress&) { return false; };  // after the first chunk
    const auto cancelled = bouncing{}.solve({n, y0, p}, s, test_backend{}, first_only);
    CHECK(cancelled.statuses[n - 1] == status::cancelled);
    CHECK(cancelled.event_count("ground", n - 1) == 0);
    CHECK(std::isnan(cancelled.event_time("ground", 0, n - 1)));
    CHECK(cancelled.event_count("ground", 0) == whole.event_count("ground", 0));
}

TEST_CASE("a bounce is one crossing also for an event that watches both directions") {
    const dropped_balls balls;
    const auto r = solver<ball, tsit5, pi_controller, events<ball::ground_either>>{}.solve(
        balls.inputs(), event_settings(3, 1e-12, 0.05), test_backend{});
    const testing::bounce_analytic exact{1.0, 0.8};
    REQUIRE(r.event_count("ground", 0) == 6);
    for (int k = 0; k < 6; ++k)
        CHECK(std::abs(r.event_time("ground", k, 0) - exact.time(k)) < 1e-10);
}

TEST_CASE("a bouncing ball in float") {
    using ball_f = testing::falling_ball<float>;
    const std::vector<float> y0 = {1.0f, 0.0f}, p = {0.8f, -1.0f};
    const auto r = solver<ball_f, tsit5, pi_controller, events<ball_f::ground>>{}.solve(
        {1, y0, p}, event_settings(3, 1e-6, 0.05), test_backend{});
    const testing::bounce_analytic exact{1.0, 0.8};
    REQUIRE(r.event_count("ground", 0) == 6);
    for (int k = 0; k < 6; ++k) {
        CHECK(std::abs(r.event_time("ground", k, 0) - exact.time(k)) < 2e-5);
        CHECK(std::abs(r.event_state("ground", k, 1, 0) + exact.speed(k)) < 2e-4);
    }
}

TEST_CASE("a leaky integrate-and-fire neuron spikes at its analytic times") {
    using neuron = testing::leaky_neuron<double>;
    const std::vector<double> v0 = {0, 0, 0, 0}, drive = {1.5, 2, 3, 0.5};
    const auto r = solver<neuron, tsit5, pi_controller, events<neuron::spike>>{}.solve(
        {4, v0, drive}, event_settings(0.1, 1e-12, 0.01), test_backend{});
    for (std::size_t i = 0; i < 4; ++i) {
        INFO("drive " << drive[i]);
        CHECK(r.statuses[i] == status::success);
        if (drive[i] <= 1) {  // never reaches the threshold
            CHECK(r.event_count("spike", i) == 0);
            continue;
        }
        const double period = neuron::period(drive[i]);
        const auto spikes = static_cast<std::uint32_t>(std::floor(0.1 / period));
        REQUIRE(r.event_count("spike", i) == spikes);
        for (std::uint32_t k = 0; k < std::min(spikes, 16u); ++k) {
            CHECK(std::abs(r.event_time("spike", k, i) - (k + 1) * period) < 1e-10);
            CHECK(std::abs(r.event_state("spike", k, 0, i) - 1) < 1e-10);  // before the reset
        }
        // The state after the last reset, analytic from there.
        const double since = 0.1 - spikes * period;
        CHECK(std::abs(r.final_state(0, i) - drive[i] * (1 - std::exp(-since / neuron::tau))) <
              1e-9);
    }
}

TEST_CASE("more occurrences than the capacity: all counted, the first kept") {
    using neuron = testing::leaky_neuron<double>;
    const std::vector<double> v0 = {0}, drive = {5};
    const auto r = solver<neuron, tsit5, pi_controller, events<neuron::spike>>{}.solve(
        {1, v0, drive}, event_settings(0.2, 1e-10, 0.01), test_backend{});
    const double period = neuron::period(5);
    const auto spikes = static_cast<std::uint32_t>(std::floor(0.2 / period));
    REQUIRE(spikes > 16);
    CHECK(r.event_count("spike", 0) == spikes);
    REQUIRE(r.event_times.size() == 16);
    CHECK(std::abs(r.event_time("spike", 15, 0) - 16 * period) < 1e-8);
}

TEST_CASE("an affect changes the trajectory's parameters: a dose where it falls to 1/2") {
    using decay = testing::dosed_decay<double>;
    const std::vector<double> c0 = {1}, p = {2, 1};  // k = 2, dose 1
    const auto r = solver<decay, tsit5, pi_controller, events<decay::dose>>{}.solve(
        {1, c0, p}, event_settings(1, 1e-12, 0.05), test_backend{});
    // From 1 at rate 2 to 1/2; then from 3/2 at rate 4, 8, ... to 1/2 again.
    double t = std::log(2.0) / 2, k = 4;
    REQUIRE(r.event_count("dose", 0) >= 3);
    for (std::size_t j = 0; j < 3; ++j, k *= 2) {
        CHECK(std::abs(r.event_time("dose", j, 0) - t) < 1e-10);
        t += std::log(3.0) / k;
    }
}

TEST_CASE("a vector condition: each of its conditions an event of its own") {
    using oscillator = catalogue::harmonic_oscillator<double>;
    using bands = testing::oscillator_bands<oscillator>;
    const std::vector<double> y0 = {1, 0}, omega = {1};
    const auto r = solver<oscillator, tsit5, pi_controller, events<bands>>{}.solve(
        {1, y0, omega}, event_settings(2 * std::numbers::pi, 1e-12, 0.1), test_backend{});
    CHECK(r.event_names == std::vector<std::string>{"band[0]", "band[1]"});
    REQUIRE(r.event_count("band[0]", 0) == 2);  // x = cos t at +1/2: pi/3, 5 pi/3
    REQUIRE(r.event_count("band[1]", 0) == 2);  // at -1/2: 2 pi/3, 4 pi/3
    const double pi = std::numbers::pi;
    CHECK(std::abs(r.event_time("band[0]", 0, 0) - pi / 3) < 1e-10);
    CHECK(std::abs(r.event_time("band[0]", 1, 0) - 5 * pi / 3) < 1e-10);
    CHECK(std::abs(r.event_time("band[1]", 0, 0) - 2 * pi / 3) < 1e-10);
    CHECK(std::abs(r.event_time("band[1]", 1, 0) - 4 * pi / 3) < 1e-10);
}

TEST_CASE("crossings exactly at t0 and exactly at t_end") {
    using clock = testing::clock<double>;
    using at_t0 = clock::alarm<event_action::record>;
    using at_end = clock::alarm<event_action::terminate>;
    const std::vector<double> x0 = {2, 2}, when = {0.5, 1.5};  // t0 = 0.5, t_end = 1.5
    SUBCASE("adaptive") {
        auto s = event_settings(1.5, 1e-10, 0.3);
        s.t0 = 0.5;
        const auto r0 = solver<clock, tsit5, pi_controller, events<at_t0>>{}.solve({2, x0, when}, s,
                                                                                   test_backend{});
        CHECK(r0.event_count("alarm", 0) == 1);
        CHECK(r0.event_time("alarm", 0, 0) == 0.5);
        CHECK(r0.event_state("alarm", 0, 0, 0) == 2.0);
        CHECK(r0.statuses[0] == status::success);
        CHECK(r0.event_count("alarm", 1) == 1);  // t_end itself, recorded
        CHECK(r0.event_time("alarm", 0, 1) == 1.5);
        const auto r1 = solver<clock, tsit5, pi_controller, events<at_end>>{}.solve(
            {2, x0, when}, s, test_backend{});
        CHECK(r1.statuses[1] == status::terminated_by_event);
        CHECK(r1.event_time("alarm", 0, 1) == 1.5);
        CHECK(std::abs(r1.final_state(0, 1) - 3) < 1e-12);
        CHECK(r1.failures() == 0);
        CHECK(r1.statuses[0] == status::terminated_by_event);  // at t0
        CHECK(r1.final_state(0, 0) == 2.0);
    }
    SUBCASE("fixed steps") {
        solve_settings<fixed_step> s;
        s.t0 = 0.5;
        s.t_end = 1.5;
        s.dt = 1.0 / 64;
        const auto r = solver<clock, classical_rk4, fixed_step, events<at_end>>{}.solve(
            {2, x0, when}, s, test_backend{});
        CHECK(r.statuses[0] == status::terminated_by_event);
        CHECK(r.event_time("alarm", 0, 0) == 0.5);
        CHECK(r.accepted_steps[0] == 1);  // the first step, shortened to nothing
        CHECK(r.statuses[1] == status::terminated_by_event);
        CHECK(r.event_time("alarm", 0, 1) == 1.5);
        CHECK(r.accepted_steps[1] == 64);
    }
}

TEST_CASE("a terminated trajectory leaves every other one bit for bit as it was") {
    constexpr std::size_t n = 8;
    std::vector<double> y0(2 * n, 0.0), p(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
        y0[i] = 1 + 0.1 * double(i);
        p[i] = 0.8 + 0.0125 * double(i);  // restitution: bounces accumulate after t = 4
        p[n + i] = -1;                    // never below -1
    }
    using with_stop = solver<ball, tsit5, pi_controller, save_state,
                             events<ball::ground, ball::below, ball::apex>>;
    auto s = event_settings(3, 1e-10, 0.05);
    s.save_every = 0.25;
    const auto reference = with_stop{}.solve({n, y0, p}, s, test_backend{});
    CHECK(reference.failures() == 0);
    std::vector<double> stopping = p;
    stopping[n + 3] = 0.5;  // trajectory 3 ends where it first falls through 0.5
    const auto r = with_stop{}.solve({n, y0, stopping}, s, test_backend{});

    CHECK(r.statuses[3] == status::terminated_by_event);
    CHECK(std::string(r.status_message(3)) == "terminated_by_event");
    CHECK(r.failures() == 0);
    const double t_stop = std::sqrt(2 * (y0[3] - 0.5) / 9.81);
    CHECK(std::abs(r.event_time("below", 0, 3) - t_stop) < 1e-12);
    CHECK(std::abs(r.final_state(0, 3) - 0.5) < 1e-12);
    CHECK(std::abs(r.final_state(1, 3) + 9.81 * t_stop) < 1e-12);
    CHECK(r.event_count("ground", 3) == 0);
    // Saves after the end (t = 0.40) are NaN; those before it are the reference's.
    CHECK(r.saved_value(0, 0, 3) == reference.saved_value(0, 0, 3));
    CHECK(std::isnan(r.saved_value(1, 0, 3)));
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 3) continue;
        CHECK(r.statuses[i] == status::success);
        CHECK(r.accepted_steps[i] == reference.accepted_steps[i]);
        CHECK(r.rejected_steps[i] == reference.rejected_steps[i]);
        for (int v = 0; v < 2; ++v) CHECK(r.final_state(v, i) == reference.final_state(v, i));
    }
    for (std::size_t k = 0; k < r.saved.size(); ++k)
        if (k % n != 3) CHECK(r.saved[k] == reference.saved[k]);
    for (std::size_t k = 0; k < r.event_times.size(); ++k)
        if (k % n != 3)
            CHECK((r.event_times[k] == reference.event_times[k] ||
                   (std::isnan(r.event_times[k]) && std::isnan(reference.event_times[k]))));
}

TEST_CASE("event settings are validated") {
    const dropped_balls balls;
    auto s = event_settings(3, 1e-10, 0.05);
    s.event_time_tolerance = -1;
    CHECK_THROWS_WITH_AS(
        (solver<ball, tsit5, pi_controller, events<ball::ground>>{}.solve(balls.inputs(), s)),
        doctest::Contains("event_time_tolerance"), std::invalid_argument);
    s.event_time_tolerance = 1e-3;
    CHECK_THROWS_WITH_AS((solver<ball, tsit5, pi_controller>{}.solve(balls.inputs(), s)),
                         doctest::Contains("has no events"), std::invalid_argument);
    // A coarse tolerance: crossings within it.
    const auto r = solver<ball, tsit5, pi_controller, events<ball::ground>>{}.solve(
        balls.inputs(), s, test_backend{});
    const testing::bounce_analytic exact{1.0, 0.8};
    REQUIRE(r.event_count("ground", 0) == 6);
    for (int k = 0; k < 6; ++k)
        CHECK(std::abs(r.event_time("ground", k, 0) - exact.time(k)) < 2e-3);
    // The plan names what the result will hold.
    const auto plan =
        solver<ball, tsit5, pi_controller, events<ball::ground, ball::apex>>{}.plan(s);
    CHECK(plan.event_names.size() == 2);
    CHECK(plan.event_record_names.size() == 16);
    CHECK(plan.result_bytes(1) == doctest::Approx(2 * 8 + 1 + 4 * 4 + 16 * 8 * 3));
}
