#pragma once
// The Controller concept: how the step size evolves.
//
//   adaptive                      static constexpr bool; false: steps of the given dt
//   settings                      host-side runtime values (gains, safety, factor limits)
//                                 with validate(), which throws std::invalid_argument
//                                 naming the setting and the bad value
//   parameters<T>                 what a kernel receives, made once per solve by
//                                 settings.make_parameters<T>(q), q being the order of the
//                                 algorithm's error estimate (exponents precomputed)
//   state<T>                      per-trajectory memory (previous errors, last step)
//   decide(parameters, state, dt, err) -> step_decision<T>
//                                 accept when err <= 1, and the factor for the next dt
//
// err is the weighted RMS norm of the local error (error_norm.hpp). A non-finite err is a
// rejection with the smallest factor, so a trajectory that meets a NaN shrinks its step
// and ends with a status instead of looping.

#include <concepts>

#include "cubie/core/config.hpp"

namespace cubie {

template <class T>
struct step_decision {
    bool accept;
    T factor;  ///< dt_next = factor * dt
};

template <class C>
concept step_controller = requires {
    { C::adaptive } -> std::convertible_to<bool>;
    typename C::settings;
};

template <class C>
concept adaptive_controller = step_controller<C> && C::adaptive &&
    requires(const typename C::settings& s, typename C::template state<float>& st,
             const typename C::template parameters<float>& p) {
    s.validate();
    {
        s.template make_parameters<float>(4)
        } -> std::same_as<typename C::template parameters<float>>;
    { C::decide(p, st, 1.0f, 1.0f) } -> std::same_as<step_decision<float>>;
};

}  // namespace cubie
