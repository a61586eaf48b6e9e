#pragma once
// A state dealt out over the lanes of a group (loop/lane_system.hpp): each lane holds
// some of the components. What every lane must agree on is taken over all of them: the
// error norm's sum (controllers/error_norm.hpp) and finiteness (loop/step_attempt.hpp), so
// that the lanes accept, reject and end together.

#include <concepts>

namespace cubie {

template <class State>
concept dealt_out_state = requires(float f, double d, bool b) {
    typename State::slots_type;                         ///< a lane's share, as a vector
    { State::whole_size } -> std::convertible_to<int>;  ///< components over all lanes
    { State::sum_over_lanes(f) } -> std::same_as<float>;
    { State::sum_over_lanes(d) } -> std::same_as<double>;
    { State::all_lanes(b) } -> std::same_as<bool>;
};

}  // namespace cubie
