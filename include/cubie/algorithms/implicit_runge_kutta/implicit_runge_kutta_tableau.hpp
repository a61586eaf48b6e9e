#pragma once
// Tableaus of fully implicit Runge-Kutta methods of collocation type (Radau IIA,
// Gauss-Legendre), with the transformation that decouples their simplified Newton iteration
// (Hairer & Wanner, Solving ODEs II, IV.8), and their compile-time consistency checks.
//
// A method reads, with stage increments Z_i = Y_i - y,
//
//   Z_i = h sum_j a_ij f(t + c_j h, y + Z_j),   y_new = y + h sum_i b_i f(t + c_i h, y + Z_i)
//                                                     = y + sum_i d_i Z_i,   d^T = b^T A^-1.
//
// A^-1 has real eigenvalues gamma and complex pairs alpha +- i beta; a real T brings it to
// block diagonal form,
//
//   T^-1 A^-1 T = Lambda = diag(gamma, ..., [[alpha, -beta], [beta, alpha]], ...),
//
// a real eigenvalue taking one column of T (an eigenvector) and a pair two: Re v and Im v of
// the eigenvector v of alpha - i beta, so that A^-1 (Re v + i Im v) = (alpha - i beta)(Re v +
// i Im v). A tableau is a type with static constexpr members (coefficients in double; the
// stepper converts them to the working precision):
//
//   stages, order                 int: s, order of y_new
//   name                          const char*, the method's snake_case name
//   a[s][s], b[s], c[s]           double, the Butcher tableau (c distinct and non-zero)
//   d[s]                          double, b^T A^-1: y_new = y + sum_i d_i Z_i
//   eigenvalues[m][2]             double, Lambda's blocks in order: {gamma, 0} for a real
//                                 eigenvalue, {alpha, beta} with beta > 0 for a pair
//   transformation[s][s]          double, T
//   inverse_transformation[s][s]  double, T^-1
// and, for an embedded error estimate (embedded_implicit_runge_kutta_tableau), the embedded
// solution of Hairer and Wanner's estimate (IV.8, (8.19)), y_hat = y + h (gamma0 f(t, y) +
// sum_i b_hat_i f(t + c_i h, y + Z_i)), of lower order, written through the increments:
//   embedded_order                int, order of y_hat (< order)
//   gamma0                        double > 0, the weight of f(t, y)
//   e[s]                          double, (b_hat - b)^T A^-1: y_hat - y_new = gamma0 h f(t, y)
//                                 + sum_i e_i Z_i
//
// `check_implicit_runge_kutta_tableau<T>()` verifies in a static_assert, in double, to about
// 1e-13: c_i = sum_j a_ij; the simplifying assumptions B(order) (sum_i b_i c_i^(k-1) = 1/k,
// k <= order) and not B(order + 1), and C(s) (sum_j a_ij c_j^(k-1) = c_i^k / k, k <= s), which
// make a collocation method of exactly that order (Hairer, Norsett & Wanner I, II.7); order
// <= 2s; d^T A = b^T; T^-1 T = I and A^-1 T = T Lambda, checked as A T Lambda = T, with
// Lambda built from `eigenvalues`; and for the embedded solution, with b_hat = b + A^T e,
// gamma0 + sum_i b_hat_i = 1 and sum_i b_hat_i c_i^(k-1) = 1/k for 2 <= k <= embedded_order,
// failing at embedded_order + 1 (its order is exact, so the controllers' exponent is right).
// The order conditions of every rooted tree, T^-1 A^-1 T itself and R(inf) are checked in
// 50-digit arithmetic by tests/reference/check_implicit_rk_conditions.py.

#include <concepts>

