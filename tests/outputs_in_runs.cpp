// Outputs of fixed steps taken in runs (output_recorder::next_run()): a trajectory that
// overflows inside a run of samples or of saves keeps what it recorded before, against the
// exact decay and a solve that records nothing; and outputs taken in runs are the bits of the
// same outputs taken one by one (saved counters keep a solve off save runs, a metric that
// needs neighbours off sample runs), samples in pairs included.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/catalogue/harmonic_oscillator.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/core/unrecorded_nan.hpp"
#include "cubie/outputs/output_recorder.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

/// Bitwise equality: NaNs of different bits differ.
bool same_bits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

namespace {

/// y' = -k y by RK4 steps of 0.1 over [0, 50]: y_j = R^j with R = 1 + z + z^2/2 + z^3/6 +
/// z^4/24, z = -0.1 k. For k = -50, R = 65.375: the sum of step 169's stages, about
/// 6 (R - 1) / dt y_168 = e^710.5, overflows double, so 168 steps are taken; k = 1 decays.
struct overflowing_decay {
    std::vector<double> y0 = {1, 1}, k = {-50, 1};
    batch_inputs<double> inputs{2, y0, k};
    static constexpr int last_finite_step = 168;

    static solve_settings<fixed_step> settings() {
        solve_settings<fixed_step> s;
        s.dt = 0.1;
        s.t_end = 50;
        return s;
    }
    double amplification(std::size_t trajectory) const {
        const double z = -0.1 * k[trajectory];
        return 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24;
    }
    /// r's statuses, steps and final states are those of a solve that records nothing.
    template <class Result>
    void check_ends_as_unrecorded(const Result& r) const {
        const auto alone =
            solver<catalogue::exponential_decay<double>, classical_rk4, fixed_step>{}.solve(
                inputs, settings(), test_backend{});
        CHECK(r.statuses[0] == status::nonfinite_state);
        CHECK(r.statuses[1] == status::success);
        CHECK(r.accepted_steps[0] == std::uint32_t{last_finite_step});
        CHECK(std::isfinite(r.final_state(0, 0)));
        for (std::size_t i = 0; i < 2; ++i) {
            INFO("trajectory " << i);
            CHECK(r.statuses[i] == alone.statuses[i]);
            CHECK(r.accepted_steps[i] == alone.accepted_steps[i]);
            CHECK(r.final_state(0, i) == alone.final_state(0, i));
        }
    }
};

}  // namespace

TEST_CASE("a trajectory that overflows inside a run of samples keeps the windows before it") {
    // One sample per step in windows of 64: the overflow falls in window 2.
    const overflowing_decay decay;
    auto s = decay.settings();
    s.sample_summaries_every = 0.1;
    s.summarise_every = 6.4;
    const auto r = solver<catalogue::exponential_decay<double>, classical_rk4, fixed_step,
                          summaries<metrics::mean, metrics::max>>{}
                       .solve(decay.inputs, s, test_backend{});
    REQUIRE(r.n_windows() == 7);
    decay.check_ends_as_unrecorded(r);
    for (std::size_t i = 0; i < 2; ++i) {
        const double amplification = decay.amplification(i);
        for (int window = 0; window < 7; ++window) {
            INFO("trajectory " << i << " window " << window);
            if (i == 0 && window >= 2) {
                CHECK(std::isnan(r.summary("y.mean")(window, i)));
                CHECK(std::isnan(r.summary("y.max")(window, i)));
                continue;
            }
            double sum = 0, largest = -INFINITY;
            for (int j = 64 * window + 1; j <= 64 * (window + 1); ++j) {
                sum += std::pow(amplification, j);
                largest = std::max(largest, std::pow(amplification, j));
            }
            CHECK(r.summary("y.mean")(window, i) == doctest::Approx(sum / 64).epsilon(1e-10));
            CHECK(r.summary("y.max")(window, i) == doctest::Approx(largest).epsilon(1e-10));
        }
    }
}

