// summary_windows as a state machine and a type: when each window's rows are written,
// what an unfinished run leaves, the row layout and legend, the metric and output names,
// and the work it shares (one accumulator per distinct kind, history only when needed).

#include <doctest/doctest.h>

#include <cuda/std/tuple>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cubie/outputs/output_layout.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/outputs/summary_windows.hpp"
#include "support/summary_run.hpp"

using namespace cubie;
using cubie::testing::run_windows;
using cubie::testing::sampled_series;

namespace {

/// x_k = k^2 (k = 0 .. 12): every window's mean is known, nothing is a peak.
sampled_series<double, 1> squares() {
    sampled_series<double, 1> series;
    for (int k = 0; k <= 12; ++k) series.push_back({double(k * k)});
    return series;
}

/// Number of windows whose first row has been written after the first `last` samples.
template <class Windows>
int windows_written(std::size_t last) {
    const auto out = run_windows<Windows>(squares(), 0.0, 1.0, 4, 3, last);
    int written = 0;
    for (std::size_t w = 0; w < 3; ++w) written += std::isnan(out(w, 0, 0)) ? 0 : 1;
    return written;
}

}  // namespace

TEST_CASE("a window is written once complete, one sample later with neighbour metrics") {
    using plain = summary_windows<double, 1, metrics::mean, metrics::extrema>;
    using with_neighbours = summary_windows<double, 1, metrics::mean, metrics::dxdt_max>;
    const std::vector<int> plain_expected = {0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3};
    const std::vector<int> neighbour_expected = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3};
    for (std::size_t last = 1; last <= 12; ++last) {
        CAPTURE(last);
        CHECK(windows_written<plain>(last) == plain_expected[last - 1]);
        CHECK(windows_written<with_neighbours>(last) == neighbour_expected[last - 1]);
    }

    // Window 1 (samples 5 .. 8), written at sample 9 with x_9 known: dx/dt at t_8 is
    // (81 - 49) / 2 = 16; its mean is (25 + 36 + 49 + 64) / 4.
    const auto out = run_windows<with_neighbours>(squares(), 0.0, 1.0, 4, 3, 9);
    CHECK(out(1, 0, 0) == 43.5);
    CHECK(out(1, 1, 0) == 16);
    CHECK(std::isnan(out(2, 0, 0)));  // never completed: left as the caller filled it
}

TEST_CASE("rows are metric-major, then output, then variable; the legend names them") {
    using windows = summary_windows<double, 2, metrics::mean, metrics::extrema, metrics::peaks<2>,
                                    metrics::dxdt_max>;
    static_assert(windows::outputs_per_variable == 6 && windows::rows == 12);
    CHECK(windows::legend({"x", "y"}) ==
          std::vector<std::string>{"x.mean", "y.mean", "x.max", "y.max", "x.min", "y.min",
                                   "x.peak0", "y.peak0", "x.peak1", "y.peak1", "x.dxdt_max",
                                   "y.dxdt_max"});
    CHECK_THROWS_AS(windows::legend({"x"}), std::invalid_argument);

    // y = 10 x, x_k = k, S = 1/2: each output of y sits one row after the same output of
    // x. Window 1 is samples 4 .. 6; dx/dt = 2 and 20.
    sampled_series<double, 2> series;
    for (int k = 0; k <= 6; ++k) series.push_back({double(k), 10.0 * k});
    const auto out = run_windows<windows>(series, 0.0, 0.5, 3, 2);
    const std::vector<double> window_1 = {5, 50, 6, 60, 4, 40, NAN, NAN, NAN, NAN, 2, 20};
    for (int row = 0; row < windows::rows; ++row) {
        CAPTURE(row);
        const double value = out(1, row, 0);
        CHECK((value == window_1[row] || (std::isnan(value) && std::isnan(window_1[row]))));
    }
}

