#pragma once
// The state inside an accepted step, as the loop's outputs and events ask for it: the
// method's own interpolant (dense output) where the loop keeps its stages, else the cubic
// Hermite interpolant of the step's ends and their derivatives,
//
//   y(t + theta h) = h00 y + h10 h f + h01 y_new + h11 h f_new,
//   h00 = (1 + 2 theta)(1 - theta)^2, h10 = theta (1 - theta)^2,
//   h01 = theta^2 (3 - 2 theta),      h11 = theta^2 (theta - 1),
//
// of local error O(h^4), exact for states cubic in t. Prepared on first use: the method's
// extra stages, or f_new = f(t_end, y_new) for a method that does not hand it over (FSAL
// methods do). theta = 0 and 1 give the step's ends exactly.

#include "cubie/algorithms/stepper.hpp"
#include "cubie/core/config.hpp"
#include "cubie/loop/step_attempt.hpp"
#include "cubie/systems/right_hand_side.hpp"

namespace cubie::detail {

template <class Algorithm, class System, bool Dense>
class step_interpolant {
    using T = typename System::value_type;
    using state = state_t<System>;
    using stages = typename dense_stages_of<Algorithm, state, Dense>::type;

public:
    /// The step from (t, y) of h to (t_end, y_new); dydt = f(t, y); dydt_new holds f(t_end,
    /// y_new) for FSAL methods and receives it otherwise; k the stages of a dense step.
    CUBIE_HD step_interpolant(const right_hand_side<System>& f, T t, T h, T t_end, const state& y,
                              const state& dydt, const state& y_new, state& dydt_new, stages& k)
        : f_(f),
          t_(t),
          h_(h),
          t_end_(t_end),
          y_(y),
          dydt_(dydt),
          y_new_(y_new),
          dydt_new_(dydt_new),
          k_(k) {}

    /// Evaluates what interpolation needs, once.
    CUBIE_HD void prepare() {
        if (prepared_) return;
        prepared_ = true;
        if constexpr (Dense)
            Algorithm::prepare_dense_output(f_, t_, h_, y_, k_);
        else if constexpr (!Algorithm::fsal)
            f_(t_end_, y_new_, dydt_new_);
    }

    /// Whether dydt_new now holds f(t_end, y_new), which a method without FSAL would
    /// otherwise evaluate again at the start of its next step.
    CUBIE_HD bool end_derivative_evaluated() const {
        return !Dense && !Algorithm::fsal && prepared_;
    }

    /// y(t + theta h), 0 <= theta <= 1: the step's ends exactly at 0 and 1. For events:
    /// a method's interpolant summed by powers of theta where it has that form, which holds
    /// fewer registers inside the integration loop than inside() (outputs).
    CUBIE_HD void at(T theta, state& out) {
        if (theta == 0) {
            out = y_;
        } else if (theta == 1) {
            out = y_new_;
        } else if constexpr (Dense && requires {
                                 Algorithm::interpolate_by_powers(h_, y_, k_, theta, out);
                             }) {
            prepare();
            Algorithm::interpolate_by_powers(h_, y_, k_, theta, out);
        } else {
            inside(theta, out);
        }
    }

    /// y(t + theta h) for 0 < theta < 1.
    CUBIE_HD void inside(T theta, state& out) {
        prepare();
        if constexpr (Dense) {
            Algorithm::interpolate(h_, y_, k_, theta, out);
        } else {
            const T rest = 1 - theta;
            const T h00 = (1 + 2 * theta) * rest * rest, h10 = theta * rest * rest * h_;
            const T h01 = theta * theta * (3 - 2 * theta), h11 = -theta * theta * rest * h_;
            CUBIE_UNROLL
            for (int i = 0; i < System::n_states; ++i)
                out[i] = h00 * y_[i] + h10 * dydt_[i] + h01 * y_new_[i] + h11 * dydt_new_[i];
        }
    }

private:
    const right_hand_side<System>& f_;
    T t_, h_, t_end_;
    const state& y_;
    const state& dydt_;
    const state& y_new_;
    state& dydt_new_;
    stages& k_;
    bool prepared_ = false;
};

}  // namespace cubie::detail
