#pragma once
// Implicit midpoint rule: one SDIRK stage with gamma = 1/2, order 2, A-stable (R(inf) = -1,
// so stiff components are not damped) and symmetric (Hairer & Wanner, Solving ODEs II,
// IV.3). No error estimate: fixed steps only. Order conditions:
// tests/reference/check_dirk_conditions.py.

#include "cubie/algorithms/dirk/dirk.hpp"
#include "cubie/algorithms/dirk/dirk_tableau.hpp"

namespace cubie {

struct implicit_midpoint_tableau {
    static constexpr const char* name = "implicit_midpoint";
    static constexpr int stages = 1;
    static constexpr int order = 2;
    static constexpr double gamma = 0.5;
    static constexpr double a[1][1] = {{0.5}};
    static constexpr double c[1] = {0.5};
    static constexpr double b[1] = {1};
};
static_assert(check_dirk_tableau<implicit_midpoint_tableau>());

using implicit_midpoint = dirk<implicit_midpoint_tableau>;

}  // namespace cubie