TEST_CASE("metric names and output names") {
    CHECK(std::string(metrics::mean::name) == "mean");
    CHECK(std::string(metrics::std_dev::name) == "std");
    CHECK(std::string(metrics::rms::name) == "rms");
    CHECK(std::string(metrics::max::name) == "max");
    CHECK(std::string(metrics::min::name) == "min");
    CHECK(std::string(metrics::extrema::name) == "extrema");
    CHECK(std::string(metrics::max_magnitude::name) == "max_magnitude");
    CHECK(std::string(metrics::peaks<2>::name) == "peaks");
    CHECK(std::string(metrics::negative_peaks<2>::name) == "negative_peaks");
    CHECK(std::string(metrics::dxdt_max::name) == "dxdt_max");
    CHECK(std::string(metrics::dxdt_min::name) == "dxdt_min");
    CHECK(std::string(metrics::dxdt_extrema::name) == "dxdt_extrema");
    CHECK(std::string(metrics::d2xdt2_max::name) == "d2xdt2_max");
    CHECK(std::string(metrics::d2xdt2_min::name) == "d2xdt2_min");
    CHECK(std::string(metrics::d2xdt2_extrema::name) == "d2xdt2_extrema");
    CHECK(std::string(metrics::mean_std::name) == "mean_std");
    CHECK(std::string(metrics::std_rms::name) == "std_rms");
    CHECK(std::string(metrics::mean_std_rms::name) == "mean_std_rms");

    using windows =
        summary_windows<float, 1, metrics::mean_std_rms, metrics::extrema, metrics::dxdt_extrema,
                        metrics::d2xdt2_extrema, metrics::negative_peaks<12>>;
    std::vector<std::string> expected = {"t.mean",     "t.std",        "t.rms",
                                         "t.max",      "t.min",        "t.dxdt_max",
                                         "t.dxdt_min", "t.d2xdt2_max", "t.d2xdt2_min"};
    for (int i = 0; i < 12; ++i) expected.push_back("t.negative_peak" + std::to_string(i));
    CHECK(windows::legend({"t"}) == expected);
}

namespace {
using value_extrema = metrics::running_extrema<metrics::sampled_value>;

/// A user's metric whose output reuses the name "mean", read off another accumulator.
struct midpoint {
    static constexpr const char* name = "mean";
    template <class T>
    CUBIE_HD static T of(const value_extrema::state<T>& s) {
        return (s.max + s.min) / 2;
    }
};
struct midrange : metrics::accumulator_reads<value_extrema, midpoint> {
    static constexpr const char* name = "midrange";
};

template <int N, class... Metrics>
using windows_of = summary_windows<double, N, Metrics...>;

/// Bytes that one more variable adds to summary_windows<double, N, Metrics...>.
template <class... Metrics>
constexpr std::size_t bytes_per_variable = sizeof(windows_of<9, Metrics...>) -
                                           sizeof(windows_of<8, Metrics...>);
}  // namespace

TEST_CASE("an output name is rejected only where two accumulators could give it") {
    // max and extrema both write "max", read off one state: the same value twice.
    static_assert(cubie::detail::output_names_unambiguous<cuda::std::tuple<value_extrema>,
                                                          metrics::max, metrics::extrema>());
    static_assert(
        !cubie::detail::output_names_unambiguous<cuda::std::tuple<metrics::moments, value_extrema>,
                                                 metrics::mean, midrange>());
    static_assert(metrics::summary_metric<midrange>);
    CHECK(true);  // the checks above are compile-time
}

