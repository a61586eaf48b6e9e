#pragma once
// summary_windows<T, NVariables, Metrics...>: one trajectory's summary metrics, computed on
// the fly over windows of sampled values; the series itself is never stored.
//
// The loop samples the NVariables summarised variables at t_k = t0 + k S, k = 0 .. K.
// Sample 0 is history only. Window w holds the m samples k = w m + 1 .. (w + 1) m, so
// K = n_windows m. Accumulators that need neighbours see sample j together with x_{j-1}
// and x_{j+1}, that is once x_{j+1} has arrived, for j = 1 .. K-1 (the last sample of the
// run is never a peak and has no derivative); every other accumulator sees j = 1 .. K.
//
// A window's rows are written once it is complete for every accumulator: at k = (w + 1) m
// without neighbour accumulators, one sample later with them (at K for the last window).
// Windows never completed (the trajectory failed) keep what the caller put there.
//
// Rows of a window, metric-major in the order of Metrics...:
//   row = (offset(metric) + output) * NVariables + variable
// and the output array is [window][row][trajectory]. summary_windows_over<T, Rows,
// Metrics...> keeps Rows::held of a window's Rows::variables variables, variable v writing
// row variable Rows::of(v) (none where negative): a lane's share of the variables when the
// state is dealt out over lanes (loop/lane_system.hpp); summary_windows keeps them all.
//
// Metrics that share an accumulator share its running state: the distinct accumulators
// are found at compile time, and each keeps one state per variable. History (the last two
// samples) is kept only when some accumulator needs neighbours.

#include <boost/hana/append.hpp>
#include <boost/hana/contains.hpp>
#include <boost/hana/fold_left.hpp>
#include <boost/hana/if.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <boost/hana/unpack.hpp>
#include <cuda/std/array>
#include <cuda/std/cstddef>
#include <cuda/std/limits>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/core/batch_view.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/outputs/metrics/sample.hpp"
#include "cubie/outputs/metrics/summary_metric.hpp"

