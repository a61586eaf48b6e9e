#pragma once
// Backward (implicit) Euler: one SDIRK stage with gamma = 1, order 1, L-stable and stiffly
// accurate (Hairer & Wanner, Solving ODEs II, IV.3). No error estimate: fixed steps only.
// Order conditions: tests/reference/check_dirk_conditions.py.

#include "cubie/algorithms/dirk/dirk.hpp"
#include "cubie/algorithms/dirk/dirk_tableau.hpp"

namespace cubie {

struct backward_euler_tableau {
    static constexpr const char* name = "backward_euler";
    static constexpr int stages = 1;
    static constexpr int order = 1;
    static constexpr double gamma = 1;
    static constexpr double a[1][1] = {{1}};
    static constexpr double c[1] = {1};
    static constexpr double b[1] = {1};
};
static_assert(check_dirk_tableau<backward_euler_tableau>());

using backward_euler = dirk<backward_euler_tableau>;

}  // namespace cubie
