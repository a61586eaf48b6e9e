#pragma once
// The output policies a solver can be given (solver<System, Algorithm, Controller,
// Outputs...>). Each is a type: what is not listed is not compiled.
//
//   save_state          the states (all, or settings.saved_states) every save_every
//   save_observables    the system's observables (all, or settings.saved_observables) at
//                       the same times
//   save_counters       accepted and rejected steps in each interval between saves
//   summaries<M...>     summary metrics (outputs/summary_metrics.hpp) of every state and
//                       observable over windows of summarise_every, sampled every
//                       sample_summaries_every; never stores the series
//
// Final states, statuses and total step counts always come back. Events are listed among
// the outputs as one events<E...> (events/event_list.hpp).

#include <type_traits>

#include "cubie/events/event_list.hpp"

namespace cubie {

struct save_state {};
struct save_observables {};
struct save_counters {};
template <class... Metrics>
struct summaries {
    static_assert(sizeof...(Metrics) > 0, "summaries<> needs at least one metric");
};

template <class T>
inline constexpr bool is_summaries = false;
template <class... Metrics>
inline constexpr bool is_summaries<summaries<Metrics...>> = true;

/// One of the policies above, or a list of events.
template <class T>
concept output_policy = std::is_same_v<T, save_state> || std::is_same_v<T, save_observables> ||
    std::is_same_v<T, save_counters> || is_summaries<T> || is_event_list<T>;

}  // namespace cubie
