#pragma once
// How many GPU lanes integrate one trajectory: the mapping of trajectories to threads.
//
//   rodas5p                       one thread per trajectory, or G lanes where the system is
//                                 large and dense enough (mapped_algorithm below: Rosenbrock
//                                 methods)
//   kvaerno5                      one thread per trajectory (DIRK: lanes only when named)
//   on_lanes<rodas5p, 8>          8 lanes of a warp per trajectory, whatever the system
//   on_lanes<rodas5p, 1>          one thread per trajectory, whatever the system
//   tsit5                         one thread per trajectory, or 4 to 32 lanes with the state
//                                 dealt out for larger systems (Lorenz 96 in float from 59
//                                 sites, from 27 keeping each site's mean and extrema:
//                                 mapped_algorithm below)
//   on_lanes<tsit5, 32>           32 lanes per trajectory, each holding 1/32 of the state
//
// Under G lanes (the cooperative mapping) the lanes of a tile (linear/lane_group.hpp) run
// the same loop, controller and outputs on the whole state, every lane holding the same
// values; the method's work that grows with the system's size beyond the right-hand side
// (the rows of the Jacobian, its LU, the stages) is dealt out to the lanes, which meet at
// warp shuffles. A 20-state stiff system's dense Jacobian and LU (400 elements) do not fit
// one thread's registers; dealt out to 4 lanes, each lane factors 5 rows (every lane still
// evaluates J whole, and keeps its rows). Methods that can do so say `cooperative = true`
// and take a lane group first in their step functions: rosenbrock, dirk with direct_lu,
// and implicit Runge-Kutta (Radau IIA, Gauss-Legendre), whose dense stages every lane holds.
// Those measured faster on lanes also say `lanes_by_default = true` (rosenbrock): the
// solver then maps them by the system's size.
//
// An explicit method on G lanes deals the state out instead (loop/lane_system.hpp):
// lane l holds components l, l + G, ..., evaluates their derivatives (the system's
// rhs_at, from the whole state gathered in shared memory) and takes the method's stages
// for them alone; the loop and controller run on each lane's share, with the error norm
// and the finiteness checks taken over the lanes. Lorenz 96 at 128 sites on 32 lanes holds
// 4 values of each vector per lane, where one thread spills all 128. The batch kernel
// (backends/cuda.hpp) gives each tile its shared memory. A lane saves and summarises its own
// components, and its share of the observables, which every lane evaluates from the whole
// state; events, whose roots stop the whole state, are not taken on such lanes.
//
// The host backend integrates a trajectory on one thread whatever the mapping: on_lanes
// changes nothing there. On the device every lane of a cooperative method's tile stores the
// same outputs; with the state dealt out, each lane stores its own components.
//
// On the device, on_lanes<Algorithm, G > 1> takes its tile from the calling thread's place
// in its block (tile_lanes::of_this_thread): it expects the batch kernel's layout, G
// consecutive threads of a block per trajectory, all of them integrating it to the end.
// A kernel of one's own that calls integrate() per thread takes the plain method.

#include <cuda/std/type_traits>

#include "cubie/algorithms/stepper.hpp"
#include "cubie/controllers/error_norm.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/thread_shared.hpp"
#include "cubie/linear/implicit_step_report.hpp"
#include "cubie/linear/iteration_lu.hpp"
#include "cubie/linear/lane_group.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

/// Methods whose steps lanes can take together (a lane_group first in their calls).
template <class Algorithm>
constexpr bool is_cooperative() {
    return requires {
        requires Algorithm::cooperative;
    };
}

/// Cooperative methods that the solver maps to lanes when the mapping is not named
/// (`lanes_by_default = true`): those measured faster so.
template <class Algorithm>
constexpr bool lanes_by_default() {
    return is_cooperative<Algorithm>() && requires {
        requires Algorithm::lanes_by_default;
    };
}

