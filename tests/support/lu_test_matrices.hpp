#pragma once
// Matrices for comparing LU factorisations bit for bit (cooperative_lu against dense_lu):
// integers in [-3, 3] (ties between pivot candidates, exact zeros), reals over 12 decades,
// rank-deficient ones (a row the sum of two others), and ones holding a NaN or an Inf.

#include <cmath>
#include <limits>

#include "cubie/linear/dense_lu.hpp"
#include "support/deterministic_integers.hpp"

namespace cubie::testing {

enum class lu_matrix_kind { integers, reals, singular, nan, inf };
inline constexpr lu_matrix_kind lu_matrix_kinds[] = {
    lu_matrix_kind::integers, lu_matrix_kind::reals, lu_matrix_kind::singular, lu_matrix_kind::nan,
    lu_matrix_kind::inf};

template <class T, int N>
typename dense_lu<T, N>::matrix draw_lu_matrix(lu_matrix_kind k, deterministic_integers& draws) {
    typename dense_lu<T, N>::matrix a{};
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            if (k == lu_matrix_kind::integers) {
                a[i][j] = T(draws(-3, 3));
            } else {
                const double mantissa = draws(-1000, 1000) / 1000.0;
                a[i][j] = T(mantissa * std::pow(10.0, draws(-6, 6)));
            }
        }
    if (k == lu_matrix_kind::singular && N >= 3)
        for (int j = 0; j < N; ++j) a[N - 1][j] = a[0][j] + a[1][j];
    if (k == lu_matrix_kind::nan)
        a[draws(0, N - 1)][draws(0, N - 1)] = std::numeric_limits<T>::quiet_NaN();
    if (k == lu_matrix_kind::inf)
        a[draws(0, N - 1)][draws(0, N - 1)] = std::numeric_limits<T>::infinity();
    return a;
}

}  // namespace cubie::testing