TEST_CASE("a trajectory that overflows inside a run of saves keeps the saves before it") {
    // Saved every 10 steps: save j, at step 10 (j + 1), holds R^(10 (j + 1)) up to the last
    // finite step; the saves after it hold the NaN of what is never recorded, the same bits
    // as where the result was marked.
    const overflowing_decay decay;
    auto s = decay.settings();
    s.save_every = 1;
    const auto r =
        solver<catalogue::exponential_decay<double>, classical_rk4, fixed_step, save_state>{}.solve(
            decay.inputs, s, test_backend{});
    REQUIRE(r.n_saves() == 50);
    decay.check_ends_as_unrecorded(r);
    for (std::size_t i = 0; i < 2; ++i) {
        for (std::size_t save = 0; save < 50; ++save) {
            INFO("trajectory " << i << " save " << save);
            const int step = 10 * static_cast<int>(save + 1);
            if (i == 0 && step > overflowing_decay::last_finite_step)
                CHECK(same_bits(r.saved_value(save, 0, i), unrecorded_nan<double>()));
            else
                CHECK(r.saved_value(save, 0, i) ==
                      doctest::Approx(std::pow(decay.amplification(i), step)).epsilon(1e-10));
        }
    }
}

namespace {

/// The oscillator by fixed steps of 0.1 over [0, 50.05] (the last step shorter), omega 1,
/// 80 and 3: at omega dt = 8 RK4 multiplies the state by about 160 a step, and trajectory 1
/// overflows in step 140 or so (Tsit5 as well, at about the same rate).
struct oscillator_runs {
    std::vector<double> y0 = {1, 0.5, -1, 0, 2, 0.25}, omega = {1, 80, 3};
    batch_inputs<double> inputs{3, y0, omega};

    static solve_settings<fixed_step> settings() {
        solve_settings<fixed_step> s;
        s.dt = 0.1;
        s.t_end = 50.05;
        return s;
    }
};

template <class Result>
void check_same_ends(const Result& runs, const Result& one_by_one) {
    for (std::size_t i = 0; i < runs.statuses.size(); ++i) {
        INFO("trajectory " << i);
        CHECK(runs.statuses[i] == one_by_one.statuses[i]);
        CHECK(runs.accepted_steps[i] == one_by_one.accepted_steps[i]);
        for (int v = 0; v < 2; ++v)
            CHECK(same_bits(runs.final_state(v, i), one_by_one.final_state(v, i)));
    }
}

/// The recorder of a fixed-step solve of the oscillator with these outputs: whether it takes
/// saves or samples in runs.
template <class... Outputs>
using oscillator_recorder =
    output_recorder<output_schedule::by_step, catalogue::harmonic_oscillator<double>, Outputs...>;

/// Saves taken in runs against the same saves one by one (saved counters keep a solve off
/// runs), bit for bit, with the states selected by `saved`, saved every `save_every` (0.7:
/// 7 steps, an odd step before each pair of steps; 1: 10 steps, pairs only).
template <class Method>
void check_saves_in_runs(const variable_selection& saved, double save_every) {
    static_assert(oscillator_recorder<save_state>::saves_in_runs &&
                  !oscillator_recorder<save_state, save_counters>::saves_in_runs);
    const oscillator_runs batch;
    auto s = batch.settings();
    s.save_every = save_every;
    s.save_initial = s.save_final = true;
    s.saved_states = saved;
    using system = catalogue::harmonic_oscillator<double>;
    const auto runs =
        solver<system, Method, fixed_step, save_state>{}.solve(batch.inputs, s, test_backend{});
    const auto one_by_one = solver<system, Method, fixed_step, save_state, save_counters>{}.solve(
        batch.inputs, s, test_backend{});
    CHECK(runs.statuses[1] == status::nonfinite_state);
    check_same_ends(runs, one_by_one);
    REQUIRE(runs.saved.size() == one_by_one.saved.size());
    CHECK(std::memcmp(runs.saved.data(), one_by_one.saved.data(),
                      runs.saved.size() * sizeof(double)) == 0);
}

/// Summary samples taken in runs against the same samples one by one (a metric that needs
/// neighbours keeps a solve off runs): the windows the latter wrote, bit for bit. Samples
/// `sample_every` apart (0.1: every step, taken in pairs), saves every `save_every` (0:
/// none), which split the runs of samples so that some begin at an even sample of a window.
template <class Method, class... Metrics>
void check_samples_in_runs(double sample_every, double save_every,
                           std::initializer_list<const char*> rows) {
    static_assert(oscillator_recorder<summaries<Metrics...>>::samples_in_runs &&
                  oscillator_recorder<save_state, summaries<Metrics...>>::samples_in_runs &&
                  !oscillator_recorder<summaries<Metrics..., metrics::peaks<1>>>::samples_in_runs);
    const oscillator_runs batch;
    auto s = batch.settings();
    s.sample_summaries_every = sample_every;
    s.summarise_every = 1.6;
    using system = catalogue::harmonic_oscillator<double>;
    const auto compare = [&](const auto& runs, const auto& one_by_one) {
        check_same_ends(runs, one_by_one);
        int compared = 0;
        for (const char* row : rows)
            for (std::size_t w = 0; w < runs.n_windows(); ++w)
                for (std::size_t i = 0; i < 3; ++i) {
                    const double expected = one_by_one.summary(row)(w, i);
                    if (std::isnan(expected)) continue;  // written one sample later there
                    ++compared;
                    CHECK(same_bits(runs.summary(row)(w, i), expected));
                }
        CHECK(compared > int(rows.size()) * 31 * 2);  // every window of two, and more
    };
    if (save_every == 0) {
        compare(
            solver<system, Method, fixed_step, summaries<Metrics...>>{}.solve(batch.inputs, s,
                                                                              test_backend{}),
            solver<system, Method, fixed_step, summaries<Metrics..., metrics::peaks<1>>>{}.solve(
                batch.inputs, s, test_backend{}));
    } else {
        s.save_every = save_every;
        compare(solver<system, Method, fixed_step, save_state, summaries<Metrics...>>{}.solve(
                    batch.inputs, s, test_backend{}),
                solver<system, Method, fixed_step, save_state,
                       summaries<Metrics..., metrics::peaks<1>>>{}
                    .solve(batch.inputs, s, test_backend{}));
    }
}

}  // namespace

