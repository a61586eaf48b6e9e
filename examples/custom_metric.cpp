// Writing a summary metric of one's own.
//
// A metric is a type: a name, the accumulator it reads, its outputs and a function that
// writes them (cubie/outputs/metrics/summary_metric.hpp). Two are written here:
//
//   range          max - min of each window, read from the library's extrema accumulator:
//                  listed with max and min it costs nothing more, the three share one state;
//   time_above<L>  the time a variable spends above the level L, with an accumulator of its
//                  own that counts samples above L.
//
// Both spell out the whole interface; metrics/accumulator_reads.hpp shortens metrics that
// only read values off a state (the library's mean, std, max ... are written with it).
//
// They are fed a sampled signal through summary_windows, the per-trajectory state machine
// that the solver runs inside its kernels, and the windows are printed.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/outputs/summary_windows.hpp"

namespace {

using namespace cubie;

/// max - min over the window, from the accumulator of metrics::max and metrics::min.
struct range {
    static constexpr const char* name = "range";
    using accumulator = metrics::running_extrema<metrics::sampled_value>;
    static constexpr int n_outputs = 1;
    static constexpr cuda::std::array<const char*, n_outputs> output_names = {"range"};
    template <class T>
    CUBIE_HD static void output(const typename accumulator::template state<T>& a, T* out) {
        // largest and smallest are NaN after a NaN sample, and so is the range.
        out[0] = accumulator::largest(a) - accumulator::smallest(a);
    }
};

/// Counts the window's samples above Level; each stands for one sampling interval.
template <double Level>
struct samples_above {
    template <class T>
    struct state {
        std::uint32_t count;
        T interval;
    };
    static constexpr bool needs_neighbours = false;
    template <class T>
    CUBIE_HD static void reset(state<T>& s) {
        s = {0, T(0)};
    }
    template <class T>
    CUBIE_HD static void add(state<T>& s, const metrics::sample<T>& x) {
        s.count += x.value > T(Level) ? 1 : 0;
        s.interval = x.interval;
    }
};

template <double Level>
struct time_above {
    static constexpr const char* name = "time_above";
    using accumulator = samples_above<Level>;
    static constexpr int n_outputs = 1;
    static constexpr cuda::std::array<const char*, n_outputs> output_names = {"time_above"};
    template <class T>
    CUBIE_HD static void output(const typename accumulator::template state<T>& a, T* out) {
        out[0] = static_cast<T>(a.count) * a.interval;
    }
};

static_assert(metrics::summary_metric<range> && metrics::summary_metric<time_above<0.5>>);

using windows =
    summary_windows<double, 2, metrics::max, metrics::min, range, time_above<0.5>, metrics::mean>;
// max, min and range share the extrema accumulator: three accumulators in all.
static_assert(windows::n_accumulators == 3);

}  // namespace

int main() {
    // x = sin t + 0.3 sin 5t and y = cos t, sampled every S = 0.01 from t0 = 0 over four
    // windows of 1.5 time units (150 samples each).
    constexpr double t0 = 0, interval = 0.01;
    constexpr std::uint32_t samples_per_window = 150, n_windows = 4;
    std::vector<cubie::vector<double, 2>> series;
    for (std::uint32_t k = 0; k <= samples_per_window * n_windows; ++k) {
        const double t = t0 + k * interval;
        series.push_back({std::sin(t) + 0.3 * std::sin(5 * t), std::cos(t)});
    }

    std::vector<double> out(n_windows * windows::rows, std::numeric_limits<double>::quiet_NaN());
    windows w{};
    w.start(series[0], t0, interval, samples_per_window, n_windows,
            batch_view<double>(out.data(), n_windows * windows::rows, 1), 0);
    for (std::size_t k = 1; k < series.size(); ++k) w.add(series[k]);

    const auto legend = windows::legend({"x", "y"});
    std::printf("%-14s", "window");
    for (std::uint32_t i = 0; i < n_windows; ++i) std::printf("%11u", i);
    std::printf("\n");
    for (int row = 0; row < windows::rows; ++row) {
        std::printf("%-14s", legend[row].c_str());
        for (std::uint32_t i = 0; i < n_windows; ++i)
            std::printf("%11.5f", out[i * windows::rows + row]);
        std::printf("\n");
    }
    return 0;
}
