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
//                                   components by the system's rhs_at (generated); its
//                                   observables are the lane's share of the system's,
//                                   dealt out as the states are, evaluated from the
//                                   whole state gathered the same way
//   dealt_out_rows                  where a lane's summarised states and observables go
//                                   in a summary window's rows (outputs/summary_windows.hpp)
//   lane_settings(s, lane)          a solve's settings as the lane takes them: its
//                                   components' tolerances
//   lane_targets(targets, lane)     a solve's output targets as the lane records into
//                                   them: the rows of its components' saves and summaries,
//                                   and the counters (events, which stop every lane at a
//                                   root of the whole state, are not taken)
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

/// The row variables of a lane's summarised values (a lane_system's summary_rows, which
/// outputs/output_layout.hpp's summary_rows_of looks up): its NStates / G state slots, then its
/// NObservables / G observable slots (rounded up), each the component it holds, states before
/// observables; none for a slot past the last component.
template <int NStates, int NObservables, lane_group_of_thread Group>
struct dealt_out_rows {
    static constexpr int state_slots = (NStates + Group::size - 1) / Group::size;
    static constexpr int observable_slots = (NObservables + Group::size - 1) / Group::size;
    static constexpr int held = state_slots + observable_slots;
    static constexpr int variables = NStates + NObservables;
    CUBIE_HD static int of(int v) {
        const int lane = Group::of_this_thread().lane();
        if (v < state_slots) {
            const int i = lane + v * Group::size;
            return i < NStates ? i : -1;
        }
        const int j = lane + (v - state_slots) * Group::size;
        return j < NObservables ? NStates + j : -1;
    }
};

template <ode_system System, lane_group_of_thread Group>
requires has_rhs_at<System>
struct lane_system {
    using value_type = typename System::value_type;
    static constexpr int lanes = Group::size;
    using state_type = state_t<lane_system>;
    static constexpr int slots = static_cast<int>(size_of<typename state_type::slots_type>);
    static constexpr int n_states = slots;
    static constexpr int n_parameters = System::n_parameters;
    /// The lane's share of the system's observables, where it has them.
    static constexpr int n_observables =
        has_observables<System> ? (System::n_observables + lanes - 1) / lanes : 0;
    static constexpr int n_drivers = System::n_drivers;
    using summary_rows = dealt_out_rows<System::n_states,
                                        has_observables<System> ? System::n_observables : 0, Group>;

    System system;
    /// The whole state, slots * lanes values in memory the group's lanes share.
    value_type* whole;

    /// Component `i` of the system: the one slot `slot` of this lane holds.
    CUBIE_HD static int component(int lane, int slot) { return lane + slot * lanes; }

    CUBIE_HD void rhs(value_type t, const state_type& y, const parameters_t<lane_system>& p,
                      const drivers_t<lane_system>& d, state_type& dydt) const {
        const int lane = gather(y);
        const value_type* state = whole;
        CUBIE_UNROLL
        for (int m = 0; m < slots; ++m) {
            const int i = component(lane, m);
            dydt[m] = i < System::n_states ? system.rhs_at(i, t, state, p, d) : value_type(0);
        }
    }

    /// Observable j of the system in slot m of lane j - m G: every lane evaluates them all
    /// from the whole state (a system's observables are few and need not have a component
    /// form), then keeps its own by selects, which stay in registers where an index that
    /// depends on the lane would not. The whole state is copied for the system's
    /// observables(): a system whose observables index it in loops that do not unroll would
    /// keep that copy in local memory, on every lane.
    CUBIE_HD void observables(value_type t, const state_type& y, const parameters_t<lane_system>& p,
                              const drivers_t<lane_system>& d, observables_t<lane_system>& out)
        const requires has_observables<System> {
        const int lane = gather(y);
        state_t<System> state;
        CUBIE_UNROLL
        for (int i = 0; i < System::n_states; ++i) state[i] = whole[i];
        observables_t<System> all{};
        system.observables(t, state, p, d, all);
        CUBIE_UNROLL
        for (int m = 0; m < n_observables; ++m) {
            value_type mine(0);
            CUBIE_UNROLL
            for (int j = 0; j < System::n_observables; ++j)
                mine = j == component(lane, m) ? all[j] : mine;
            out[m] = mine;
        }
    }

private:
    /// Writes the lane's components into the whole state, once every lane has read the last
    /// one, and waits for every lane's: the calling lane.
    CUBIE_HD int gather(const state_type& y) const {
        const Group group = Group::of_this_thread();
        const int lane = group.lane();
        group.sync();
        CUBIE_UNROLL
        for (int m = 0; m < slots; ++m) whole[component(lane, m)] = y[m];
        group.sync();
        return lane;
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
/// into them: its components' rows of the saved states and observables, the saves' and
/// samples' grids, the counters and the summaries as they are (every lane writes the same
/// counts; a lane's summary windows write its own rows, dealt_out_rows).
template <class Shared, ode_system System, class... Outputs>
CUBIE_HD output_targets<Shared, Outputs...> lane_targets(
    const output_targets<System, Outputs...>& whole, int lane) {
    static_assert(!output_layout<System, Outputs...>::watches,
                  "with the state dealt out over lanes a solve watches no events, which stop "
                  "every lane at a root of the whole state (take on_lanes<Method, 1>)");
    output_targets<Shared, Outputs...> mine;
    mine.saves = whole.saves;
    mine.rows_per_save = whole.rows_per_save;
    mine.saved = whole.saved;
    mine.save_offset = whole.save_offset;
    mine.states_in_order = false;  // a lane's components are lanes apart
    mine.saved_counters = whole.saved_counters;
    mine.samples = whole.samples;
    mine.samples_per_window = whole.samples_per_window;
    mine.n_windows = whole.n_windows;
    mine.summaries = whole.summaries;
    CUBIE_UNROLL
    for (int m = 0; m < Shared::slots; ++m) {
        const int v = Shared::component(lane, m);
        mine.state_row[m] = v < System::n_states ? whole.state_row[v] : -1;
        mine.state_offset[m] = v < System::n_states ? whole.state_offset[v] : -1;
    }
    CUBIE_UNROLL
    for (int m = 0; m < Shared::n_observables; ++m) {
        const int j = Shared::component(lane, m);
        mine.observable_row[m] = j < System::n_observables ? whole.observable_row[j] : -1;
        mine.observable_offset[m] = j < System::n_observables ? whole.observable_offset[j] : -1;
    }
    return mine;
}

}  // namespace cubie

template <class T, int N, class Group>
struct cuda::std::tuple_size<cubie::lane_state<T, N, Group>>
    : cuda::std::tuple_size<cubie::lane_part<T, N, Group::size>> {};