TEST_CASE("metrics that share an accumulator share its state") {
    static_assert(std::is_same_v<windows_of<1, metrics::max, metrics::min, metrics::extrema,
                                            metrics::max_magnitude>::accumulators,
                                 cuda::std::tuple<value_extrema>>);
    static_assert(
        std::is_same_v<windows_of<1, metrics::mean, metrics::std_dev, metrics::rms>::accumulators,
                       cuda::std::tuple<metrics::moments>>);
    static_assert(std::is_same_v<
                  windows_of<1, metrics::dxdt_max, metrics::max, metrics::dxdt_min>::accumulators,
                  cuda::std::tuple<metrics::running_extrema<metrics::central_first_derivative>,
                                   value_extrema>>);
    static_assert(windows_of<1, metrics::mean, metrics::std_dev, metrics::rms, metrics::extrema,
                             metrics::max_magnitude, metrics::peaks<3>, metrics::negative_peaks<3>,
                             metrics::dxdt_extrema, metrics::d2xdt2_extrema>::n_accumulators == 6);
    static_assert(sizeof(windows_of<3, metrics::max, metrics::min, metrics::max_magnitude>) ==
                  sizeof(windows_of<3, metrics::max>));
    static_assert(sizeof(windows_of<3, metrics::mean_std, metrics::rms>) ==
                  sizeof(windows_of<3, metrics::mean>));

    // Per variable: the running states, plus two samples of history only when some
    // accumulator needs neighbours.
    static_assert(!windows_of<1, metrics::mean, metrics::extrema>::needs_neighbours);
    static_assert(bytes_per_variable<metrics::max> == 2 * sizeof(double));
    static_assert(bytes_per_variable<metrics::mean, metrics::max> ==
                  sizeof(metrics::moments::state<double>) + 2 * sizeof(double));
    static_assert(windows_of<1, metrics::max, metrics::dxdt_max>::needs_neighbours);
    static_assert(bytes_per_variable<metrics::max, metrics::dxdt_max> ==
                  (2 + 2 + 2) * sizeof(double));
    static_assert(bytes_per_variable<metrics::peaks<3>> ==
                  sizeof(metrics::peak_times<3, metrics::peak_sign::positive>::state<double>) +
                      2 * sizeof(double));

    // Copied as plain bytes into kernels and registers.
    static_assert(std::is_trivially_copyable_v<
                  windows_of<4, metrics::mean_std_rms, metrics::extrema, metrics::peaks<2>,
                             metrics::dxdt_extrema, metrics::d2xdt2_max>>);
    static_assert(std::is_trivially_copyable_v<summary_windows<float, 2, metrics::mean>>);
    CHECK(true);  // the checks above are compile-time
}

TEST_CASE(
    "the mean alone is a compensated sum of pairs: within eps over 2^20 float samples, NaN past "
    "overflow") {
    // A plain float sum of 2^20 samples of 0.1 is off by 1%, of 25 + 8 sin by 1.5e-4;
    // Welford's mean of the latter by 4e-5.
    static_assert(
        std::is_same_v<detail::unshared_form<metrics::mean, metrics::mean, metrics::extrema>::type,
                       metrics::summed_mean>);
    static_assert(
        std::is_same_v<detail::unshared_form<metrics::mean, metrics::mean, metrics::std_dev>::type,
                       metrics::mean>);
    constexpr std::size_t n = std::size_t{1} << 20;
    sampled_series<float, 2> series(n + 1);
    double constant = 0, varying = 0;  // the means of the float samples, in double
    for (std::size_t k = 0; k <= n; ++k) {
        const double t = 50.0 * double(k) / double(n);
        series[k] = {0.1f, static_cast<float>(25 + 8 * std::sin(3.7 * t))};
        if (k == 0) continue;  // sample 0 is history only
        constant += double(series[k][0]) / double(n);
        varying += double(series[k][1]) / double(n);
    }
    const auto out = run_windows<summary_windows<float, 2, metrics::summed_mean>>(
        series, 0.0f, 1.0f, static_cast<std::uint32_t>(n), 1);
    const double eps = std::numeric_limits<float>::epsilon();
    CHECK(std::abs(out(0, 0, 0) - constant) <= 2 * eps * constant);
    CHECK(std::abs(out(0, 1, 0) - varying) <= 2 * eps * varying);

    // Samples that add up past the largest float: the sum overflows, the mean is NaN.
    for (auto& sample : series) sample = {1e33f, 1e30f};
    const auto large = run_windows<summary_windows<float, 2, metrics::summed_mean>>(
        series, 0.0f, 1.0f, static_cast<std::uint32_t>(n), 1);
    CHECK(std::isnan(large(0, 0, 0)));
    CHECK(large(0, 1, 0) == doctest::Approx(1e30f).epsilon(2 * eps));
}

