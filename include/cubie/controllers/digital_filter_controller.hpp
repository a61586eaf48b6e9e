#pragma once
// Step-size controllers as digital filters of the error history (Soederlind 2003):
//
//   factor = safety * prod_{i<H} (1 / err_{n-i})^(beta_i / (q + 1))
//
// with q the order of the error estimate. H = 1 is the classic I (elementary) controller,
// H = 2 a PI and H = 3 a PID controller. After a rejection the next attempt uses the I
// law (beta = 1) on the current error alone, the fastest reliable reduction, and the
// history is kept; the step after a rejection may not grow.
//
// The product is taken in log space, factor = safety * 2^(-sum_i e_i log2 err_{n-i}) with
// e_i = beta_i / (q + 1), and the history keeps log2 of the errors: one logarithm and one
// exponential per step. A power whose exponent is known only at run time takes both, and
// its special cases, for every factor: with powers, Tsit5 on Lorenz ran 39% longer
// (bench/RESULTS.md). The logarithm is step_size_log2 (core/step_size_math.hpp): on the
// device, the hardware's. The factor still rounds within a few ulps (tests/controllers.cpp).

#include <cuda/std/cmath>
#include <string>

#include "cubie/controllers/controller.hpp"
#include "cubie/controllers/step_factor_limits.hpp"
#include "cubie/core/invalid_setting.hpp"
#include "cubie/core/step_size_math.hpp"
#include "cubie/core/vector.hpp"

namespace cubie {

template <int History>
struct digital_filter_controller {
    static_assert(History >= 1 && History <= 3);
    static constexpr bool adaptive = true;

    template <class T>
    struct parameters {
        factor_bounds<T> bounds;
        vector<T, History> exponents;  ///< beta_i / (q + 1)
        T reject_exponent;             ///< 1 / (q + 1)
    };

    template <class T>
    struct state {
        vector<T, History> log2_errors{};  ///< log2 of err_n, err_{n-1}, ... (floored); 0 at first
        bool after_rejection = false;
    };

    struct settings {
        vector<double, History> beta = default_beta();
        step_factor_limits limits{};

        void validate() const {
            limits.validate();
            for (int i = 0; i < History; ++i)
                if (!cuda::std::isfinite(beta[i]))
                    invalid_setting("controller.beta[" + std::to_string(i) + "]", beta[i],
                                    "must be finite");
            if (!(beta[0] > 0)) invalid_setting("controller.beta[0]", beta[0], "must be positive");
        }

        template <class T>
        parameters<T> make_parameters(int error_estimate_order) const {
            const double inv = 1.0 / (error_estimate_order + 1);
            parameters<T> p{factor_bounds<T>::from(limits), {}, T(inv)};
            for (int i = 0; i < History; ++i) p.exponents[i] = T(beta[i] * inv);
            return p;
        }
    };

    template <class T>
    CUBIE_HD static step_decision<T> decide(const parameters<T>& p, state<T>& s, T /*dt*/, T err) {
        if (!(err <= T(1))) {  // rejected, or err is NaN
            const T factor =
                cuda::std::isfinite(err)
                    ? p.bounds.safety * cuda::std::exp2(-p.reject_exponent * step_size_log2(err))
                    : p.bounds.min_factor;
            s.after_rejection = true;
            return {false, p.bounds.clamp(factor, true)};
        }
        CUBIE_UNROLL
        for (int i = History - 1; i > 0; --i) s.log2_errors[i] = s.log2_errors[i - 1];
        s.log2_errors[0] = step_size_log2(floored_error(err));
        T exponent = 0;
        CUBIE_UNROLL
        for (int i = 0; i < History; ++i) exponent -= p.exponents[i] * s.log2_errors[i];
        const T factor = p.bounds.safety * cuda::std::exp2(exponent);
        const bool limit_growth = s.after_rejection;
        s.after_rejection = false;
        return {true, p.bounds.clamp(factor, limit_growth)};
    }

private:
    static constexpr vector<double, History> default_beta() {
        if constexpr (History == 1)
            return {1.0};
        else if constexpr (History == 2)
            return {0.7, -0.4};  // PI34
        else
            return {1.0 / 18, 1.0 / 9, 1.0 / 18};  // H312PID
    }
};

}  // namespace cubie
