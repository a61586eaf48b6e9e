#pragma once
// Fixed step: every step has the given dt; the last one is shortened to land on t_end.

#include "cubie/controllers/controller.hpp"

namespace cubie {

struct fixed_step {
    static constexpr bool adaptive = false;
    static constexpr const char* name = "fixed";
    struct settings {
        void validate() const {}
    };
};

}  // namespace cubie
