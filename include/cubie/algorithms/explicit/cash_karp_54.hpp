#pragma once
// Cash-Karp 5(4) (Cash & Karp, 1990): six stages, fifth-order solution with a fourth-order
// embedded error estimate.

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/algorithms/explicit/explicit_runge_kutta.hpp"

namespace cubie {

struct cash_karp_54_tableau {
    static constexpr const char* name = "cash_karp_54";
    static constexpr int stages = 6;
    static constexpr int order = 5;
    static constexpr int embedded_order = 4;
    static constexpr double a[6][6] = {
        {0, 0, 0, 0, 0, 0},
        {1.0 / 5, 0, 0, 0, 0, 0},
        {3.0 / 40, 9.0 / 40, 0, 0, 0, 0},
        {3.0 / 10, -9.0 / 10, 6.0 / 5, 0, 0, 0},
        {-11.0 / 54, 5.0 / 2, -70.0 / 27, 35.0 / 27, 0, 0},
        {1631.0 / 55296, 175.0 / 512, 575.0 / 13824, 44275.0 / 110592, 253.0 / 4096, 0},
    };
    static constexpr double b[6] = {37.0 / 378, 0, 250.0 / 621, 125.0 / 594, 0, 512.0 / 1771};
    static constexpr double b_hat[6] = {2825.0 / 27648, 0,      18575.0 / 48384, 13525.0 / 55296,
                                        277.0 / 14336,  1.0 / 4};
    static constexpr double c[6] = {0, 1.0 / 5, 3.0 / 10, 3.0 / 5, 1, 7.0 / 8};
};
static_assert(check_tableau<cash_karp_54_tableau>());

using cash_karp_54 = explicit_runge_kutta<cash_karp_54_tableau>;

}  // namespace cubie
