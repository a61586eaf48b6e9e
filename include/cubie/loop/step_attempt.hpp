#pragma once
// One attempted step of a stepper (algorithms/stepper.hpp), as both loops take it: the
// method's step, or step_with_error when given tolerances, with the dense stages when the
// loop interpolates and an implicit_step_report when the method is implicit.

#include <cuda/std/array>
#include <cuda/std/cmath>

#include "cubie/algorithms/stepper.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/dealt_out_state.hpp"
#include "cubie/core/step_counters.hpp"
#include "cubie/linear/implicit_step_report.hpp"

namespace cubie::detail {

/// The stage derivatives an interpolating loop keeps across a step; nothing otherwise.
template <class Algorithm, class State, bool Interpolates>
struct dense_stages_of {
    struct type {};
};
template <class Algorithm, class State>
struct dense_stages_of<Algorithm, State, true> {
    using type = typename Algorithm::template dense_stages_t<State>;
};

template <class T, cuda::std::size_t N>
CUBIE_HD bool all_finite(const cuda::std::array<T, N>& v) {
    bool ok = true;
    if constexpr (N > 0) {
        CUBIE_UNROLL
        for (cuda::std::size_t i = 0; i < N; ++i) ok = ok && cuda::std::isfinite(v[i]);
    }
    return ok;
}

/// A state dealt out over lanes is finite where every lane's share is.
template <dealt_out_state State>
CUBIE_HD bool all_finite(const State& v) {
    return State::all_lanes(all_finite(static_cast<const typename State::slots_type&>(v)));
}

/// Returns the error norm (0 for `step`); adds an implicit method's work to the counters
/// and keeps why it failed in `failure`.
template <class Algorithm, class... Tail, class F, class T, class State>
CUBIE_HD T attempt_step(const F& f, T t, T h, const State& y, const State& dydt, State& y_new,
                        State& dydt_new, step_counters& counters, step_failure& failure,
                        Tail&... tail) {
    if constexpr (is_implicit<Algorithm>()) {
        implicit_step_report report{};
        T err = 0;
        if constexpr (sizeof...(Tail) == 0)
            Algorithm::step(f, t, h, y, dydt, y_new, dydt_new, report);
        else
            err = Algorithm::step_with_error(f, t, h, y, dydt, y_new, dydt_new, tail..., report);
        counters.newton_iterations += report.newton_iterations;
        counters.linear_iterations += report.linear_iterations;
        failure = report.failure;
        return err;
    } else if constexpr (sizeof...(Tail) == 0) {
        Algorithm::step(f, t, h, y, dydt, y_new, dydt_new);
        return T(0);
    } else {
        return Algorithm::step_with_error(f, t, h, y, dydt, y_new, dydt_new, tail...);
    }
}

}  // namespace cubie::detail