namespace cubie {

namespace detail {

/// The distinct types among Types..., in order of first appearance, as a hana tuple of
/// hana types (host-side type computation, used only through decltype).
template <class... Types>
constexpr auto distinct_type_list() {
    namespace hana = boost::hana;
    return hana::fold_left(hana::tuple_t<Types...>, hana::tuple_t<>, [](auto seen, auto type) {
        return hana::if_(hana::contains(seen, type), seen, hana::append(seen, type));
    });
}

/// The same as a cuda::std::tuple type, which device code can use.
template <class... Types>
using distinct_types = typename decltype(boost::hana::unpack(
    distinct_type_list<Types...>(), boost::hana::template_<cuda::std::tuple>))::type;

/// Position of Type in the tuple type List, where it appears once.
template <class Type, class List>
struct index_of_type;
template <class Type, class... List>
struct index_of_type<Type, cuda::std::tuple<List...>> {
    static constexpr int value = [] {
        int index = 0;
        bool found = false;
        ((found = found || cuda::std::is_same_v<Type, List>, index += found ? 0 : 1), ...);
        return index;
    }();
};

/// cuda::std::tuple of one accumulator state per variable, for each accumulator.
template <class T, int NVariables, class Accumulators>
struct accumulator_states_of;
template <class T, int NVariables, class... Accumulators>
struct accumulator_states_of<T, NVariables, cuda::std::tuple<Accumulators...>> {
    using type = cuda::std::tuple<vector<typename Accumulators::template state<T>, NVariables>...>;
};

/// The last two samples, x_{k-2} and x_{k-1}, for accumulators that need neighbours.
template <class T, int NVariables, bool Kept>
struct sample_history {
    vector<T, NVariables> before_last;
    vector<T, NVariables> last;
};
template <class T, int NVariables>
struct sample_history<T, NVariables, false> {};

template <class... Metrics>
constexpr auto concatenated_output_names() {
    cuda::std::array<const char*, (Metrics::n_outputs + ...)> names{};
    int row = 0;
    (([&] {
         for (const char* name : Metrics::output_names) names[row++] = name;
     }()),
     ...);
    return names;
}

constexpr bool same_text(const char* a, const char* b) {
    while (*a != '\0' && *a == *b) ++a, ++b;
    return *a == *b;
}

/// True unless two outputs of the same name come from different accumulators. The same
/// name read off one accumulator (max, and max of extrema) is taken to be the same value,
/// written twice; from two accumulators it could differ, and the legend could not tell
/// them apart.
template <class Accumulators, class... Metrics>
constexpr bool output_names_unambiguous() {
    constexpr auto names = concatenated_output_names<Metrics...>();
    cuda::std::array<int, names.size()> source{};
    int row = 0;
    (([&] {
         for (int o = 0; o < Metrics::n_outputs; ++o)
             source[row++] = index_of_type<typename Metrics::accumulator, Accumulators>::value;
     }()),
     ...);
    for (cuda::std::size_t i = 0; i < names.size(); ++i)
        for (cuda::std::size_t j = i + 1; j < names.size(); ++j)
            if (same_text(names[i], names[j]) && source[i] != source[j]) return false;
    return true;
}

}  // namespace detail

/// Every variable of a window's rows held, variable v in row variable v.
template <int NVariables>
struct own_rows {
    static constexpr int held = NVariables;
    static constexpr int variables = NVariables;
    CUBIE_HD static constexpr int of(int v) { return v; }
};

template <class T, class Rows, class... Metrics>
struct summary_windows_over {
    static constexpr int n_held = Rows::held;  ///< variables summarised here
    static_assert(sizeof...(Metrics) >= 1, "summary_windows needs at least one metric");
    static_assert((metrics::summary_metric<Metrics> && ...),
                  "a summary metric lacks part of the interface in "
                  "outputs/metrics/summary_metric.hpp");
    static_assert(n_held >= 1, "summary_windows needs at least one variable");

    /// The distinct accumulators of Metrics..., in order of first use.
    using accumulators = detail::distinct_types<typename Metrics::accumulator...>;
    static constexpr int n_accumulators = cuda::std::tuple_size_v<accumulators>;
    static constexpr bool needs_neighbours = (Metrics::accumulator::needs_neighbours || ...);
    static constexpr int outputs_per_variable = (Metrics::n_outputs + ...);
    static constexpr int rows = outputs_per_variable * Rows::variables;  ///< rows per window
    /// Output names in row order (each repeated over the variables).
    static constexpr cuda::std::array<const char*, outputs_per_variable> output_names =
        detail::concatenated_output_names<Metrics...>();
    static_assert(detail::output_names_unambiguous<accumulators, Metrics...>(),
                  "two metrics with different accumulators write outputs of the same name: "
                  "rename one, the legend could not tell them apart");

    /// Values of T a variable's running state takes: its accumulators' states (a count among
    /// them counted as one value) and the history of neighbour accumulators.
    static constexpr int values_per_variable =
        int(sizeof(typename detail::accumulator_states_of<T, 1, accumulators>::type) / sizeof(T)) +
        (needs_neighbours ? 2 : 0);

    /// "<variable>.<output name>" for every row of a window, in row order.
    static std::vector<std::string> legend(const std::vector<std::string>& variable_names) {
        if (variable_names.size() != static_cast<std::size_t>(Rows::variables))
            throw std::invalid_argument("summary legend: " + std::to_string(Rows::variables) +
                                        " variable names expected, got " +
                                        std::to_string(variable_names.size()));
        std::vector<std::string> names;
        names.reserve(rows);
        for (const char* output : output_names)
            for (const std::string& variable : variable_names)
                names.push_back(variable + "." + output);
        return names;
    }