namespace cubie {

template <class T>
concept implicit_runge_kutta_tableau = requires {
    { T::stages } -> std::convertible_to<int>;
    { T::order } -> std::convertible_to<int>;
    { T::name } -> std::convertible_to<const char*>;
    T::a[0][0];
    T::b[0];
    T::c[0];
    T::d[0];
    T::eigenvalues[0][1];
    T::transformation[0][0];
    T::inverse_transformation[0][0];
};

template <class T>
concept embedded_implicit_runge_kutta_tableau = implicit_runge_kutta_tableau<T> && requires {
    { T::embedded_order } -> std::convertible_to<int>;
    { T::gamma0 } -> std::convertible_to<double>;
    T::e[0];
};

/// Number of blocks of Lambda: real eigenvalues and complex pairs.
template <implicit_runge_kutta_tableau T>
constexpr int eigenvalue_blocks() {
    return static_cast<int>(sizeof(T::eigenvalues) / sizeof(T::eigenvalues[0]));
}

/// Block `block` of Lambda is a real eigenvalue (one column of T), else a complex pair (two).
template <implicit_runge_kutta_tableau T>
constexpr bool real_block(int block) {
    return T::eigenvalues[block][1] == 0.0;
}

/// The first column of T (and row of Lambda) that block `block` takes.
template <implicit_runge_kutta_tableau T>
constexpr int first_column(int block) {
    int column = 0;
    for (int k = 0; k < block; ++k) column += real_block<T>(k) ? 1 : 2;
    return column;
}

namespace detail::implicit_runge_kutta_checks {

// Coefficients are decimals of 17 or more digits of size below 10: conditions hold to
// rounding, a few units of 1e-16 times the size of their terms.
inline constexpr double tolerance = 1e-13;

constexpr double magnitude(double x) {
    return x < 0 ? -x : x;
}

constexpr bool near(double x, double y, double size) {
    return magnitude(x - y) <= tolerance * (size > 1 ? size : 1);
}

constexpr double power(double x, int k) {
    double p = 1;
    for (int i = 0; i < k; ++i) p *= x;
    return p;
}

/// The blocks fill s columns, pairs have beta > 0, the nodes are distinct and non-zero
/// (the interpolant divides by c_i and c_i - c_j).
template <class T>
constexpr bool well_formed() {
    int columns = 0;
    for (int k = 0; k < eigenvalue_blocks<T>(); ++k) {
        if (T::eigenvalues[k][1] < 0) return false;
        columns += real_block<T>(k) ? 1 : 2;
    }
    if (columns != T::stages) return false;
    for (int i = 0; i < T::stages; ++i) {
        if (T::c[i] == 0.0) return false;
        for (int j = 0; j < i; ++j)
            if (T::c[i] == T::c[j]) return false;
    }
    return T::order >= 1 && T::order <= 2 * T::stages;
}

template <class T>
constexpr bool row_sums_match() {
    for (int i = 0; i < T::stages; ++i) {
        double sum = 0, size = 0;
        for (int j = 0; j < T::stages; ++j) {
            sum += T::a[i][j];
            size += magnitude(T::a[i][j]);
        }
        if (!near(sum, T::c[i], size)) return false;
    }
    return true;
}

/// sum_i w_i c_i^(k-1) = 1/k for k = first, ..., last, with an extra node c = 0 of weight w0
/// (its term counts for k = 1 only).
template <class T>
constexpr bool quadrature_exact(const double (&w)[T::stages], double w0, int first, int last) {
    for (int k = first; k <= last; ++k) {
        double sum = k == 1 ? w0 : 0, size = magnitude(sum);
        for (int i = 0; i < T::stages; ++i) {
            const double term = w[i] * power(T::c[i], k - 1);
            sum += term;
            size += magnitude(term);
        }
        if (!near(sum, 1.0 / k, size)) return false;
    }
    return true;
}

/// C(s): sum_j a_ij c_j^(k-1) = c_i^k / k for k <= s, every row.
template <class T>
constexpr bool stage_order_s() {
    for (int k = 1; k <= T::stages; ++k)
        for (int i = 0; i < T::stages; ++i) {
            double sum = 0, size = 0;
            for (int j = 0; j < T::stages; ++j) {
                const double term = T::a[i][j] * power(T::c[j], k - 1);
                sum += term;
                size += magnitude(term);
            }
            if (!near(sum, power(T::c[i], k) / k, size)) return false;
        }
    return true;
}

/// w^T A = v^T: the weights w of the increments Z reproduce the weights v of h f.
template <class T>
constexpr bool increment_weights(const double (&w)[T::stages], const double (&v)[T::stages]) {
    for (int j = 0; j < T::stages; ++j) {
        double sum = 0, size = 0;
        for (int i = 0; i < T::stages; ++i) {
            sum += w[i] * T::a[i][j];
            size += magnitude(w[i] * T::a[i][j]);
        }
        if (!near(sum, v[j], size)) return false;
    }
    return true;
}

/// Lambda[i][j] from the blocks.
template <class T>
constexpr double lambda(int i, int j) {
    for (int k = 0; k < eigenvalue_blocks<T>(); ++k) {
        const int first = first_column<T>(k);
        const double re = T::eigenvalues[k][0], im = T::eigenvalues[k][1];
        if (real_block<T>(k)) {
            if (i == first) return j == first ? re : 0.0;
        } else if (i == first || i == first + 1) {
            if (j == i) return re;
            if (i == first && j == first + 1) return -im;
            if (i == first + 1 && j == first) return im;
            return 0.0;
        }
    }
    return 0.0;
}

/// T^-1 T = I and A T Lambda = T (that is, T^-1 A^-1 T = Lambda).
template <class T>
constexpr bool transformation_consistent() {
    constexpr int s = T::stages;
    for (int i = 0; i < s; ++i)
        for (int j = 0; j < s; ++j) {
            double sum = 0, size = 0;
            for (int k = 0; k < s; ++k) {
                const double term = T::inverse_transformation[i][k] * T::transformation[k][j];
                sum += term;
                size += magnitude(term);
            }
            if (!near(sum, i == j ? 1.0 : 0.0, size)) return false;
        }
    double at[s][s]{};  // A T
    for (int i = 0; i < s; ++i)
        for (int j = 0; j < s; ++j)
            for (int k = 0; k < s; ++k) at[i][j] += T::a[i][k] * T::transformation[k][j];
    for (int i = 0; i < s; ++i)
        for (int j = 0; j < s; ++j) {
            double sum = 0, size = magnitude(T::transformation[i][j]);
            for (int k = 0; k < s; ++k) {
                const double term = at[i][k] * lambda<T>(k, j);
                sum += term;
                size += magnitude(term);
            }
            if (!near(sum, T::transformation[i][j], size)) return false;
        }
    return true;
}

/// The embedded solution, b_hat = b + A^T e with gamma0 at c = 0, has exactly its order.
template <class T>
constexpr bool embedded_consistent() {
    constexpr int s = T::stages;
    double b_hat[s]{};
    for (int j = 0; j < s; ++j) {
        b_hat[j] = T::b[j];
        for (int i = 0; i < s; ++i) b_hat[j] += T::e[i] * T::a[i][j];
    }
    const int p = T::embedded_order;
    return T::gamma0 > 0 && p >= 1 && p < T::order && quadrature_exact<T>(b_hat, T::gamma0, 1, p) &&
           !quadrature_exact<T>(b_hat, T::gamma0, p + 1, p + 1);
}

}  // namespace detail::implicit_runge_kutta_checks

/// True when T is a consistent collocation tableau of its stated order, with a transformation
/// that block-diagonalises A^-1 as stated (and a consistent embedded solution where it has
/// one).
template <implicit_runge_kutta_tableau T>
constexpr bool check_implicit_runge_kutta_tableau() {
    namespace checks = detail::implicit_runge_kutta_checks;
    if (!(checks::well_formed<T>() && checks::row_sums_match<T>() &&
          checks::quadrature_exact<T>(T::b, 0.0, 1, T::order) &&
          !checks::quadrature_exact<T>(T::b, 0.0, T::order + 1, T::order + 1) &&
          checks::stage_order_s<T>() && checks::increment_weights<T>(T::d, T::b) &&
          checks::transformation_consistent<T>()))
        return false;
    if constexpr (embedded_implicit_runge_kutta_tableau<T>) return checks::embedded_consistent<T>();
    return true;
}

}  // namespace cubie
