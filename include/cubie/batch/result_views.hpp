#pragma once
// The named views a result gives of its arrays, the same for one in host memory
// (batch_result) and one in device memory (device_result): a base that reads the arrays
// of the result deriving from it (Derived), whose `saved`, `summaries`, `event_times` and
// `event_states` have data().

#include <cstddef>
#include <string>

#include "cubie/batch/result_legend.hpp"

namespace cubie {

template <class Derived, class T>
struct result_views : result_legend<T> {
    /// [save][trajectory] of the saved variable called name.
    result_view<T> series(const std::string& name) const {
        return this->series_of(self().saved.data(), name);
    }
    /// [save][saved variable] of one trajectory.
    result_view<T> trajectory(std::size_t i) const {
        return this->trajectory_of(self().saved.data(), i);
    }
    /// [window][trajectory] of the summary row called name ("x.mean").
    result_view<T> summary(const std::string& name) const {
        return this->summary_of(self().summaries.data(), name);
    }
    /// [occurrence][trajectory] of the kept times, and of one kept state, of an event.
    result_view<T> event_times_of(const std::string& event) const {
        return result_legend<T>::event_times_of(self().event_times.data(), event);
    }
    result_view<T> event_states_of(const std::string& event, const std::string& state) const {
        return result_legend<T>::event_states_of(self().event_states.data(), event, state);
    }

private:
    const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace cubie