/// Whether Algorithm's variant that keeps values in shared memory keeps them on several
/// lanes too (`thread_shared_on_lanes = true`: dirk's stage derivatives, which every lane
/// holds whole in its own words). The factor variants of rosenbrock and implicit Runge-Kutta
/// methods keep a thread's factors, where lanes share their matrices' rows in registers
/// (cooperative_lu): on lanes they would hold shared memory they do not use.
template <class Algorithm>
constexpr bool thread_shared_on_lanes() {
    return requires {
        requires Algorithm::thread_shared_on_lanes;
    };
}

template <stepper Algorithm, int Lanes>
struct on_lanes : Algorithm {
    static_assert(Lanes >= 1 && Lanes <= 32 && (Lanes & (Lanes - 1)) == 0,
                  "a trajectory takes 1, 2, 4, 8, 16 or 32 lanes of a warp");
    static_assert(Lanes == 1 || is_cooperative<Algorithm>() || !is_implicit<Algorithm>(),
                  "this method's steps are taken by one thread: use on_lanes<Algorithm, 1>");

    /// The shared memory a lane keeps for System (core/thread_shared.hpp): the method's on
    /// one lane or where it keeps it on lanes too, else none.
    template <class System>
    static constexpr int thread_shared_bytes = Lanes == 1 || thread_shared_on_lanes<Algorithm>()
                                                   ? thread_shared_bytes_of<Algorithm, System>
                                                   : 0;

    template <class F, class State, class T = typename F::value_type>
    CUBIE_HD static void step(const F& f, T t, T dt, const State& y, const State& dydt,
                              State& y_new, State& dydt_new, implicit_step_report& report) {
#if defined(__CUDA_ARCH__)
        if constexpr (Lanes > 1 && is_cooperative<Algorithm>()) {
            Algorithm::step(tile_lanes<Lanes>::of_this_thread(), f, t, dt, y, dydt, y_new, dydt_new,
                            report);
            return;
        }
#endif
        Algorithm::step(f, t, dt, y, dydt, y_new, dydt_new, report);
    }

    template <class F, class State, int N, class T = typename F::value_type>
    CUBIE_HD static T step_with_error(const F& f, T t, T dt, const State& y, const State& dydt,
                                      State& y_new, State& dydt_new, const tolerances<T, N>& tol,
                                      implicit_step_report& report) {
#if defined(__CUDA_ARCH__)
        if constexpr (Lanes > 1 && is_cooperative<Algorithm>())
            return Algorithm::step_with_error(tile_lanes<Lanes>::of_this_thread(), f, t, dt, y,
                                              dydt, y_new, dydt_new, tol, report);
#endif
        return Algorithm::step_with_error(f, t, dt, y, dydt, y_new, dydt_new, tol, report);
    }

    /// An implicit method's step that hands back its dense stages (Radau IIA's increments):
    /// every lane holds them whole.
    template <class F, class State, int N, class Stages, class T = typename F::value_type>
    requires(is_implicit<Algorithm>()) CUBIE_HD static T
        step_with_error(const F& f, T t, T dt, const State& y, const State& dydt, State& y_new,
                        State& dydt_new, const tolerances<T, N>& tol, Stages& k,
                        implicit_step_report& report) {
#if defined(__CUDA_ARCH__)
        if constexpr (Lanes > 1 && is_cooperative<Algorithm>())
            return Algorithm::step_with_error(tile_lanes<Lanes>::of_this_thread(), f, t, dt, y,
                                              dydt, y_new, dydt_new, tol, k, report);
#endif
        return Algorithm::step_with_error(f, t, dt, y, dydt, y_new, dydt_new, tol, k, report);
    }

