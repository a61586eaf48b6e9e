#pragma once
// What a list of output policies asks of a solve, worked out at compile time: which
// series are saved, whether summaries are kept and over how many variables, and which
// events are watched (an events<...> list among the outputs). Nothing that is not
// requested appears in the recorder or the kernel.

#include <type_traits>

#include "cubie/events/event_list.hpp"
#include "cubie/outputs/output_policies.hpp"
#include "cubie/outputs/summary_windows.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

namespace detail {

/// Metric M of the summaries Metrics...: its `unshared` form where it has one and no other
/// of Metrics... reads its accumulator (the mean alone keeps a sum, not Welford's moments).
template <class M, class... Metrics>
struct unshared_form {
    using type = M;
};
template <class M, class... Metrics>
requires requires {
    typename M::unshared;
}
struct unshared_form<M, Metrics...> {
    static constexpr int readers =
        (0 + ... +
         (std::is_same_v<typename Metrics::accumulator, typename M::accumulator> ? 1 : 0));
    using type = std::conditional_t<readers == 1, typename M::unshared, M>;
};

/// Where a system's NSummarised summarised variables go in a window's rows: a system that
/// holds a share of another's (loop/lane_system.hpp) says so as its summary_rows; any
/// other holds them all (own_rows).
template <class System, int NSummarised>
struct summary_rows_of {
    using type = own_rows<NSummarised>;
};
template <class System, int NSummarised>
requires requires {
    typename System::summary_rows;
}
struct summary_rows_of<System, NSummarised> {
    using type = typename System::summary_rows;
    static_assert(type::held == NSummarised,
                  "a system's summary_rows holds its states and summarised observables");
};

/// The windows of System's NSummarised variables for Summaries, or void where nothing is
/// summarised (the rows are looked up only then).
template <class T, class System, int NSummarised, class Summaries>
struct windows_of {
    using type = void;
};
template <class T, class System, int NSummarised, class... Metrics>
struct windows_of<T, System, NSummarised, summaries<Metrics...>> {
    using type = summary_windows_over<T, typename summary_rows_of<System, NSummarised>::type,
                                      typename unshared_form<Metrics, Metrics...>::type...>;
};

template <class... Outputs>
struct first_summaries {
    using type = void;
};
template <class Head, class... Tail>
struct first_summaries<Head, Tail...> {
    using type =
        std::conditional_t<is_summaries<Head>, Head, typename first_summaries<Tail...>::type>;
};

template <class... Outputs>
struct first_event_list {
    using type = events<>;
};
template <class Head, class... Tail>
struct first_event_list<Head, Tail...> {
    using type =
        std::conditional_t<is_event_list<Head>, Head, typename first_event_list<Tail...>::type>;
};

}  // namespace detail

template <ode_system System, class... Outputs>
struct output_layout {
    static_assert((output_policy<Outputs> && ...),
                  "unknown output policy: the outputs are save_state, save_observables, "
                  "save_counters and summaries<metrics...> (outputs/output_policies.hpp), "
                  "and events<...> (events/event_list.hpp)");
    template <class Policy>
    static constexpr int count = (0 + ... + (std::is_same_v<Outputs, Policy> ? 1 : 0));
    static_assert(((count<Outputs> == 1) && ...), "an output policy is listed twice");
    static_assert((0 + ... + (is_summaries<Outputs> ? 1 : 0)) <= 1,
                  "list one summaries<...> with every metric in it");
    static_assert((0 + ... + (is_event_list<Outputs> ? 1 : 0)) <= 1,
                  "list one events<...> with every event in it");

    using T = typename System::value_type;
    static constexpr bool saves_states = count<save_state> == 1;
    static constexpr bool saves_observables = count<save_observables> == 1;
    static constexpr bool saves_counters = count<save_counters> == 1;
    static_assert(!saves_observables || has_observables<System>,
                  "save_observables needs a system with observables (n_observables > 0 and an "
                  "observables() member)");
    /// Anything saved at save_every.
    static constexpr bool saves = saves_states || saves_observables || saves_counters;

    using summaries_policy = typename detail::first_summaries<Outputs...>::type;
    static constexpr bool summarises = !std::is_void_v<summaries_policy>;
    /// Summaries cover every state and, where the system has them, every observable.
    static constexpr bool summarises_observables = summarises && has_observables<System>;
    static constexpr int n_summarised =
        System::n_states + (summarises_observables ? System::n_observables : 0);
    /// summary_windows<T, n_summarised, Metrics...> (a share's: summary_windows_over), or
    /// void.
    using windows_type =
        typename detail::windows_of<T, System, n_summarised, summaries_policy>::type;

    static constexpr bool records = saves || summarises;

    /// The events<...> listed, or events<> (none).
    using event_list = typename detail::first_event_list<Outputs...>::type;
    using events_type = event_layout<System, event_list>;
    static constexpr bool watches = events_type::channels > 0;
};

}  // namespace cubie
