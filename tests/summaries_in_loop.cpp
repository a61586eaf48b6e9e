// Summaries computed while integrating: an oscillator whose solution is known,
// x = x0 cos(w t), sampled every 1/64 over windows of 1, against the same metrics
// computed directly from the exact solution at the sample times. Observables are
// summarised beside the states; windows and their end times are exact also for awkward
// intervals in float; failed trajectories leave NaN. With fixed steps, summaries whose
// metrics see each sample alone are taken in runs between saves and window ends, checked
// against the exact solution (outputs_in_runs.cpp checks runs against the same outputs
// taken one by one).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/catalogue/harmonic_oscillator.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "support/energy_oscillator.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::energy_oscillator;
using cubie::testing::test_backend;

namespace {

using oscillator_metrics =
    summaries<metrics::mean, metrics::extrema, metrics::peaks<3>, metrics::dxdt_extrema>;
constexpr double sample_every = 1.0 / 64;
constexpr int samples_per_window = 64;
constexpr int n_windows = 4;

/// The metrics of one variable over window w, from exact values v(t) at the sample times.
struct expected_window {
    double mean = 0, max = -INFINITY, min = INFINITY, dxdt_max = -INFINITY, dxdt_min = INFINITY;
    std::vector<double> peaks;
};

template <class F>
expected_window expected_metrics(F value, int w) {
    expected_window e;
    for (int j = w * samples_per_window + 1; j <= (w + 1) * samples_per_window; ++j) {
        const double t = j * sample_every, x = value(t);
        e.mean += x / samples_per_window;
        e.max = std::max(e.max, x);
        e.min = std::min(e.min, x);
        if (j == n_windows * samples_per_window) continue;  // no successor: no neighbours
        const double before = value(t - sample_every), after = value(t + sample_every);
        const double slope = (after - before) / (2 * sample_every);
        e.dxdt_max = std::max(e.dxdt_max, slope);
        e.dxdt_min = std::min(e.dxdt_min, slope);
        if (before < x && x > after && e.peaks.size() < 3) e.peaks.push_back(t);
    }
    return e;
}

template <class T, class Algorithm, class Controller>
void check_oscillator_summaries(const solve_settings<Controller>& base, double tolerance) {
    const std::vector<T> y0 = {1, 2, 0, 0}, omega = {5, 9};
    auto s = base;
    s.t_end = n_windows;
    s.summarise_every = 1;
    s.sample_summaries_every = sample_every;
    const auto r = solver<energy_oscillator<T>, Algorithm, Controller, oscillator_metrics>{}.solve(
        {2, y0, omega}, s, test_backend{});
    REQUIRE(r.failures() == 0);
    REQUIRE(r.n_windows() == n_windows);
    for (int w = 0; w < n_windows; ++w) CHECK(r.window_ends[w] == T(w + 1));

    for (std::size_t i = 0; i < 2; ++i) {
        const double a = y0[i], wo = omega[i];
        const auto x = [&](double t) { return a * std::cos(wo * t); };
        const auto v = [&](double t) { return -a * wo * std::sin(wo * t); };
        const auto energy = [&](double) { return wo * wo * a * a / 2; };
        const auto kinetic = [&](double t) { return v(t) * v(t) / 2; };
        // Peaks of a constant (energy) are rounding noise, and float rounding may swap
        // near-equal neighbours: peak times are compared for x and v in double.
        const auto check = [&](const std::string& name, auto value, double scale, bool peaks) {
            for (int w = 0; w < n_windows; ++w) {
                INFO(name << " trajectory " << i << " window " << w);
                const expected_window e = expected_metrics(value, w);
                const auto at = [&](const std::string& output) {
                    return static_cast<double>(r.summary(name + "." + output)(w, i));
                };
                CHECK(std::abs(at("mean") - e.mean) <= tolerance * scale);
                CHECK(std::abs(at("max") - e.max) <= tolerance * scale);
                CHECK(std::abs(at("min") - e.min) <= tolerance * scale);
                CHECK(std::abs(at("dxdt_max") - e.dxdt_max) <= tolerance * scale * wo);
                CHECK(std::abs(at("dxdt_min") - e.dxdt_min) <= tolerance * scale * wo);
                for (std::size_t p = 0; peaks && p < 3; ++p) {
                    const double got = at("peak" + std::to_string(p));
                    if (p < e.peaks.size())
                        CHECK(got == doctest::Approx(e.peaks[p]).epsilon(1e-12));
                    else
                        CHECK(std::isnan(got));
                }
            }
        };
        constexpr bool in_double = sizeof(T) == 8;
        check("x", x, a, in_double);
        check("v", v, a * wo, in_double);
        check("energy", energy, wo * wo * a * a, false);
        check("kinetic", kinetic, wo * wo * a * a, in_double);
    }
}

}  // namespace

