#pragma once
// events<E...>: the policy that gives a solver its events, listed after its outputs,
//
//   cubie::solver<ball, cubie::tsit5, cubie::pi_controller, cubie::save_state,
//                 cubie::events<ground, apex>> s;
//
// and event_layout<System, events<E...>>, what the list makes of a solve at compile time:
// its channels (one per condition: a vector condition gives several), in the order listed,
// and the rows each channel's records take.
//
//   channel          a condition of an event: counted, and recorded up to its capacity
//   record           one kept occurrence: its time and the state there
//
// Channels are numbered in the order of the list (the conditions of a vector event in
// order); a channel's records are consecutive rows, the first at first_record(channel).

#include <cuda/std/array>

#include <string>
#include <type_traits>
#include <vector>

#include "cubie/events/event.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

template <class... Events>
struct events {};

template <class T>
inline constexpr bool is_event_list = false;
template <class... Events>
inline constexpr bool is_event_list<events<Events...>> = true;

/// The primary template fails on purpose: the second argument must be an events<...> list.
template <class System, class List>
struct event_layout {
    static_assert(is_event_list<List>, "event_layout takes the list as cubie::events<E...>");
};

template <class System, class... Events>
struct event_layout<System, events<Events...>> {
    static_assert(
        ((conditions_of<Events, System>() > 0) && ...),
        "an event needs condition(t, y, p, d) const returning the system's value_type or a "
        "cubie::vector of it (events/event.hpp)");
    static_assert((event<Events, System> && ...),
                  "not an event of this system: it needs static constexpr name, direction "
                  "(cubie::crossing) and action (cubie::event_action), a capacity >= 0 where "
                  "given, be default-constructible and, for action affect, have "
                  "affect(t, y, p, d) const (events/event.hpp)");

    static constexpr int n_events = sizeof...(Events);
    static constexpr int channels = (0 + ... + conditions_of<Events, System>());
    static constexpr int records =
        (0 + ... + (conditions_of<Events, System>() * capacity_of<Events>()));
    /// Whether any event acts (affect or terminate): only such events shorten a step.
    static constexpr bool acts = ((Events::action != event_action::record) || ...);
    static constexpr bool affects = ((Events::action == event_action::affect) || ...);

private:
    /// For each channel: its event's position in the list, its condition within the event,
    /// its first record row and its capacity.
    struct channel_info {
        int event = 0, component = 0, first_record = 0, capacity = 0;
    };
    static constexpr cuda::std::array<channel_info, (channels > 0 ? channels : 1)> table = [] {
        cuda::std::array<channel_info, (channels > 0 ? channels : 1)> out{};
        constexpr int counts[] = {conditions_of<Events, System>()..., 0};
        constexpr int capacities[] = {capacity_of<Events>()..., 0};
        int channel = 0, record = 0;
        for (int e = 0; e < n_events; ++e)
            for (int c = 0; c < counts[e]; ++c) {
                out[static_cast<cuda::std::size_t>(channel++)] = {e, c, record, capacities[e]};
                record += capacities[e];
            }
        return out;
    }();

public:
    static constexpr int event_of(int channel) { return table[channel].event; }
    static constexpr int component_of(int channel) { return table[channel].component; }
    static constexpr int first_record(int channel) { return table[channel].first_record; }
    static constexpr int capacity(int channel) { return table[channel].capacity; }

    /// The events' names by channel: "<name>", or "<name>[c]" for a vector's condition c.
    static std::vector<std::string> channel_names() {
        std::vector<std::string> names;
        const char* event_names[] = {Events::name..., nullptr};
        constexpr int counts[] = {conditions_of<Events, System>()..., 0};
        for (int e = 0; e < n_events; ++e)
            for (int c = 0; c < counts[e]; ++c)
                names.push_back(counts[e] == 1
                                    ? std::string(event_names[e])
                                    : std::string(event_names[e]) + "[" + std::to_string(c) + "]");
        return names;
    }

    /// The records' names, "<channel>.<k>" for its k-th occurrence from 0, in row order.
    static std::vector<std::string> record_names() {
        std::vector<std::string> names;
        const std::vector<std::string> of_channel = channel_names();
        for (int c = 0; c < channels; ++c)
            for (int k = 0; k < capacity(c); ++k)
                names.push_back(of_channel[static_cast<std::size_t>(c)] + "." + std::to_string(k));
        return names;
    }
};

}  // namespace cubie
