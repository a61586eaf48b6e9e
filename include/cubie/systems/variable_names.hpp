#pragma once
// The names of a system's states, parameters and observables, for result legends, output
// selection and batch grids. Generated systems name every variable (state_names,
// parameter_names, observable_names); a system without names gets y0, y1, ..., p0, ...
// and observable0, ...

#include <string>
#include <vector>

#include "cubie/systems/ode_system.hpp"

namespace cubie {

namespace detail {

template <class Names>
std::vector<std::string> listed_names(const Names& names) {
    return std::vector<std::string>(names.begin(), names.end());
}

inline std::vector<std::string> numbered_names(const char* prefix, int count) {
    std::vector<std::string> names;
    for (int i = 0; i < count; ++i) names.push_back(prefix + std::to_string(i));
    return names;
}

}  // namespace detail

template <ode_system System>
std::vector<std::string> state_names() {
    if constexpr (requires { System::state_names[0]; })
        return detail::listed_names(System::state_names);
    else
        return detail::numbered_names("y", System::n_states);
}

template <ode_system System>
std::vector<std::string> parameter_names() {
    if constexpr (requires { System::parameter_names[0]; })
        return detail::listed_names(System::parameter_names);
    else
        return detail::numbered_names("p", System::n_parameters);
}

template <ode_system System>
std::vector<std::string> observable_names() {
    if constexpr (requires { System::observable_names[0]; })
        return detail::listed_names(System::observable_names);
    else
        return detail::numbered_names("observable", System::n_observables);
}

}  // namespace cubie