TEST_CASE("summaries of an oscillator match the metrics of its exact solution") {
    SUBCASE("tsit5, interpolated samples") {
        solve_settings<pi_controller> s;
        s.dt = 1e-3;
        s.atol = s.rtol = {1e-11};
        check_oscillator_summaries<double, tsit5>(s, 1e-8);
    }
    SUBCASE("classical_rk4, samples at whole steps") {
        solve_settings<fixed_step> s;
        s.dt = sample_every / 8;
        check_oscillator_summaries<double, classical_rk4>(s, 1e-6);
    }
    SUBCASE("float") {
        solve_settings<pi_controller> s;
        s.dt = 1e-3;
        s.atol = s.rtol = {1e-6};
        check_oscillator_summaries<float, tsit5>(s, 1e-4);
    }
}

TEST_CASE("summary legends name variable and output; the plan sizes the result") {
    using summarised = solver<energy_oscillator<double>, tsit5, pi_controller, oscillator_metrics>;
    solve_settings<pi_controller> s;
    s.t_end = 1;
    s.dt = 1e-3;
    s.summarise_every = 0.5;
    s.sample_summaries_every = 0.125;
    const auto plan = summarised{}.plan(s);
    // mean, max, min, 3 peaks, dxdt max and min: 8 outputs for each of x, v, energy, kinetic.
    REQUIRE(plan.summary_legend.size() == 32);
    CHECK(plan.summary_legend[0] == "x.mean");
    CHECK(plan.summary_legend[3] == "kinetic.mean");
    CHECK(plan.summary_legend[4] == "x.max");
    CHECK(plan.summary_legend[8] == "x.min");
    CHECK(plan.summary_legend[12] == "x.peak0");
    CHECK(plan.summary_legend[31] == "kinetic.dxdt_min");
    CHECK(plan.window_ends == std::vector<double>{0.5, 1.0});
    CHECK(plan.result_bytes(10) == 10.0 * ((2 + 2 * 32) * 8 + 1 + 2 * 4));
}

TEST_CASE("window counts are exact for intervals that do not divide evenly in float") {
    using decay_summaries =
        solver<catalogue::exponential_decay<float>, tsit5, pi_controller, summaries<metrics::mean>>;
    solve_settings<pi_controller> s;
    s.t_end = 1;
    s.dt = 1e-3;
    s.summarise_every = 0.1;  // ten windows; ten additions of 0.1f miss 1.0f
    s.sample_summaries_every = 0.01;
    const auto r = decay_summaries{}.solve({1, std::vector<float>{1}, std::vector<float>{1}}, s,
                                           test_backend{});
    REQUIRE(r.n_windows() == 10);
    for (int w = 0; w < 10; ++w) {
        CHECK(r.window_ends[w] == std::fmin(float(10 * (w + 1)) * 0.01f, 1.0f));
        // Mean of exp(-t) over the window's ten samples.
        double mean = 0;
        for (int j = 1; j <= 10; ++j) mean += std::exp(-(0.1 * w + 0.01 * j)) / 10;
        CHECK(r.summary("y.mean")(w, 0) == doctest::Approx(mean).epsilon(1e-5));
    }
    s.summarise_every = 0.35;  // two whole windows in [0, 1]; the rest is not summarised
    s.sample_summaries_every = 0.05;
    CHECK(decay_summaries{}.plan(s).window_ends.size() == 2);
}

TEST_CASE("summary settings are validated before any work") {
    using decay_summaries = solver<catalogue::exponential_decay<double>, tsit5, pi_controller,
                                   summaries<metrics::mean>>;
    const std::vector<double> one = {1};
    const batch_inputs<double> in{1, one, one};
    solve_settings<pi_controller> s;
    s.dt = 1e-3;
    CHECK_THROWS_WITH_AS(decay_summaries{}.solve(in, s, test_backend{}),
                         "setting summarise_every = 0 is invalid: must be positive and finite when "
                         "summaries are kept",
                         std::invalid_argument);
    s.summarise_every = 0.25;
    s.sample_summaries_every = 0.1;
    CHECK_THROWS_WITH_AS(decay_summaries{}.solve(in, s, test_backend{}),
                         doctest::Contains("is not a whole number of samples"),
                         std::invalid_argument);
    s.summarise_every = 2;
    s.sample_summaries_every = 0.5;
    CHECK_THROWS_WITH_AS(decay_summaries{}.solve(in, s, test_backend{}),
                         doctest::Contains("no window would be complete"), std::invalid_argument);
    solve_settings<fixed_step> fixed;
    fixed.dt = 0.1;
    fixed.summarise_every = 0.5;
    fixed.sample_summaries_every = 0.25;
    CHECK_THROWS_WITH_AS(
        (solver<catalogue::exponential_decay<double>, classical_rk4, fixed_step,
                summaries<metrics::mean>>{}
             .solve(in, fixed, test_backend{})),
        doctest::Contains(
            "sample_summaries_every = 0.25 is invalid: is not a whole number of fixed "
            "steps"),
        std::invalid_argument);
    s.summarise_every = 0.5;
    CHECK_THROWS_WITH_AS(
        (solver<catalogue::exponential_decay<double>, tsit5, pi_controller>{}.solve(
            in, s, test_backend{})),
        doctest::Contains("this solver keeps no summaries"), std::invalid_argument);
}

