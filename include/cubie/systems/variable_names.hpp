#pragma once
// The names of a system's states, parameters and observables, for result legends, output
// selection and batch grids. Generated systems name every variable (state_names,
// parameter_names, observable_names); a system without names gets y0, y1, ..., p0, ...
// and observable0, ...

#include <string>
#include <vector>

#include "cubie/systems/ode_system.hpp"

namespace cubie {

template <ode_system System>
std::vector<std::string> state_names() {
    std::vector<std::string> names;
    for (int i = 0; i < System::n_states; ++i) {
        if constexpr (requires { System::state_names[0]; })
            names.emplace_back(System::state_names[i]);
        else
            names.push_back("y" + std::to_string(i));
    }
    return names;
}

template <ode_system System>
std::vector<std::string> parameter_names() {
    std::vector<std::string> names;
    for (int i = 0; i < System::n_parameters; ++i) {
        if constexpr (requires { System::parameter_names[0]; })
            names.emplace_back(System::parameter_names[i]);
        else
            names.push_back("p" + std::to_string(i));
    }
    return names;
}

template <ode_system System>
std::vector<std::string> observable_names() {
    std::vector<std::string> names;
    for (int i = 0; i < System::n_observables; ++i) {
        if constexpr (requires { System::observable_names[0]; })
            names.emplace_back(System::observable_names[i]);
        else
            names.push_back("observable" + std::to_string(i));
    }
    return names;
}

}  // namespace cubie
