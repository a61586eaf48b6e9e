#pragma once
// Gauss-Legendre of order 4 (Hammer & Hollingsworth 1955; Hairer & Wanner, Solving ODEs II,
// IV.5 Table 5.2): two stages at c = 1/2 -+ sqrt 3 / 6, stage order 2, A-stable with
// R(inf) = 1 (stiff components are not damped), symmetric and symplectic. y_new = y +
// sum_i d_i Z_i with d = b^T A^-1 = (-sqrt 3, sqrt 3). A^-1 has the pair 3 +- i sqrt 3 only:
// per step one complex LU factorisation. T's columns are Re and Im of the eigenvector of
// 3 - i sqrt 3 scaled to end in 1: T = [[0, 2 - sqrt 3], [1, 0]], T^-1 = [[0, 1], [2 + sqrt 3,
// 0]].
//
// Fixed steps only: an embedded solution from the two stages and f(t, y) has order 2 at most
// (order 3 forces the weight of f(t, y) to zero, which is y_new itself), so an estimate would
// be O(h^3) for a method of order 4, steering its steps like a second-order method's; and
// with R(inf) = 1 a stiff component's error is not damped by later steps, so Hairer and
// Wanner's filtered estimate, tuned to L-stable methods, would not bound it.
//
// Coefficients: exact fractions, and sqrt 3 in 20 digits. Checked in 50 digits by
// tests/reference/check_implicit_rk_conditions.py.

#include "cubie/algorithms/implicit_runge_kutta/implicit_runge_kutta.hpp"
#include "cubie/algorithms/implicit_runge_kutta/implicit_runge_kutta_tableau.hpp"

namespace cubie {

struct gauss_legendre_2_tableau {
    static constexpr const char* name = "gauss_legendre_2";
    static constexpr int stages = 2;
    static constexpr int order = 4;
    static constexpr double a[2][2] = {
        {0.25, -0.038675134594812882255},
        {0.53867513459481288225, 0.25},
    };
    static constexpr double b[2] = {0.5, 0.5};
    static constexpr double c[2] = {0.21132486540518711775, 0.78867513459481288225};
    static constexpr double d[2] = {-1.7320508075688772935, 1.7320508075688772935};
    static constexpr double eigenvalues[1][2] = {{3, 1.7320508075688772935}};
    static constexpr double transformation[2][2] = {
        {0, 0.26794919243112270647},
        {1, 0},
    };
    static constexpr double inverse_transformation[2][2] = {
        {0, 1},
        {3.7320508075688772935, 0},
    };
};
static_assert(check_implicit_runge_kutta_tableau<gauss_legendre_2_tableau>());

using gauss_legendre_2 = implicit_runge_kutta<gauss_legendre_2_tableau>;

}  // namespace cubie