namespace {

/// The windows of `series` (samples_per_window 7, one window per entry of `runs`) with
/// samples taken as a fixed-step loop takes them in runs: a window's first samples in runs
/// of the lengths given (six at most), pairs where a sample opens one (add_pair_within()),
/// the rest by add(). No runs: every sample by add().
template <class Windows>
testing::summary_output<float> windows_in_runs(
    const sampled_series<float, 2>& series, const std::vector<std::vector<std::uint32_t>>& runs) {
    const auto n_windows = static_cast<std::uint32_t>(runs.size());
    testing::summary_output<float> out{
        std::vector<float>(n_windows * Windows::rows, std::numeric_limits<float>::quiet_NaN()),
        Windows::rows, 1};
    Windows windows{};
    windows.start(
        series[0], 0.0f, 0.5f, 7, n_windows,
        batch_view<float>(out.values.data(), static_cast<int>(n_windows) * Windows::rows, 1), 0);
    std::size_t next = 1;
    for (const auto& window : runs) {
        for (const std::uint32_t length : window) {
            std::uint32_t j = 0;
            if (!windows.opens_pair(0)) {
                windows.add_within(series[next], 0);
                j = 1;
            }
            for (; j + 1 < length; j += 2)
                windows.add_pair_within(series[next + j], series[next + j + 1], j);
            if (j < length) windows.add_within(series[next + j], j);
            windows.end_run(length);
            next += length;
        }
        for (; next < series.size() && (next - 1) % 7 != 6; ++next) windows.add(series[next]);
        windows.add(series[next++]);
    }
    return out;
}

}  // namespace

TEST_CASE("samples taken in pairs, in runs, give the bits of samples taken one by one") {
    // Runs of every parity: a run's first sample odd or even in its window, a run of one,
    // a pair left open at a run's end and closed by the next run ({5, 1}) or by add() ({3}).
    sampled_series<float, 2> series(29);
    for (std::size_t k = 0; k < series.size(); ++k)
        series[k] = {0.1f * float(k) + 1e-3f * float(k * k), 1e4f * std::sin(float(k))};
    const std::vector<std::vector<std::uint32_t>> none = {{}, {}, {}, {}},
                                                  runs = {{1, 3, 2}, {2, 4}, {5, 1}, {3}};
    const auto same = [](const auto& a, const auto& b) {
        return std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(float)) == 0;
    };
    using summed = summary_windows<float, 2, metrics::summed_mean, metrics::extrema>;
    using moments = summary_windows<float, 2, metrics::mean, metrics::std_dev>;
    const auto summed_one_by_one = windows_in_runs<summed>(series, none);
    CHECK(same(windows_in_runs<summed>(series, runs), summed_one_by_one));
    CHECK(same(windows_in_runs<moments>(series, runs), windows_in_runs<moments>(series, none)));
    // The windows hold the means, within 2 eps of the mean magnitude (the pairs round by
    // eps / 2 of their sums; the second variable's samples largely cancel).
    const double eps = std::numeric_limits<float>::epsilon();
    for (int v = 0; v < 2; ++v)
        for (std::size_t w = 0; w < 4; ++w) {
            double mean = 0, magnitude = 0;
            for (std::size_t k = 7 * w + 1; k <= 7 * w + 7; ++k) {
                mean += series[k][v] / 7.0;
                magnitude += std::abs(series[k][v]) / 7.0;
            }
            CAPTURE(v);
            CAPTURE(w);
            CHECK(std::abs(summed_one_by_one(w, v, 0) - mean) <= 2 * eps * magnitude);
        }
}
