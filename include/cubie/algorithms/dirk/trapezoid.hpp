#pragma once
// The trapezoidal rule (Crank-Nicolson) as a two-stage ESDIRK method: k_1 = f(t, y), then
// y_new = y + h/2 (k_1 + f(t + h, y_new)); gamma = 1/2, order 2, A-stable (R(inf) = -1, so
// stiff components are not damped) and stiffly accurate (Hairer & Wanner, Solving ODEs II,
// IV.3). No error estimate: fixed steps only. Order conditions:
// tests/reference/check_dirk_conditions.py.

#include "cubie/algorithms/dirk/dirk.hpp"
#include "cubie/algorithms/dirk/dirk_tableau.hpp"

namespace cubie {

struct trapezoid_tableau {
    static constexpr const char* name = "trapezoid";
    static constexpr int stages = 2;
    static constexpr int order = 2;
    static constexpr double gamma = 0.5;
    static constexpr double a[2][2] = {{0, 0}, {0.5, 0.5}};
    static constexpr double c[2] = {0, 1};
    static constexpr double b[2] = {0.5, 0.5};
};
static_assert(check_dirk_tableau<trapezoid_tableau>());

using trapezoid = dirk<trapezoid_tableau>;

}  // namespace cubie
