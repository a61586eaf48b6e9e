#pragma once
// The pid_controller: a digital filter of 3 errors (controllers/digital_filter_controller.hpp).

#include "cubie/controllers/digital_filter_controller.hpp"

namespace cubie {

/// PID controller, default gains H312PID (1/18, 1/9, 1/18): smooth step sequences.
struct pid_controller : digital_filter_controller<3> {
    static constexpr const char* name = "pid";
};

}  // namespace cubie
