#pragma once
// A system's state dealt out over the G lanes of a group, for explicit methods on several
// lanes (algorithms/on_lanes.hpp): lane l holds components l, l + G, l + 2 G, ... in its
// slots, so that a 128-state system on 32 lanes keeps four values of each vector a lane's
// registers hold, where one thread would spill all of them.
//
//   lane_state<T, N, Group>         a lane's share, its lane_part (linear/lane_parts.hpp:
//                                   ceil(N / G) slots; those past component N - 1 hold 0),
//                                   whose norms and finiteness are taken over the group
//                                   (core/dealt_out_state.hpp)
//   lane_system<System, Group>      the system as one lane sees it: n_states = Slots, its
//                                   state a lane_state; rhs gathers the whole state in
//                                   memory the group shares and evaluates the lane's own
//                                   components by the system's rhs_at (generated)
//   lane_settings(s, lane)          a solve's settings as the lane takes them: its
//                                   components' tolerances
//   lane_targets(targets, lane)     a solve's output targets as the lane records into
//                                   them: the rows of its components (saved states and
//                                   counters; summaries, observables and events need the
//                                   whole state at once and are not taken)
//
// The method, controller and loop run unchanged on a lane's share, every lane taking the
// same steps: their decisions depend only on the norm and finiteness, which every lane
// gets alike (a butterfly sum gives every lane the same bits, as addition commutes). The
// results differ from one thread's by the norm's order of summation, and where rhs_at's
// branch for a run of components associates sums or products other than rhs does (not in
// the catalogue's systems: tests/codegen/catalogue_values.cpp).

#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/lane_group.hpp"
#include "cubie/linear/lane_parts.hpp"
#include "cubie/loop/integration_settings.hpp"
#include "cubie/outputs/output_recorder.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

template <class T, int N, class Group>
struct lane_state : lane_part<T, N, Group::size> {
    using slots_type = lane_part<T, N, Group::size>;
    static constexpr int whole_size = N;

    /// Every lane gets the sum of every lane's value: a butterfly.
    template <class U>
    CUBIE_HD static U sum_over_lanes(U value) {
        const Group group = Group::of_this_thread();
        CUBIE_UNROLL
        for (int mask = 1; mask < Group::size; mask *= 2) value += group.exchange(value, mask);
        return value;
    }
    CUBIE_HD static bool all_lanes(bool value) { return sum_over_lanes(value ? 0 : 1) == 0; }
};

/// The lanes of a group that each thread finds its own of (tile_lanes::of_this_thread).
template <class Group>
concept lane_group_of_thread = lane_group<Group> && requires {
    { Group::of_this_thread() } -> std::same_as<Group>;
};

template <ode_system System, lane_group_of_thread Group>
requires has_rhs_at<System>
struct lane_system;

/// A lane's share of the state (systems/ode_system.hpp's state_t).
template <class System, class Group>
auto state_of(const lane_system<System, Group>*)
    -> lane_state<typename System::value_type, System::n_states, Group>;

template <ode_system System, lane_group_of_thread Group>
requires has_rhs_at<System>
struct lane_system {
    using value_type = typename System::value_type;
    static constexpr int lanes = Group::size;
    using state_type = state_t<lane_system>;
    static constexpr int slots = static_cast<int>(size_of<typename state_type::slots_type>);
    static constexpr int n_states = slots;
    static constexpr int n_parameters = System::n_parameters;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = System::n_drivers;

    System system;
    /// The whole state, slots * lanes values in memory the group's lanes share.
    value_type* whole;

    /// Component `i` of the system: the one slot `slot` of this lane holds.
    CUBIE_HD static int component(int lane, int slot) { return lane + slot * lanes; }

    CUBIE_HD void rhs(value_type t, const state_type& y, const parameters_t<lane_system>& p,
                      const drivers_t<lane_system>& d, state_type& dydt) const {
        const Group group = Group::of_this_thread();
        const int lane = group.lane();
        group.sync();  // every lane has read the last state
        CUBIE_UNROLL
        for (int m = 0; m < slots; ++m) whole[component(lane, m)] = y[m];
        group.sync();
        const value_type* state = whole;
        CUBIE_UNROLL
        for (int m = 0; m < slots; ++m) {
            const int i = component(lane, m);
            dydt[m] = i < System::n_states ? system.rhs_at(i, t, state, p, d) : value_type(0);
        }
    }
};

/// Settings `s` of System (for Algorithm, or Algorithm on its lanes) as lane `lane` of a
/// lane_system<System, Group> takes them for Method: its components' tolerances (slots past
/// the last component weigh nothing: their values stay 0), the rest as they are.
template <lane_group_of_thread Group, stepper Method, stepper Algorithm, step_controller Controller,
          ode_system System>
CUBIE_HD integration_settings<Method, Controller, lane_system<System, Group>> lane_settings(
    const integration_settings<Algorithm, Controller, System>& s, int lane) {
    using shared = lane_system<System, Group>;
    integration_settings<Method, Controller, shared> mine{
        s.t0,        s.t_end,       s.dt,      s.dt_min, s.dt_max,     s.duration,
        s.max_steps, s.fixed_steps, s.last_dt, {},       s.controller, s.drivers};
    CUBIE_UNROLL
    for (int m = 0; m < shared::slots; ++m) {
        const int v = shared::component(lane, m);
        mine.tol.atol[m] = v < System::n_states ? s.tol.atol[v] : typename System::value_type(1);
        mine.tol.rtol[m] = v < System::n_states ? s.tol.rtol[v] : typename System::value_type(0);
    }
    return mine;
}

/// The output targets of System's solve as lane `lane` of Shared (a lane_system) records
/// into them: its components' rows of the saved states, the saves' grid and counters as
/// they are (every lane writes the same counts).
template <class Shared, ode_system System, class... Outputs>
CUBIE_HD output_targets<Shared, Outputs...> lane_targets(
    const output_targets<System, Outputs...>& whole, int lane) {
    using layout = output_layout<System, Outputs...>;
    static_assert(!layout::summarises && !layout::saves_observables && !layout::watches,
                  "with the state dealt out over lanes a solve saves states and counters: "
                  "summaries, observables and events need the whole state (take "
                  "on_lanes<Method, 1>)");
    output_targets<Shared, Outputs...> mine;
    mine.saves = whole.saves;
    mine.rows_per_save = whole.rows_per_save;
    mine.saved = whole.saved;
    mine.save_offset = whole.save_offset;
    mine.states_in_order = false;  // a lane's components are lanes apart
    mine.saved_counters = whole.saved_counters;
    CUBIE_UNROLL
    for (int m = 0; m < Shared::slots; ++m) {
        const int v = Shared::component(lane, m);
        mine.state_row[m] = v < System::n_states ? whole.state_row[v] : -1;
        mine.state_offset[m] = v < System::n_states ? whole.state_offset[v] : -1;
    }
    return mine;
}

}  // namespace cubie

template <class T, int N, class Group>
struct cuda::std::tuple_size<cubie::lane_state<T, N, Group>>
    : cuda::std::tuple_size<cubie::lane_part<T, N, Group::size>> {};
