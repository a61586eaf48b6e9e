#pragma once
// The Event concept: a condition of a trajectory whose zero crossings the integration loop
// locates, records and acts on. Events are types, listed in a solver's cubie::events<...>
// (event_list.hpp) after its outputs; a solver without them compiles none of this.
//
//   name          static constexpr const char*: names the event in results
//   direction     static constexpr crossing: rising (g goes from below 0 to 0 or above),
//                 falling (from above 0 to 0 or below), or either
//   action        static constexpr event_action: record, affect or terminate
//   condition(t, y, p, d) const -> T, or cubie::vector<T, M>
//                 g at time t for the state y, the trajectory's parameters p and the
//                 drivers' values d. A vector holds M conditions that share the direction
//                 and the action; each is counted and recorded as an event of its own,
//                 named "<name>[c]" in results.
//   affect(t, y, p, d) const
//                 where action is affect: changes the state y and/or the parameters p (both
//                 passed by non-const reference) at the crossing. A vector event may take the
//                 condition that crossed as a fifth argument, affect(t, y, p, d, c), and is
//                 then called once per condition that crossed; else once.
//
// Optional:
//   capacity      static constexpr int, default 1: how many occurrences of each condition
//                 a trajectory keeps the time and state of (the first ones); every one is
//                 counted, those past the capacity only counted
//
// Events are default-constructed where they are evaluated, on the device too: the numbers
// they need are the system's constants or the trajectory's parameters. What happens at a
// crossing, and in which order when several coincide, is event_monitor.hpp's to say.

#include <cuda/std/array>
#include <cuda/std/type_traits>

#include <concepts>
#include <cstdint>

#include "cubie/core/vector.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

/// The sign change of an event's condition that counts as a crossing.
enum class crossing : std::uint8_t {
    rising,   ///< from below 0 to 0 or above
    falling,  ///< from above 0 to 0 or below
    either,
};

/// What a crossing does besides being counted and recorded.
enum class event_action : std::uint8_t {
    record,     ///< nothing else: the step is neither shortened nor changed (a section)
    affect,     ///< the event's affect() changes the state and/or parameters there
    terminate,  ///< the trajectory ends there, with status::terminated_by_event
};

namespace detail {

template <class E, class System>
using condition_result_t =
    cuda::std::remove_cvref_t<decltype(cuda::std::declval<const E&>().condition(
        cuda::std::declval<typename System::value_type>(),
        cuda::std::declval<const state_t<System>&>(),
        cuda::std::declval<const parameters_t<System>&>(),
        cuda::std::declval<const drivers_t<System>&>()))>;

template <class Result, class T>
struct condition_size {
    static constexpr int value = 0;  // neither T nor a vector of T
};
template <class T>
struct condition_size<T, T> {
    static constexpr int value = 1;
};
template <class T, cuda::std::size_t M>
struct condition_size<cuda::std::array<T, M>, T> {
    static constexpr int value = static_cast<int>(M);
};

template <class E, class System>
concept has_condition = requires(const E& e, typename System::value_type t,
                                 const state_t<System>& y, const parameters_t<System>& p,
                                 const drivers_t<System>& d) {
    e.condition(t, y, p, d);
};

template <class E, class System>
concept affects_each_condition = requires(const E& e, typename System::value_type t,
                                          state_t<System>& y, parameters_t<System>& p,
                                          const drivers_t<System>& d, int c) {
    e.affect(t, y, p, d, c);
};

template <class E, class System>
concept affects_once = requires(const E& e, typename System::value_type t, state_t<System>& y,
                                parameters_t<System>& p, const drivers_t<System>& d) {
    e.affect(t, y, p, d);
};

}  // namespace detail

/// The number of conditions of event E (1 for a scalar condition); 0 where its condition
/// returns neither the system's value_type nor a cubie::vector of it.
template <class E, class System>
constexpr int conditions_of() {
    if constexpr (detail::has_condition<E, System>)
        return detail::condition_size<detail::condition_result_t<E, System>,
                                      typename System::value_type>::value;
    else
        return 0;
}

/// How many occurrences of each of E's conditions keep their time and state.
template <class E>
constexpr int capacity_of() {
    if constexpr (requires { E::capacity; }) return E::capacity;
    return 1;
}

template <class E, class System>
concept event = ode_system<System> && std::is_default_constructible_v<E> && requires {
    { E::name } -> std::convertible_to<const char*>;
    { E::direction } -> std::convertible_to<crossing>;
    { E::action } -> std::convertible_to<event_action>;
} &&(conditions_of<E, System>() > 0) && (capacity_of<E>() >= 0) &&
    (E::action != event_action::affect || detail::affects_once<E, System> ||
     detail::affects_each_condition<E, System>);

}  // namespace cubie
