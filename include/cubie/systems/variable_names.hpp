#pragma once
// The names of a system's states and observables, for result legends and for selecting
// outputs by name. Generated systems name every variable (state_names,
// observable_names); a system without names gets y0, y1, ... and observable0, ...

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