    // An explicit method's steps, as the method takes them: on several lanes the state is
    // dealt out (loop/lane_system.hpp) before they are called. Forwarded rather than brought
    // in by using-declarations, which would also bring in an implicit method's one-lane
    // steps where their constraints differ from the ones above (dirk's), and win.
    template <class F, class State, class T = typename F::value_type>
    requires(!is_implicit<Algorithm>()) CUBIE_HD
        static void step(const F& f, T t, T dt, const State& y, const State& dydt, State& y_new,
                         State& dydt_new) {
        Algorithm::step(f, t, dt, y, dydt, y_new, dydt_new);
    }
    template <class F, class State, int N, class T = typename F::value_type>
    requires(!is_implicit<Algorithm>()) CUBIE_HD static T
        step_with_error(const F& f, T t, T dt, const State& y, const State& dydt, State& y_new,
                        State& dydt_new, const tolerances<T, N>& tol) {
        return Algorithm::step_with_error(f, t, dt, y, dydt, y_new, dydt_new, tol);
    }
    template <class F, class State, int N, class Stages, class T = typename F::value_type>
    requires(!is_implicit<Algorithm>() &&
             !cuda::std::is_same_v<Stages, implicit_step_report>) CUBIE_HD static T
        step_with_error(const F& f, T t, T dt, const State& y, const State& dydt, State& y_new,
                        State& dydt_new, const tolerances<T, N>& tol, Stages& k) {
        return Algorithm::step_with_error(f, t, dt, y, dydt, y_new, dydt_new, tol, k);
    }
};

/// Lanes per trajectory of a method as a solver takes it: on_lanes' count, else one.
template <class Algorithm>
inline constexpr int lanes_per_trajectory = 1;
template <class Algorithm, int Lanes>
inline constexpr int lanes_per_trajectory<on_lanes<Algorithm, Lanes>> = Lanes;

/// The method under a mapping: on_lanes<Algorithm, G>'s Algorithm.
template <class Algorithm>
struct unmapped {
    using type = Algorithm;
};
template <class Algorithm, int Lanes>
struct unmapped<on_lanes<Algorithm, Lanes>> {
    using type = Algorithm;
};

/// Whether a method on its lanes deals the state out over them (loop/lane_system.hpp):
/// an explicit method on several lanes. A cooperative method's lanes each hold the whole
/// state and share the linear algebra instead.
template <class Algorithm>
inline constexpr bool deals_out_state =
    lanes_per_trajectory<Algorithm> > 1 && !is_cooperative<typename unmapped<Algorithm>::type>();

/// The lanes a cooperative method takes for a system of n states when the mapping is not
/// given: one thread up to 8 states, whose Jacobian and LU still fit its registers, then
/// from 4 lanes up, enough that each holds at most 5 rows of them, up to a warp. Measured
/// on Pollution (20 states, H200, bench/RESULTS.md): 4 lanes (5 rows each) ran fastest for
/// rosenbrock23 in float and double and rodas5p in float; rodas5p in double took 14% less
/// time on 8 lanes at 2^20. 16 and 32 lanes ran slower than 4 in every case, every lane
/// evaluating f and J whole.
constexpr int automatic_lanes(int n_states) {
    if (n_states <= 8) return 1;
    int lanes = 4;
    while (lanes < 32 && (n_states + lanes - 1) / lanes > 5) lanes *= 2;
    return lanes;
}

/// The state-sized vectors an explicit method's one-thread step keeps: its stages, and the
/// loop's y, f(y), y_new and f(y_new).
template <class Algorithm>
constexpr int state_vectors_of() {
    if constexpr (requires { Algorithm::stages; })
        return Algorithm::stages + 4;
    else
        return 4;
}

/// Past how many registers' worth of values (n_states times the values a step keeps per
/// state: state_vectors_of, and what recording adds, twice that in double) an explicit
/// method deals the state out over lanes when the mapping is not given: about 2.5 times a
/// thread's 255 registers. With dealt_out_lane_values, measured on Lorenz 96 (H200, 2^17
/// trajectories, 16 to 64 sites, float and double, Tsit5 and RK4, final states and summaries,
/// and final states at 128 sites: 52 points, bench/RESULTS.md): the mapping taken ran within
/// 10% of the fastest of one thread and tiles of 4 to 32 lanes at 44 of them, 1.07 times the
/// fastest on the geometric mean, 2.38 at worst (float Tsit5 at 56 sites stays on one
/// thread). RK4 keeps fewer values than it is counted for (one thread ran 1.4 and 1.7 times
/// as fast as the tile taken at 48 sites in double, and with summaries in float), Tsit5 more.
inline constexpr int dealt_out_past_values = 640;