TEST_CASE("outputs taken in runs are the bits of the same outputs taken one by one") {
    SUBCASE("saves, classical_rk4, every state") {
        check_saves_in_runs<classical_rk4>({}, 0.7);
    }
    SUBCASE("saves every 10 steps, classical_rk4, every state") {
        check_saves_in_runs<classical_rk4>({}, 1.0);
    }
    SUBCASE("saves, tsit5 (FSAL), v alone") {
        check_saves_in_runs<tsit5>({"v"}, 0.7);
    }
    SUBCASE("saves, classical_rk4, v before x") {
        check_saves_in_runs<classical_rk4>({"v", "x"}, 0.7);
    }
    const std::initializer_list<const char*> summed = {"x.mean", "x.max", "x.min",
                                                       "v.mean", "v.max", "v.min"},
                                             welford = {"x.mean", "x.std", "x.max",
                                                        "v.mean", "v.std", "v.min"};
    SUBCASE("samples, classical_rk4, the mean alone (a sum)") {
        check_samples_in_runs<classical_rk4, metrics::mean, metrics::extrema>(0.2, 0, summed);
    }
    SUBCASE("samples every step (in pairs), classical_rk4, the mean alone") {
        check_samples_in_runs<classical_rk4, metrics::mean, metrics::extrema>(0.1, 0, summed);
    }
    SUBCASE("samples every step, split by saves every 5 steps, the mean alone") {
        check_samples_in_runs<classical_rk4, metrics::mean, metrics::extrema>(0.1, 0.5, summed);
    }
    SUBCASE("samples, tsit5 (FSAL), mean and std (Welford's 1 / n per sample)") {
        check_samples_in_runs<tsit5, metrics::mean, metrics::std_dev, metrics::extrema>(0.2, 0,
                                                                                        welford);
    }
    SUBCASE("samples every step, split by saves every 7 steps, tsit5, mean and std") {
        check_samples_in_runs<tsit5, metrics::mean, metrics::std_dev, metrics::extrema>(0.1, 0.7,
                                                                                        welford);
    }
}