TEST_CASE("a failed trajectory leaves NaN summaries and the others whole") {
    solve_settings<pi_controller> s;
    s.dt = 1e-3;
    s.t_end = 2;
    s.summarise_every = 1;
    s.sample_summaries_every = 0.25;
    const std::vector<double> y0 = {1, std::nan("")}, k = {1, 1};
    const auto r = solver<catalogue::exponential_decay<double>, tsit5, pi_controller,
                          summaries<metrics::mean, metrics::max>>{}
                       .solve({2, y0, k}, s, test_backend{});
    CHECK(r.statuses[1] == status::nonfinite_input);
    for (int w = 0; w < 2; ++w) {
        CHECK(std::isnan(r.summary("y.mean")(w, 1)));
        CHECK(std::isnan(r.summary("y.max")(w, 1)));
        CHECK(r.summary("y.max")(w, 0) == doctest::Approx(std::exp(-w - 0.25)).epsilon(1e-6));
    }
}

namespace {

/// Fixed RK4 steps of 1/256 over [0, 4]; samples every 2 steps in windows of 32, saves every
/// 7 steps, which meet every 14 steps: runs of samples end at saves and window ends.
template <class Summaries>
void check_runs_between_saves(bool with_std) {
    solve_settings<fixed_step> s;
    s.dt = 1.0 / 256;
    s.t_end = 4;
    s.sample_summaries_every = 2.0 / 256;
    s.summarise_every = 0.25;
    s.save_every = 7.0 / 256;
    const std::vector<double> y0 = {1, 0, 0.5, 1}, omega = {3, 5};
    const auto r = solver<catalogue::harmonic_oscillator<double>, classical_rk4, fixed_step,
                          save_state, Summaries>{}
                       .solve({2, y0, omega}, s, test_backend{});
    REQUIRE(r.failures() == 0);
    REQUIRE(r.n_windows() == 16);
    for (std::size_t i = 0; i < 2; ++i) {
        const double x0 = y0[i], v0 = y0[2 + i], w = omega[i];  // [state][trajectory]
        const auto x = [&](double t) { return x0 * std::cos(w * t) + v0 / w * std::sin(w * t); };
        // RK4's global error, about t w (w dt)^4 / 120 of the amplitude: 2.4e-8 for w = 5
        // at t = 4. A window off by one sample is off by about 1e-2.
        const double tolerance = 1e-7 * std::hypot(x0, v0 / w);
        for (std::size_t save = 0; save < r.n_saves(); ++save)
            CHECK(std::abs(r.saved_value(save, 0, i) - x(r.save_times[save])) <= tolerance);
        for (int window = 0; window < 16; ++window) {
            INFO("trajectory " << i << " window " << window);
            double sum = 0, largest = -INFINITY, smallest = INFINITY;
            std::vector<double> values;
            for (int j = 32 * window + 1; j <= 32 * (window + 1); ++j) {
                const double value = x(j * 2.0 / 256);
                values.push_back(value);
                sum += value;
                largest = std::max(largest, value);
                smallest = std::min(smallest, value);
            }
            const double mean = sum / 32;
            CHECK(std::abs(r.summary("x.mean")(window, i) - mean) <= tolerance);
            CHECK(std::abs(r.summary("x.max")(window, i) - largest) <= tolerance);
            CHECK(std::abs(r.summary("x.min")(window, i) - smallest) <= tolerance);
            if (with_std) {
                double squares = 0;
                for (const double value : values) squares += (value - mean) * (value - mean);
                CHECK(std::abs(r.summary("x.std")(window, i) - std::sqrt(squares / 32)) <=
                      tolerance);
            }
        }
    }
}

}  // namespace

TEST_CASE("fixed-step summaries taken in runs between saves match the exact solution") {
    SUBCASE("the mean alone, from a running sum") {
        check_runs_between_saves<summaries<metrics::mean, metrics::extrema>>(false);
    }
    SUBCASE("mean and std, from the moments") {
        check_runs_between_saves<summaries<metrics::mean, metrics::std_dev, metrics::extrema>>(
            true);
    }
}
