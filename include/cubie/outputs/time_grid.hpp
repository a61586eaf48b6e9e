#pragma once
// The times outputs are taken at: t0 + k every for k = first_k .. last_k, plus t_end on
// request; and the same times since t0. Times are computed from k, never accumulated, so float
// rounding can neither drop nor duplicate a point. Saved series and summary samples each have one
// grid, the same for every trajectory.
//
// With fixed steps every is a whole number of steps (checked on the host), so each point is
// also a count of steps taken, known before the solve: the fixed-step loop compares counts,
// never times (step_or_never).

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "cubie/core/config.hpp"
#include "cubie/core/invalid_setting.hpp"

namespace cubie {

template <class T>
struct time_grid {
    T t0 = 0;
    T t_end = 0;
    T every = 0;
    T span = 0;                 ///< t_end - t0, computed in double and rounded once
    std::uint32_t first_k = 1;  ///< 0 when t0 itself is a point
    std::uint32_t last_k = 0;   ///< largest k with t0 + k every <= t_end
    bool final_point = false;   ///< t_end after the regular points
    /// Fixed-step solves only: every as a whole number of steps (at most 2^32 - 1: any
    /// more and only k = 0 is a regular point).
    std::uint32_t every_steps = 0;

    CUBIE_HD std::uint32_t count() const {
        return (last_k + 1 - first_k) + (final_point ? 1u : 0u);
    }
    /// Time of point `index` (0-based). Rounding in the working precision may put
    /// t0 + k every just past t_end, where no step would reach it: clamped.
    CUBIE_HD T time(std::uint32_t index) const {
        const std::uint32_t k = first_k + index;
        return k <= last_k ? cuda::std::fmin(t0 + T(k) * every, t_end) : t_end;
    }
    /// Time of point `index`, or +infinity past the last one. Asked after every output:
    /// decided on k alone, without count().
    CUBIE_HD T time_or_never(std::uint32_t index) const {
        const std::uint32_t k = first_k + index;
        if (k <= last_k) return cuda::std::fmin(t0 + T(k) * every, t_end);
        return final_point && k == last_k + 1 ? t_end : cuda::std::numeric_limits<T>::infinity();
    }
    /// Time of point `index` since t0, or +infinity past the last one: k every, or the
    /// span for t_end, never rounded through t0 (the adaptive loop runs on the time since
    /// t0, and far from t = 0 time(index) - t0 could be off by half a spacing of t).
    CUBIE_HD T since_t0_or_never(std::uint32_t index) const {
        const std::uint32_t k = first_k + index;
        if (k <= last_k) return cuda::std::fmin(T(k) * every, span);
        return final_point && k == last_k + 1 ? span : cuda::std::numeric_limits<T>::infinity();
    }
    /// Fixed steps: the number of steps of n_steps (the last may be shorter) taken when point
    /// `index` is due, or never() past the last point. k every_steps, or n_steps where that
    /// passes it (time() clamps such a point to t_end); n_steps for t_end. 64 bits: n_steps
    /// may be 2^32 - 1, and never() must differ from every count.
    CUBIE_HD std::uint64_t step_or_never(std::uint32_t index, std::uint32_t n_steps) const {
        const std::uint32_t k = first_k + index;
        if (k <= last_k) {
            const std::uint64_t step = std::uint64_t{k} * every_steps;
            return step < n_steps ? step : n_steps;
        }
        return final_point && k == last_k + 1 ? n_steps : never();
    }
    CUBIE_HD static constexpr std::uint64_t never() { return ~std::uint64_t{0}; }
};

/// The largest whole k with k * every <= duration, forgiving the rounding of the ratio
/// (double, as the user gave the settings). `setting` names `every` in errors.
inline std::uint32_t whole_intervals(double duration, double every, const char* setting) {
    const double ratio = duration / every;
    double last = std::floor(ratio);
    if (ratio - last > 1 - 1e-9) last += 1;
    if (!(last <= std::numeric_limits<std::uint32_t>::max() - 2))
        invalid_setting(setting, every,
                        "gives " + format_count(last) + " points, more than the limit of 2^32 - 3");
    return static_cast<std::uint32_t>(last);
}

/// How far a ratio of settings may lie from a whole number and still count as one: the
/// rounding of the division, relative 1e-9, but never a hundredth of the unit (at 5e8 units
/// a relative 1e-9 would take half a unit for rounding).
inline double whole_number_tolerance(double ratio) {
    return std::min(1e-9 * std::max(1.0, ratio), 1e-2);
}

/// True when `interval` is a whole number of `unit`s, up to the rounding of the ratio.
inline bool is_whole_multiple(double interval, double unit) {
    const double ratio = interval / unit;
    return std::abs(ratio - std::round(ratio)) <= whole_number_tolerance(ratio) &&
           std::round(ratio) >= 1;
}

/// The save times for settings t0, t_end, save_every, save_initial, save_final. Throws
/// std::invalid_argument for an unusable save_every or a grid with no point.
template <class T>
time_grid<T> make_save_grid(double t0, double t_end, double save_every, bool save_initial,
                            bool save_final) {
    if (!(save_every > 0) || !std::isfinite(save_every))
        invalid_setting("save_every", save_every,
                        "must be positive and finite when anything is saved");
    time_grid<T> g;
    g.t0 = T(t0);
    g.t_end = T(t_end);
    g.every = T(save_every);
    g.span = T(t_end - t0);
    g.first_k = save_initial ? 0 : 1;
    g.last_k = whole_intervals(t_end - t0, save_every, "save_every");
    // t_end is a point of its own unless the grid's last lands on it, up to the rounding
    // whole_intervals forgives (measured in intervals, not relative to t_end).
    g.final_point = save_final && (t_end - t0) / save_every - g.last_k > 1e-9;
    if (g.count() == 0)
        invalid_setting("save_every", save_every,
                        "is longer than the interval and neither save_initial nor save_final is "
                        "set: nothing would be saved");
    return g;
}

}  // namespace cubie
