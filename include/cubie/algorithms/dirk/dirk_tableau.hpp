#pragma once
// Tableaus of singly diagonally implicit Runge-Kutta methods, and their compile-time
// consistency checks.
//
// A method reads, with stage derivatives k_i and stage values Y_i,
//
//   Y_i = y + h sum_{j<=i} a_ij k_j,   k_i = f(t + c_i h, Y_i),   y_new = y + h sum_i b_i k_i,
//
// and, where it has one, an embedded solution y + h sum_i b_hat_i k_i. A is lower triangular
// with one value gamma > 0 on its diagonal (SDIRK), or with a_11 = 0 and gamma on the rest
// (ESDIRK: the first stage is explicit, k_1 = f(t, y)). A tableau is a type with static
// constexpr members (coefficients in double; the stepper converts them to the working
// precision):
//
//   stages, order                int: s, order of y_new
//   name                         const char*, the method's snake_case name
//   gamma                        double > 0, the diagonal of A (but a_11 of an ESDIRK)
//   a[s][s]                      double, lower triangular, diagonal included
//   c[s]                         double, stage times c_i = sum_j a_ij
//   b[s]                         double, weights of the solution
// and, for an embedded error estimate (embedded_dirk_tableau),
//   embedded_order               int, order of the embedded solution (!= order)
//   b_hat[s]                     double, its weights
//
// `check_dirk_tableau<T>()` verifies in a static_assert: the structure of A, c_i = sum_j a_ij,
// and the order conditions of b and b_hat for the trees up to order 4 (up to their stated
// order when lower). Conditions of order 5 and the failure of those one order beyond, and
// R(inf) = 0 for the methods stated L-stable, are checked in 50-digit arithmetic by
// tests/reference/check_dirk_conditions.py.

#include <concepts>

namespace cubie {

template <class T>
concept dirk_tableau = requires {
    { T::stages } -> std::convertible_to<int>;
    { T::order } -> std::convertible_to<int>;
    { T::name } -> std::convertible_to<const char*>;
    { T::gamma } -> std::convertible_to<double>;
    T::a[0][0];
    T::c[0];
    T::b[0];
};

template <class T>
concept embedded_dirk_tableau = dirk_tableau<T> && requires {
    { T::embedded_order } -> std::convertible_to<int>;
    T::b_hat[0];
};

/// The first stage is explicit (a_11 = 0): k_1 = f(t, y).
template <dirk_tableau T>
constexpr bool explicit_first_stage() {
    return T::a[0][0] == 0.0;
}

/// The last stage is the solution (b is the last row of A): y_new = Y_s.
template <dirk_tableau T>
constexpr bool stiffly_accurate() {
    for (int j = 0; j < T::stages; ++j)
        if (T::a[T::stages - 1][j] != T::b[j]) return false;
    return true;
}

namespace detail::dirk_checks {

// Coefficients are 16- or 17-digit decimals of size below 10: conditions hold to rounding.
inline constexpr double tolerance = 1e-12;

constexpr double magnitude(double x) {
    return x < 0 ? -x : x;
}

constexpr bool near(double x, double y, double size) {
    return magnitude(x - y) <= tolerance * (size > 1 ? size : 1);
}

/// A lower triangular, gamma on the diagonal except for a zero a_11, and an implicit stage.
template <class T>
constexpr bool singly_diagonal() {
    if (T::stages == 1 && T::a[0][0] == 0.0) return false;
    for (int i = 0; i < T::stages; ++i) {
        for (int j = i + 1; j < T::stages; ++j)
            if (T::a[i][j] != 0.0) return false;
        if (T::a[i][i] != T::gamma && !(i == 0 && T::a[0][0] == 0.0)) return false;
    }
    return true;
}

template <class T>
constexpr bool row_sums_match() {
    for (int i = 0; i < T::stages; ++i) {
        double sum = 0, size = 0;
        for (int j = 0; j <= i; ++j) {
            sum += T::a[i][j];
            size += magnitude(T::a[i][j]);
        }
        if (!near(sum, T::c[i], size)) return false;
    }
    return true;
}

/// Order conditions sum_i w_i Phi_i(tau) = 1 / density(tau) for the trees up to order
/// min(4, p) (Hairer, Norsett & Wanner I, II.2).
template <class T>
constexpr bool satisfies_order_conditions(const double (&w)[T::stages], int p) {
    constexpr int s = T::stages;
    double ac[s]{}, ac2[s]{}, aac[s]{};
    for (int i = 0; i < s; ++i)
        for (int j = 0; j < s; ++j) {
            ac[i] += T::a[i][j] * T::c[j];
            ac2[i] += T::a[i][j] * T::c[j] * T::c[j];
        }
    for (int i = 0; i < s; ++i)
        for (int j = 0; j < s; ++j) aac[i] += T::a[i][j] * ac[j];

    constexpr int trees = 8;
    constexpr int tree_order[trees] = {1, 2, 3, 3, 4, 4, 4, 4};
    constexpr double density[trees] = {1, 2, 3, 6, 4, 8, 12, 24};
    for (int t = 0; t < trees; ++t) {
        if (tree_order[t] > p) continue;
        double sum = 0, size = 0;
        for (int i = 0; i < s; ++i) {
            const double c = T::c[i];
            const double phi[trees] = {1, c, c * c, ac[i], c * c * c, c * ac[i], ac2[i], aac[i]};
            sum += w[i] * phi[t];
            size += magnitude(w[i] * phi[t]);
        }
        if (!near(sum, 1.0 / density[t], size)) return false;
    }
    return true;
}

}  // namespace detail::dirk_checks

/// True when T is a consistent DIRK tableau of its stated orders (checked to order 4).
template <dirk_tableau T>
constexpr bool check_dirk_tableau() {
    namespace checks = detail::dirk_checks;
    if (!(T::stages >= 1 && T::order >= 1 && T::gamma > 0 && checks::singly_diagonal<T>() &&
          checks::row_sums_match<T>() && checks::satisfies_order_conditions<T>(T::b, T::order)))
        return false;
    if constexpr (embedded_dirk_tableau<T>)
        return T::embedded_order >= 1 && T::embedded_order != T::order &&
               checks::satisfies_order_conditions<T>(T::b_hat, T::embedded_order);
    return true;
}

}  // namespace cubie
