#pragma once
// Gustafsson's predictive controller as in Hairer & Wanner's RADAU5: the elementary law,
// and after an accepted step the prediction from the last two accepted steps
//   factor_pred = (dt / dt_acc) * (err_acc / err^2)^(1/(q+1)) * safety,
// taking the smaller of the two factors. It damps step-size oscillation where the error
// estimate varies quickly (stiff problems). The powers are taken in log space, as in
// digital_filter_controller.hpp: one logarithm and at most two exponentials per step.

#include <cuda/std/cmath>

#include "cubie/controllers/controller.hpp"
#include "cubie/controllers/step_factor_limits.hpp"
#include "cubie/core/step_size_math.hpp"

namespace cubie {

struct gustafsson_controller {
    static constexpr bool adaptive = true;
    static constexpr const char* name = "gustafsson";

    template <class T>
    struct parameters {
        factor_bounds<T> bounds;
        T exponent;  ///< 1 / (q + 1)
    };

    template <class T>
    struct state {
        T dt_accepted = 0;        ///< last accepted step; 0 before the first
        T log2_err_accepted = 0;  ///< log2 of its error, floored at 1e-2 as in RADAU5
        bool after_rejection = false;
    };

    struct settings {
        step_factor_limits limits{};

        void validate() const { limits.validate(); }

        template <class T>
        parameters<T> make_parameters(int error_estimate_order) const {
            return {factor_bounds<T>::from(limits), T(1.0 / (error_estimate_order + 1))};
        }
    };

    template <class T>
    CUBIE_HD static step_decision<T> decide(const parameters<T>& p, state<T>& s, T dt, T err) {
        using cuda::std::exp2;
        if (!(err <= T(1))) {
            const T factor = cuda::std::isfinite(err)
                                 ? p.bounds.safety * exp2(-p.exponent * step_size_log2(err))
                                 : p.bounds.min_factor;
            s.after_rejection = true;
            return {false, p.bounds.clamp(factor, true)};
        }
        const T log2_err = step_size_log2(floored_error(err));
        T factor = p.bounds.safety * exp2(-p.exponent * log2_err);
        if (s.dt_accepted > T(0)) {
            const T predicted = p.bounds.safety * step_size_divide(dt, s.dt_accepted) *
                                exp2(p.exponent * (s.log2_err_accepted - T(2) * log2_err));
            factor = cuda::std::fmin(factor, predicted);
        }
        s.dt_accepted = dt;
        // log2 max(1e-2, err) = max(log2 1e-2, log2 max(1e-6, err)): log2 is monotone.
        s.log2_err_accepted = cuda::std::fmax(T(-6.643856189774724), log2_err);  // log2(1e-2)
        const bool limit_growth = s.after_rejection;
        s.after_rejection = false;
        return {true, p.bounds.clamp(factor, limit_growth)};
    }
};

}  // namespace cubie