    /// Prepares a run of samples t0 + k interval. out has n_windows * rows rows.
    CUBIE_HD void bind(T t0, T interval, std::uint32_t samples_per_window, std::uint32_t n_windows,
                       batch_view<T> out, std::size_t trajectory) {
        assert(samples_per_window >= 1);
        t0_ = t0;
        interval_ = interval;
        samples_per_window_ = samples_per_window;
        n_windows_ = n_windows;
        out_ = out;
        trajectory_ = trajectory;
        k_ = 0;
        window_ = 0;
        filled_ = 0;
        reset_accumulators();
    }

    /// Sample 0 (x0 at t0), after bind().
    CUBIE_HD void first(const vector<T, n_held>& x0) {
        if constexpr (needs_neighbours) history_.last = x0;
    }

    /// bind() and first() together.
    CUBIE_HD void start(const vector<T, n_held>& x0, T t0, T interval,
                        std::uint32_t samples_per_window, std::uint32_t n_windows,
                        batch_view<T> out, std::size_t trajectory) {
        bind(t0, interval, samples_per_window, n_windows, out, trajectory);
        first(x0);
    }

    /// The next sample, k = 1 .. K.
    CUBIE_HD void add(const vector<T, n_held>& x) {
        if constexpr (needs_neighbours) {
            if (k_ >= 1) {  // this is sample k_ + 1 >= 2: sample k_ has both neighbours
                const T time = sample_time(k_);
                const T none = cuda::std::numeric_limits<T>::quiet_NaN();
                add_to<true>([&](int v) {
                    return metrics::sample<T>{
                        history_.last[v], history_.before_last[v], x[v], time, interval_, none, 0};
                });
            }
            // The previous sample closed a window that neighbour accumulators just finished.
            if (filled_ == samples_per_window_) next_window();
            history_.before_last = history_.last;
            history_.last = x;
        }
        add_within(x, 0);
        end_run(1);
        if (filled_ == samples_per_window_) {
            if constexpr (!needs_neighbours)
                next_window();
            else if (window_ + 1 == n_windows_)  // sample K: no neighbour sample follows
                write_window();
        }
    }

    /// How many of the next samples add_within() may take: those before the sample that
    /// completes the window (it writes the window). Not for accumulators that need
    /// neighbours: every sample completes the one before it.
    CUBIE_HD std::uint32_t samples_within_window() const requires(!needs_neighbours) {
        return samples_per_window_ - 1 - filled_;
    }

    /// Sample j (from 0) after those counted so far, to the accumulators without
    /// neighbours; end_run() counts them. A run of samples taken this way, without add(),
    /// stops before the window's end: j < samples_within_window().
    CUBIE_HD void add_within(const vector<T, n_held>& x, std::uint32_t j) {
        add_to<false>([&](int v) { return sample_within(x[v], j); });
    }
    /// Samples j and j + 1 together, where sample j opens a pair (opens_pair(j)): to an
    /// accumulator with add_pair() as a pair, with the bits of two add_within() calls.
    CUBIE_HD void add_pair_within(const vector<T, n_held>& x1, const vector<T, n_held>& x2,
                                  std::uint32_t j) {
        assert(opens_pair(j));
        for_each_state([&](auto accumulator, auto& state, int v) {
            using A = typename decltype(accumulator)::type;
            if constexpr (!A::needs_neighbours) {
                const metrics::sample<T> first = sample_within(x1[v], j);
                const metrics::sample<T> second = sample_within(x2[v], j + 1);
                if constexpr (requires { A::add_pair(state, first, second); }) {
                    A::add_pair(state, first, second);
                } else {
                    A::add(state, first);
                    A::add(state, second);
                }
            }
        });
    }
    /// Sample j (from 0) after those counted so far is an odd one of its window: with the
    /// next, a pair (add_pair_within()).
    CUBIE_HD bool opens_pair(std::uint32_t j) const { return (filled_ + j + 1) % 2 == 1; }
    /// Counts the n samples taken by add_within().
    CUBIE_HD void end_run(std::uint32_t n) {
        k_ += n;
        filled_ += n;
    }

private:
    using accumulator_states =
        typename detail::accumulator_states_of<T, n_held, accumulators>::type;
    static constexpr cuda::std::array<int, sizeof...(Metrics)> offsets = [] {
        cuda::std::array<int, sizeof...(Metrics)> first{};
        int next = 0, i = 0;
        ((first[i++] = next, next += Metrics::n_outputs), ...);
        return first;
    }();

