#pragma once
// The pi_controller: a digital filter of 2 errors (controllers/digital_filter_controller.hpp).

#include "cubie/controllers/digital_filter_controller.hpp"

namespace cubie {

/// PI controller, default gains (0.7, -0.4): for Tsit5 the exponents 0.14 and 0.08 of
/// OrdinaryDiffEq's default.
struct pi_controller : digital_filter_controller<2> {
    static constexpr const char* name = "pi";
};

}  // namespace cubie