/// The most values a lane of a tile keeps (its slots times the values per state, twice in
/// double): the mapping takes the fewest lanes, from 4, whose share stays within it, else 32.
/// Fewer lanes ran as fast or faster while their share fit: every lane runs the loop and
/// the controller, and lanes past the last component idle in their last slot (16 lanes ran
/// up to 1.8 times as long as 4 or 8 where all kept no more, 32 lanes up to 4.4 times below
/// 64 sites). Lanes that kept more spilled: 4 lanes of double Tsit5 with summaries at 56 and
/// 64 sites ran 3.6 and 4.1 times as long as 8 lanes, though 8 lanes too keep more there
/// (336 and 384 values) and were the fastest, where the bound takes 16 (1.34 and 1.10 times
/// as long). Bounds from 272 to 336 did as well on these points (44 of 52 within 10% of the
/// fastest), 352 to 464 worse (41 to 39), larger bounds worse still (bench/RESULTS.md).
inline constexpr int dealt_out_lane_values = 320;

/// The lanes an explicit method deals the state of n_states out over, each state keeping
/// `values` values (counted twice in double): 1 where one thread holds them
/// (dealt_out_past_values), else the fewest lanes by dealt_out_lane_values.
constexpr int dealt_out_lanes(int n_states, int values) {
    if (n_states * values <= dealt_out_past_values) return 1;
    int lanes = 4;
    while (lanes < 32 && (n_states + lanes - 1) / lanes * values > dealt_out_lane_values)
        lanes *= 2;
    return lanes;
}

namespace detail {
template <class System, class Algorithm, bool DealsOut, int RecordedValues>
struct mapped {
    static constexpr int lanes = [] {
        if constexpr (lanes_by_default<Algorithm>())
            return factored_in_pattern<System> ? 1 : automatic_lanes(System::n_states);
        else if constexpr (DealsOut && !is_implicit<Algorithm>() && has_rhs_at<System>)
            return dealt_out_lanes(System::n_states,
                                   (state_vectors_of<Algorithm>() + RecordedValues) *
                                       int(sizeof(typename System::value_type) / 4));
        else
            return 1;
    }();
    using type = cuda::std::conditional_t<(lanes > 1), on_lanes<Algorithm, lanes>, Algorithm>;
};
template <class System, class Algorithm, int Lanes, bool DealsOut, int RecordedValues>
struct mapped<System, on_lanes<Algorithm, Lanes>, DealsOut, RecordedValues> {
    using type = on_lanes<Algorithm, Lanes>;
};
}  // namespace detail

/// The method a solver integrates System with: Algorithm under the mapping it names
/// (on_lanes), else under the automatic one: automatic_lanes for the methods that take
/// lanes by default, one thread for the others and for systems whose iteration matrices
/// are factored in their sparsity pattern (linear/iteration_lu.hpp), whose factors fit a
/// thread's registers; explicit methods with the state dealt out over dealt_out_lanes where
/// the system has rhs_at and the outputs allow it (`DealsOut`: no events, which stop the
/// whole state at their roots), `RecordedValues` the values per state that the solve's
/// recording adds to a step's (summaries' accumulators, a dense output's stages).
template <class System, class Algorithm, bool DealsOut = true, int RecordedValues = 0>
using mapped_algorithm = typename detail::mapped<System, Algorithm, DealsOut, RecordedValues>::type;

/// On one lane, the method's variant that keeps values in shared memory; on several, that
/// variant where it keeps them on lanes too, else the method itself.
template <class Algorithm, int Lanes, class System>
struct thread_shared_variant<on_lanes<Algorithm, Lanes>, System> {
    using variant = thread_shared_variant_t<Algorithm, System>;
    using type = on_lanes<cuda::std::conditional_t<Lanes == 1 || thread_shared_on_lanes<variant>(),
                                                   variant, Algorithm>,
                          Lanes>;
};

}  // namespace cubie
