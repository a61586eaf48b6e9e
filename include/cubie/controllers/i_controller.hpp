#pragma once
// The i_controller: a digital filter of 1 error (controllers/digital_filter_controller.hpp).

#include "cubie/controllers/digital_filter_controller.hpp"

namespace cubie {

/// Elementary controller: factor = safety * err^(-1/(q+1)).
struct i_controller : digital_filter_controller<1> {
    static constexpr const char* name = "i";
};

}  // namespace cubie
