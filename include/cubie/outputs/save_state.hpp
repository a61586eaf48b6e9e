#pragma once
// save_state: the output policy that records every trajectory's state at regular times,
//   t0 + k save_every,  k = 1, 2, ... while <= t_end,
// plus t0 (save_initial) and t_end (save_final) on request. Times are computed from k, never
// accumulated, so float rounding can neither drop nor duplicate a point. Adaptive methods
// shorten the step that would pass a save time so that it lands on it; with fixed steps,
// save_every must be a whole number of steps.
//
// Saved states are laid out [save][state][trajectory] (the trajectory index fastest, so a
// warp's stores coalesce).

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cubie/core/batch_view.hpp"
#include "cubie/core/config.hpp"
#include "cubie/core/invalid_setting.hpp"
#include "cubie/systems/ode_system.hpp"

namespace cubie {

/// Output policy: request saved states (solver<System, Algorithm, Controller, save_state>).
struct save_state {};

/// Save times of a solve, in the working precision; the same for every trajectory.
template <class T>
struct save_schedule {
    T t0 = 0;
    T t_end = 0;
    T save_every = 0;
    std::uint32_t first_k = 1;  ///< 0 when t0 itself is saved
    std::uint32_t last_k = 0;   ///< largest k with t0 + k save_every <= t_end
    bool final_point = false;   ///< t_end saved after the regular points

    CUBIE_HD std::uint32_t count() const {
        return (last_k + 1 - first_k) + (final_point ? 1u : 0u);
    }
    /// Time of save number `index` (0-based). Rounding in the working precision may put
    /// t0 + k save_every just past t_end, where no step would reach it: clamped.
    CUBIE_HD T time(std::uint32_t index) const {
        const std::uint32_t k = first_k + index;
        return k <= last_k ? cuda::std::fmin(t0 + T(k) * save_every, t_end) : t_end;
    }
};

/// The save times for settings t0, t_end, save_every, save_initial, save_final (double,
/// as the user gave them). Throws std::invalid_argument for an unusable save_every.
template <class T>
save_schedule<T> make_save_schedule(double t0, double t_end, double save_every, bool save_initial,
                                    bool save_final) {
    if (!(save_every > 0) || !std::isfinite(save_every))
        invalid_setting("save_every", save_every,
                        "must be positive and finite when states are saved");
    const double duration = t_end - t0;
    // The largest k with k save_every <= duration, forgiving the rounding of the ratio.
    const double ratio = duration / save_every;
    double last = std::floor(ratio);
    if (ratio - last > 1 - 1e-9) last += 1;
    if (last > std::numeric_limits<std::uint32_t>::max() - 2)
        invalid_setting("save_every", save_every, "gives more than 2^32 save points");
    save_schedule<T> s;
    s.t0 = T(t0);
    s.t_end = T(t_end);
    s.save_every = T(save_every);
    s.first_k = save_initial ? 0 : 1;
    s.last_k = static_cast<std::uint32_t>(last);
    const double last_time = t0 + last * save_every;
    s.final_point =
        save_final && std::abs(t_end - last_time) > 1e-9 * std::max(1.0, std::abs(t_end));
    if (s.count() == 0)
        invalid_setting("save_every", save_every,
                        "is longer than the interval and neither save_initial nor save_final is "
                        "set: nothing would be saved");
    return s;
}

/// Per-trajectory recorder: writes the state at each save time into [save][state][traj].
template <ode_system System>
struct state_recorder {
    using T = typename System::value_type;
    static constexpr bool records = true;

    save_schedule<T> schedule;
    batch_view<T> saved;  ///< n_variables = saves x n_states
    std::size_t trajectory;
    std::uint32_t next = 0;

    CUBIE_HD T next_time() const {
        return next < schedule.count() ? schedule.time(next)
                                       : cuda::std::numeric_limits<T>::infinity();
    }
    CUBIE_HD void record(const state_t<System>& y) {
        CUBIE_UNROLL
        for (int v = 0; v < System::n_states; ++v)
            saved(static_cast<int>(next) * System::n_states + v, trajectory) = y[v];
        ++next;
    }
};

/// The recorder of a solve that saves nothing: never asks for a state, and the loop
/// compiles no check for one (records == false).
template <ode_system System>
struct no_recorder {
    using T = typename System::value_type;
    static constexpr bool records = false;
    CUBIE_HD T next_time() const { return cuda::std::numeric_limits<T>::infinity(); }
    CUBIE_HD void record(const state_t<System>&) {}
};

}  // namespace cubie
