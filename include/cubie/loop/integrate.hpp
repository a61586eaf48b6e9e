#pragma once
// integrate(): one trajectory from t0 to t_end. Public, __host__ __device__: the batch
// backends call it once per trajectory, and users may call it from their own kernels.
//
// The loop keeps f(t, y) between steps: a rejected step never re-evaluates it, and FSAL
// methods take it from their last stage. Time of fixed step i is t0 + i dt (never an
// accumulated sum), and the last step lands exactly on t_end.

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "cubie/controllers/controller.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/status.hpp"
#include "cubie/loop/integration_settings.hpp"
#include "cubie/loop/right_hand_side.hpp"
#include "cubie/loop/step_counters.hpp"
#include "cubie/outputs/save_state.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

namespace detail {

template <class T, cuda::std::size_t N>
CUBIE_HD bool all_finite(const cuda::std::array<T, N>& v) {
    bool ok = true;
    if constexpr (N > 0) {
        CUBIE_UNROLL
        for (cuda::std::size_t i = 0; i < N; ++i) ok = ok && cuda::std::isfinite(v[i]);
    }
    return ok;
}

}  // namespace detail

/// Integrates y from settings.t0 to settings.t_end. On return y holds the state at t_end,
/// or the last finite state reached when the status is not success.
///
/// The recorder (outputs/save_state.hpp) names the next time it needs the state at,
/// next_time(), and takes it, record(y); one whose `records` is false costs nothing. Adaptive steps
/// are shortened to land on those times; fixed steps reach them within half a step (save times are
/// whole numbers of steps). Save times after a failure are never recorded.
template <class Algorithm, step_controller Controller, ode_system System, class Recorder>
CUBIE_HD status integrate(const System& sys,
                          const integration_settings<Algorithm, Controller, System>& s,
                          state_t<System>& y, const parameters_t<System>& p,
                          step_counters& counters, Recorder& recorder) {
    using T = typename System::value_type;
    if (!detail::all_finite(y) || !detail::all_finite(p)) return status::nonfinite_input;
    const right_hand_side<System> f{sys, p, s.drivers};
    if constexpr (Recorder::records)
        while (recorder.next_time() <= s.t0) recorder.record(y);

    state_t<System> dydt{}, y_new{}, dydt_new{};

    if constexpr (!Controller::adaptive) {
        // Every step but the last has the same dt, so the products of dt and the tableau's
        // coefficients are loop invariants; the last step lands on t_end.
        const std::uint32_t n = s.fixed_steps;
        if (n == 0) return status::success;
        [[maybe_unused]] const T half_step = s.dt / T(2);
        auto fixed_step_from = [&](T t, T h) {
            if constexpr (!Algorithm::fsal) f(t, y, dydt);
            Algorithm::step(f, t, h, y, dydt, y_new, dydt_new);
            if (!detail::all_finite(y_new)) return false;
            y = y_new;
            if constexpr (Algorithm::fsal) dydt = dydt_new;
            ++counters.accepted;
            if constexpr (Recorder::records)
                while (recorder.next_time() <= t + h + half_step) recorder.record(y);
            return true;
        };
        if constexpr (Algorithm::fsal) f(s.t0, y, dydt);
            // Two steps per iteration on the device: 10% faster for RK4 on Lorenz at N >= 2^20
            // (bench/RESULTS.md), at some cost for batches too small to fill the device.
#if defined(__CUDA_ARCH__)
#pragma unroll 2
#endif
        for (std::uint32_t i = 0; i + 1 < n; ++i)
            if (!fixed_step_from(s.t0 + T(i) * s.dt, s.dt)) return status::nonfinite_state;
        const T t_last = s.t0 + T(n - 1) * s.dt;
        if (!fixed_step_from(t_last, s.t_end - t_last)) return status::nonfinite_state;
        return status::success;
    } else {
        bool dydt_current = false;  // f(t, y) already known? (kept across rejections)
        auto derivative_at = [&](T t) {
            if (!dydt_current) f(t, y, dydt);
            dydt_current = true;
        };
        // After an accepted step: FSAL methods hand over f(t_new, y_new).
        auto advance = [&]() {
            y = y_new;
            if constexpr (Algorithm::fsal) dydt = dydt_new;
            dydt_current = Algorithm::fsal;
            ++counters.accepted;
        };
        typename Controller::template state<T> controller_state{};
        T t = s.t0;
        T dt = cuda::std::fmin(s.dt, s.dt_max);
        bool last_failure_nonfinite = false;
        while (t < s.t_end) {
            if (counters.accepted + counters.rejected >= s.max_steps)
                return status::max_steps_exceeded;
            // Land on the next stop, t_end or a save time; stretch by up to 1% rather than
            // leave a sliver (Hairer).
            T t_stop = s.t_end;
            if constexpr (Recorder::records) t_stop = cuda::std::fmin(t_stop, recorder.next_time());
            const bool to_stop = t + T(1.01) * dt >= t_stop;
            const T h = to_stop ? t_stop - t : dt;
            derivative_at(t);
            const T err = Algorithm::step_with_error(f, t, h, y, dydt, y_new, dydt_new, s.tol);
            const bool finite = cuda::std::isfinite(err) && detail::all_finite(y_new);
            const step_decision<T> decision =
                Controller::decide(s.controller, controller_state, h,
                                   finite ? err : cuda::std::numeric_limits<T>::quiet_NaN());
            last_failure_nonfinite = !finite;
            T dt_next = decision.factor * h;
            if (decision.accept) {
                advance();
                t = to_stop ? t_stop : t + h;
                if constexpr (Recorder::records)
                    while (recorder.next_time() <= t) recorder.record(y);
                if (t >= s.t_end) break;
                // A step shortened to reach a save time says nothing against the step
                // the controller had proposed.
                if (to_stop) dt_next = cuda::std::fmax(dt_next, dt);
            } else {
                ++counters.rejected;
            }
            dt = cuda::std::fmin(dt_next, s.dt_max);
            if (dt < s.dt_min || t + dt == t)
                return last_failure_nonfinite ? status::nonfinite_state
                                              : status::step_size_underflow;
        }
        return status::success;
    }
}

/// Integrates y from settings.t0 to settings.t_end, recording nothing on the way.
template <class Algorithm, step_controller Controller, ode_system System>
CUBIE_HD status integrate(const System& sys,
                          const integration_settings<Algorithm, Controller, System>& s,
                          state_t<System>& y, const parameters_t<System>& p,
                          step_counters& counters) {
    no_recorder<System> nothing;
    return integrate<Algorithm, Controller>(sys, s, y, p, counters, nothing);
}

}  // namespace cubie
