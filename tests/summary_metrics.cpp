// Summary metrics against direct computations: every metric, fed through summary_windows,
// matches NumPy on a sampled Duffing oscillator and an analytic signal
// (reference/make_summary_reference.py), in float and double, on the host and (nvcc
// builds with a device) in a kernel; and the edge cases: constant signals, NaN samples,
// one sample per window.

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/outputs/summary_windows.hpp"
#include "support/summary_run.hpp"

#if defined(__CUDACC__)
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#endif

using namespace cubie;
using cubie::testing::run_windows;
using cubie::testing::sampled_series;
using cubie::testing::summary_output;

namespace {

// The reference's sampling (make_summary_reference.py).
constexpr double t0 = 0.5;
constexpr double interval = 0.05;
constexpr std::uint32_t samples_per_window = 50;
constexpr std::uint32_t n_windows = 8;
const std::vector<std::string> variables = {"x", "v", "s"};

struct summary_reference {
    sampled_series<double, 3> series;
    std::map<std::string, std::vector<double>> windows;  ///< row name -> value per window
    vector<double, 3> scale;                             ///< max |value| of each variable
};

std::vector<std::vector<std::string>> read_csv(const std::string& file) {
    std::ifstream in(std::string(CUBIE_TEST_DATA_DIR) + "/" + file);
    REQUIRE(in.good());
    std::vector<std::vector<std::string>> rows;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::vector<std::string> cells;
        for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

const summary_reference& reference() {
    static const summary_reference ref = [] {
        summary_reference r{};
        for (const auto& row : read_csv("summary_series.csv")) {
            // The reference's times are t0 + k S, rounded as the library rounds them.
            REQUIRE(std::stod(row[1]) == t0 + std::stod(row[0]) * interval);
            vector<double, 3> x{};
            for (int v = 0; v < 3; ++v) {
                x[v] = std::stod(row[2 + v]);
                r.scale[v] = std::fmax(r.scale[v], std::abs(x[v]));
            }
            r.series.push_back(x);
        }
        REQUIRE(r.series.size() == n_windows * samples_per_window + 1);
        for (const auto& row : read_csv("summary_windows.csv")) {
            auto& values = r.windows[row[1]];
            values.resize(n_windows, std::numeric_limits<double>::quiet_NaN());
            values.at(std::stoul(row[0])) = std::stod(row[2]);
        }
        return r;
    }();
    return ref;
}

template <class T>
sampled_series<T, 3> reference_series() {
    sampled_series<T, 3> series;
    for (const auto& x : reference().series) series.push_back({T(x[0]), T(x[1]), T(x[2])});
    return series;
}

bool starts_with(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

/// Compares every row of every window of `trajectory` with the reference. Bounds, with
/// eps the machine epsilon of T and scale the largest |x| of the variable:
///   mean, std, rms      m eps scale           (a sum over the m samples of a window)
///   max, min, max |x|   exact                 (no arithmetic: the largest sample is one)
///   peak times          exact: t0 + j S in T (within one rounding where the device
///                       fuses the multiply-add, fused_times)
///   dx/dt, d2x/dt2      4 eps (scale / S + |value|) and 8 eps (scale / S^2 + |value|):
///                       the rounding of the samples, amplified by the difference quotient
template <class Windows, class T>
void check_against_reference(const summary_output<T>& out, std::size_t trajectory,
                             bool fused_times = false) {
    const summary_reference& ref = reference();
    const auto legend = Windows::legend(variables);
    const double eps = std::numeric_limits<T>::epsilon();
    int checked = 0;
    for (std::size_t w = 0; w < n_windows; ++w) {
        for (int row = 0; row < Windows::rows; ++row) {
            const std::string& name = legend[row];
            const std::string output = name.substr(name.find('.') + 1);
            const double scale = ref.scale[row % 3];
            const double expected = ref.windows.at(name).at(w);
            const T actual = out(w, row, trajectory);
            CAPTURE(name);
            CAPTURE(w);
            CAPTURE(expected);
            CAPTURE(actual);
            if (output == "mean" || output == "std" || output == "rms") {
                CHECK(std::abs(actual - expected) <= samples_per_window * eps * scale);
            } else if (output == "max" || output == "min" || output == "max_magnitude") {
                CHECK(actual == T(expected));
            } else if (starts_with(output, "peak") || starts_with(output, "negative_peak")) {
                if (std::isnan(expected)) {
                    CHECK(std::isnan(actual));
                } else {
                    const long j = std::lround((expected - t0) / interval);
                    const T time = T(t0) + T(j) * T(interval);
                    if (fused_times)
                        CHECK(std::abs(actual - time) <= eps * std::abs(time));
                    else
                        CHECK(actual == time);
                }
            } else if (starts_with(output, "dxdt_")) {
                CHECK(std::abs(actual - expected) <=
                      4 * eps * (scale / interval + std::abs(expected)));
            } else {
                REQUIRE(starts_with(output, "d2xdt2_"));
                CHECK(std::abs(actual - expected) <=
                      8 * eps * (scale / (interval * interval) + std::abs(expected)));
            }
            ++checked;
        }
    }
    CHECK(checked == static_cast<int>(n_windows) * Windows::rows);
}

template <class T>
using every_output =
    summary_windows<T, 3, metrics::mean, metrics::std_dev, metrics::rms, metrics::extrema,
                    metrics::max_magnitude, metrics::peaks<3>, metrics::negative_peaks<3>,
                    metrics::dxdt_extrema, metrics::d2xdt2_extrema>;
template <class T>
using single_outputs =
    summary_windows<T, 3, metrics::mean_std_rms, metrics::max, metrics::min, metrics::dxdt_max,
                    metrics::dxdt_min, metrics::d2xdt2_max, metrics::d2xdt2_min, metrics::peaks<1>,
                    metrics::negative_peaks<2>>;
template <class T>
using mean_std_and_rms = summary_windows<T, 3, metrics::mean_std, metrics::rms>;
template <class T>
using std_rms_and_mean = summary_windows<T, 3, metrics::std_rms, metrics::mean>;

/// A metric of every accumulator kind, each output once.
template <class T, int N>
using one_of_each_kind =
    summary_windows<T, N, metrics::mean_std_rms, metrics::extrema, metrics::max_magnitude,
                    metrics::peaks<3>, metrics::negative_peaks<3>, metrics::dxdt_extrema,
                    metrics::d2xdt2_extrema>;

template <class Windows, class T>
void check_reference_run() {
    const auto out = run_windows<Windows>(reference_series<T>(), T(t0), T(interval),
                                          samples_per_window, n_windows, 0, 3, 1);
    check_against_reference<Windows>(out, 1);
    for (std::size_t w = 0; w < n_windows; ++w)  // other trajectories' rows untouched
        for (int row = 0; row < Windows::rows; ++row)
            CHECK((std::isnan(out(w, row, 0)) && std::isnan(out(w, row, 2))));
}

int count_nan(const std::vector<double>& values) {
    int n = 0;
    for (double v : values) n += std::isnan(v) ? 1 : 0;
    return n;
}

}  // namespace

TEST_CASE("the reference covers windows with and without peaks, and more peaks than asked") {
    const auto& w = reference().windows;
    CHECK(w.size() == 3 * 16);
    CHECK(count_nan(w.at("x.peak0")) > 0);               // no peak in some windows
    CHECK(count_nan(w.at("x.peak0")) < int(n_windows));  // one in others
    CHECK(count_nan(w.at("s.peak2")) == 0);              // three or more in all
    CHECK(count_nan(w.at("x.negative_peak0")) < int(n_windows));
}

TEST_CASE_TEMPLATE("every metric matches NumPy on the reference series", T, float, double) {
    SUBCASE("mean, std, rms, extrema, max_magnitude, peaks, derivative extrema") {
        check_reference_run<every_output<T>, T>();
    }
    SUBCASE("mean_std_rms, max, min, derivative max and min one by one, fewer peaks") {
        check_reference_run<single_outputs<T>, T>();
    }
    SUBCASE("mean_std with rms, std_rms with mean") {
        check_reference_run<mean_std_and_rms<T>, T>();
        check_reference_run<std_rms_and_mean<T>, T>();
    }
}

TEST_CASE_TEMPLATE("constant signals: std exactly 0, no peaks, zero derivatives", T, float,
                   double) {
    using windows = one_of_each_kind<T, 2>;
    const vector<T, 2> c = {T(0.1), T(-12345.678)};
    const sampled_series<T, 2> series(3 * 7 + 1, c);
    const auto out = run_windows<windows>(series, T(0), T(0.01), 7, 3);
    const auto legend = windows::legend({"a", "b"});
    for (std::size_t w = 0; w < 3; ++w) {
        for (int row = 0; row < windows::rows; ++row) {
            const std::string output = legend[row].substr(2);
            const T value = c[row % 2];
            const T actual = out(w, row, 0);
            CAPTURE(legend[row]);
            CAPTURE(w);
            if (output == "mean" || output == "max" || output == "min")
                CHECK(actual == value);
            else if (output == "rms" || output == "max_magnitude")
                CHECK(actual == std::abs(value));
            else if (starts_with(output, "peak") || starts_with(output, "negative_peak"))
                CHECK(std::isnan(actual));
            else  // std and the derivatives
                CHECK(actual == T(0));
        }
    }
}

TEST_CASE_TEMPLATE("std and rms stay accurate on a large offset", T, float, double) {
    // x = c + sin(k): a sum of squares would lose the variance (1/2) to cancellation
    // against c^2 (relative rounding of c^2 is eps c^2, far above it); Welford's update keeps
    // deviations from the running mean.
    using windows = summary_windows<T, 1, metrics::mean_std_rms>;
    constexpr std::size_t m = 1000;
    const T c = std::is_same_v<T, float> ? T(1e4) : T(1e9);
    sampled_series<T, 1> series;
    for (std::size_t k = 0; k <= m; ++k) series.push_back({c + T(std::sin(double(k)))});
    long double sum = 0, deviations = 0;
    for (std::size_t k = 1; k <= m; ++k) sum += series[k][0];
    const long double mean_value = sum / m;
    for (std::size_t k = 1; k <= m; ++k)
        deviations += (series[k][0] - mean_value) * (series[k][0] - mean_value);
    const long double std_value = std::sqrt(deviations / m);
    const auto out = run_windows<windows>(series, T(0), T(1), m, 1);
    const double eps = std::numeric_limits<T>::epsilon();
    // The running mean takes one rounding of eps c per sample; the deviations from it
    // carry about eps c each, and no cancellation against c^2.
    CHECK(std::abs(out(0, 0, 0) - mean_value) <= m * eps * c);
    CHECK(std::abs(out(0, 1, 0) - std_value) <= 8 * eps * c);
    CHECK(std::abs(out(0, 2, 0) - std::sqrt(mean_value * mean_value + std_value * std_value)) <=
          m * eps * c);
}

namespace {

/// Times of the first n strict local maxima (minima with sign -1) of window w, computed
/// directly: j in the window with neighbours on both sides.
template <class T>
std::vector<T> direct_peak_times(const std::vector<T>& x, std::size_t w, std::size_t m, int sign,
                                 std::size_t n, T t0, T interval) {
    std::vector<T> times;
    const std::size_t last = x.size() - 1;
    for (std::size_t j = w * m + 1; j <= (w + 1) * m && j < last && times.size() < n; ++j) {
        const T before = sign * x[j - 1], here = sign * x[j], after = sign * x[j + 1];
        if (before < here && here > after) times.push_back(t0 + T(j) * interval);
    }
    times.resize(n, std::numeric_limits<T>::quiet_NaN());
    return times;
}

}  // namespace

TEST_CASE_TEMPLATE("a NaN sample makes its window's values NaN and is never a peak", T, float,
                   double) {
    using windows = one_of_each_kind<T, 1>;
    constexpr std::size_t m = 8, n = 3;
    const T start = T(0.25), step = T(0.125);
    const auto legend = windows::legend({"x"});
    std::vector<T> clean(n * m + 1);
    for (std::size_t k = 0; k <= n * m; ++k) clean[k] = std::sin(T(0.9) * T(k));

    // First, middle and last sample of the middle window; the last sample of the run.
    for (std::size_t nan_k : {9, 12, 16, 24}) {
        CAPTURE(nan_k);
        std::vector<T> x = clean;
        x[nan_k] = std::numeric_limits<T>::quiet_NaN();
        sampled_series<T, 1> series, clean_series;
        for (std::size_t k = 0; k <= n * m; ++k) {
            series.push_back({x[k]});
            clean_series.push_back({clean[k]});
        }
        const auto out = run_windows<windows>(series, start, step, m, n);
        const auto clean_out = run_windows<windows>(clean_series, start, step, m, n);
        const std::size_t nan_window = (nan_k - 1) / m;
        for (std::size_t w = 0; w < n; ++w) {
            const auto maxima = direct_peak_times(x, w, m, 1, 3, start, step);
            const auto minima = direct_peak_times(x, w, m, -1, 3, start, step);
            for (int row = 0; row < windows::rows; ++row) {
                const std::string output = legend[row].substr(2);
                const T actual = out(w, row, 0);
                CAPTURE(output);
                CAPTURE(w);
                if (starts_with(output, "peak") || starts_with(output, "negative_peak")) {
                    const bool negative = starts_with(output, "negative_peak");
                    const std::size_t i = output.back() - '0';
                    const T expected = (negative ? minima : maxima)[i];
                    CHECK((actual == expected || (std::isnan(actual) && std::isnan(expected))));
                } else if (w == nan_window) {
                    CHECK(std::isnan(actual));
                } else if (!starts_with(output, "d")) {  // neighbours may reach the NaN
                    CHECK(actual == clean_out(w, row, 0));
                }
            }
        }
    }

    SUBCASE("one sample per window: the NaN sample's own derivatives are NaN") {
        // dx/dt at t_2 is (x_3 - x_1) / 2S, without x_2: still NaN, as its window's.
        const T nan = std::numeric_limits<T>::quiet_NaN();
        const sampled_series<T, 1> series = {{0}, {1}, {nan}, {3}, {4}};
        const auto out = run_windows<windows>(series, start, step, 1, 4);
        for (int row = 0; row < windows::rows; ++row) {
            CAPTURE(legend[row]);
            if (starts_with(legend[row], "x.d")) CHECK(std::isnan(out(1, row, 0)));
        }
    }

    SUBCASE("values after a NaN, larger or smaller, do not replace it") {
        const T nan = std::numeric_limits<T>::quiet_NaN();
        const sampled_series<T, 1> series = {{0}, {nan}, {3}, {-4}, {5}, {1}};
        const auto out = run_windows<windows>(series, start, step, 5, 1);
        for (int row = 0; row < windows::rows; ++row) {
            CAPTURE(legend[row]);
            if (!starts_with(legend[row], "x.peak") && !starts_with(legend[row], "x.negative"))
                CHECK(std::isnan(out(0, row, 0)));
        }
        // The only strict extrema, -4 (j = 3) and 5 (j = 4), do not involve the NaN.
        CHECK(out(0, 6, 0) == start + T(4) * step);  // x.peak0
        CHECK(out(0, 9, 0) == start + T(3) * step);  // x.negative_peak0
    }
}

TEST_CASE_TEMPLATE("one sample per window", T, float, double) {
    using windows =
        summary_windows<T, 1, metrics::mean_std_rms, metrics::extrema, metrics::peaks<1>,
                        metrics::negative_peaks<1>, metrics::dxdt_extrema, metrics::d2xdt2_max>;
    // x_k for k = 0 .. 9 at t = 1 + k / 2: window w is sample w + 1; 2S = 1, S^2 = 1/4.
    // Equal neighbours (5 5, 1 1, 2 2) make no strict extremum.
    const sampled_series<T, 1> series = {{0}, {1}, {3}, {2}, {5}, {5}, {1}, {1}, {2}, {2}};
    const auto out = run_windows<windows>(series, T(1), T(0.5), 1, 9);
    REQUIRE(windows::legend({"x"}) == std::vector<std::string>{"x.mean", "x.std", "x.rms", "x.max",
                                                               "x.min", "x.peak0",
                                                               "x.negative_peak0", "x.dxdt_max",
                                                               "x.dxdt_min", "x.d2xdt2_max"});
    const T nan = std::numeric_limits<T>::quiet_NaN();
    // Per window: peak, negative peak, dx/dt, d2x/dt2. Sample 9 is the last of the run: no
    // neighbour metric sees it.
    const std::vector<std::vector<T>> expected = {
        {nan, nan, 3, 4},   {2, nan, 1, -12},    {nan, 2.5, 2, 16},
        {nan, nan, 3, -12}, {nan, nan, -4, -16}, {nan, nan, -4, 16},
        {nan, nan, 1, 4},   {nan, nan, 1, -4},   {nan, nan, nan, nan}};
    auto same = [](T a, T b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    for (std::size_t w = 0; w < 9; ++w) {
        CAPTURE(w);
        const T x = series[w + 1][0];
        CHECK(out(w, 0, 0) == x);  // mean
        CHECK(out(w, 1, 0) == 0);  // std
        CHECK(out(w, 2, 0) == x);  // rms
        CHECK(out(w, 3, 0) == x);  // max
        CHECK(out(w, 4, 0) == x);  // min
        CHECK(same(out(w, 5, 0), expected[w][0]));
        CHECK(same(out(w, 6, 0), expected[w][1]));
        CHECK(same(out(w, 7, 0), expected[w][2]));  // dxdt_max = dxdt_min: one sample
        CHECK(same(out(w, 8, 0), expected[w][2]));
        CHECK(same(out(w, 9, 0), expected[w][3]));
    }
}

#if defined(__CUDACC__)
namespace {

template <class Windows, class T>
__global__ void summarise_kernel(const vector<T, 3>* series, std::uint32_t n_samples, T start,
                                 T step, std::uint32_t m, std::uint32_t windows, batch_view<T> out,
                                 std::size_t n_trajectories) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n_trajectories) return;
    Windows w{};
    w.start(series[0], start, step, m, windows, out, i);
    for (std::uint32_t k = 1; k < n_samples; ++k) w.add(series[k]);
}

template <class Windows, class T>
void check_on_device() {
    constexpr std::size_t n_trajectories = 300;  // more than one block, a partial last one
    const auto series = reference_series<T>();
    const auto device_series = device_buffer<vector<T, 3>>::copy_of(series);
    summary_output<T> out{std::vector<T>(n_windows * Windows::rows * n_trajectories), Windows::rows,
                          n_trajectories};
    device_buffer<T> device_out(out.values.size());
    summarise_kernel<Windows, T><<<(n_trajectories + 127) / 128, 128>>>(
        device_series.data(), static_cast<std::uint32_t>(series.size()), T(t0), T(interval),
        samples_per_window, n_windows,
        batch_view<T>(device_out.data(), n_windows * Windows::rows, n_trajectories),
        n_trajectories);
    CUBIE_CUDA_CHECK(cudaGetLastError());
    device_out.copy_to(out.values);
    for (std::size_t i : {std::size_t{0}, std::size_t{127}, std::size_t{128}, n_trajectories - 1})
        check_against_reference<Windows>(out, i, true);
}

}  // namespace

TEST_CASE_TEMPLATE("summary windows in a kernel match NumPy", T, float, double) {
    check_on_device<every_output<T>, T>();
    check_on_device<single_outputs<T>, T>();
}
#endif