    CUBIE_HD T sample_time(std::uint32_t k) const { return t0_ + static_cast<T>(k) * interval_; }

    /// Value x as sample j (from 0) after those counted so far, for accumulators without
    /// neighbours.
    CUBIE_HD metrics::sample<T> sample_within(T x, std::uint32_t j) const {
        const std::uint32_t count = filled_ + j + 1;
        const T none = cuda::std::numeric_limits<T>::quiet_NaN();
        return {x,    none, none, sample_time(k_ + j + 1), interval_, T(1) / static_cast<T>(count),
                count};
    }

    CUBIE_HD void reset_accumulators() {
        for_each_state(
            [](auto accumulator, auto& state, int) { decltype(accumulator)::type::reset(state); });
    }

    /// Adds sample_of(v) to every accumulator whose needs_neighbours is Neighbours.
    template <bool Neighbours, class SampleOf>
    CUBIE_HD void add_to(const SampleOf& sample_of) {
        for_each_state([&](auto accumulator, auto& state, int v) {
            using A = typename decltype(accumulator)::type;
            if constexpr (A::needs_neighbours == Neighbours) A::add(state, sample_of(v));
        });
    }

    /// visit(accumulator, state, v) for each accumulator A, as cuda::std::type_identity<A>,
    /// and each variable v, with A's state of v.
    template <class Visit>
    CUBIE_HD void for_each_state(Visit&& visit) {
        static_for<n_accumulators>([&](auto a) {
            using A = cuda::std::tuple_element_t<decltype(a)::value, accumulators>;
            CUBIE_UNROLL
            for (int v = 0; v < n_held; ++v)
                visit(cuda::std::type_identity<A>{}, cuda::std::get<decltype(a)::value>(states_)[v],
                      v);
        });
    }

    CUBIE_HD void write_window() const {
        const int first_row = static_cast<int>(window_) * rows;
        static_for<sizeof...(Metrics)>([&](auto m) {
            using M = cuda::std::tuple_element_t<decltype(m)::value, cuda::std::tuple<Metrics...>>;
            constexpr int a = detail::index_of_type<typename M::accumulator, accumulators>::value;
            constexpr int offset = offsets[decltype(m)::value];
            CUBIE_UNROLL
            for (int v = 0; v < n_held; ++v) {
                const int row_variable = Rows::of(v);
                if (row_variable < 0) continue;
                vector<T, M::n_outputs> values;
                M::output(cuda::std::get<a>(states_)[v], values.data());
                CUBIE_UNROLL
                for (int o = 0; o < M::n_outputs; ++o)
                    out_(first_row + (offset + o) * Rows::variables + row_variable, trajectory_) =
                        values[o];
            }
        });
    }

    CUBIE_HD void next_window() {
        write_window();
        reset_accumulators();
        ++window_;
        filled_ = 0;
    }

    accumulator_states states_;
    [[no_unique_address]] detail::sample_history<T, n_held, needs_neighbours> history_;
    batch_view<T> out_;
    std::size_t trajectory_;
    T t0_;
    T interval_;
    std::uint32_t samples_per_window_;
    std::uint32_t n_windows_;
    std::uint32_t k_;       ///< samples taken since t0
    std::uint32_t window_;  ///< the window being filled
    std::uint32_t filled_;  ///< its samples so far
};

/// NVariables variables' windows, each in its own row variable.
template <class T, int NVariables, class... Metrics>
using summary_windows = summary_windows_over<T, own_rows<NVariables>, Metrics...>;

}  // namespace cubie
