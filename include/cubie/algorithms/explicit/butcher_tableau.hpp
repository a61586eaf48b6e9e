#pragma once
// Butcher tableaus of explicit Runge-Kutta methods, and their compile-time consistency
// checks.
//
// A tableau is a type with static constexpr members (coefficients in double; the stepper
// converts them to the working precision at compile time):
//
//   stages                 int, number of stages s
//   order                  int, order of the propagated solution (weights b)
//   a[s][s], b[s], c[s]    double, a strictly lower triangular
//   name                   const char*, the method's snake_case name
//
// An embedded tableau also has
//
//   b_hat[s]               double, weights of the embedded solution
//   embedded_order         int, its order
//
// and may add a second, lower-order embedded solution (Dormand-Prince 8(5,3)), whose
// error is combined with the first as in Hairer's DOP853:
//
//   b_hat_low[s]           double
//   embedded_low_order     int
//
// A tableau with dense output (a continuous extension of the method) also has
//
//   dense_stages           int >= s, stages the interpolant uses. Stages s..dense_stages-1 are
//                          extra stages, evaluated after an accepted step only when an output
//                          falls inside it; each may use every earlier stage.
//   a_dense[dense_stages - s][dense_stages], c_dense[dense_stages - s]
//                          double, rows and nodes of the extra stages (absent without any)
//   dense_order            int, order q of the interpolant: y(t + theta h) carries a local
//                          error O(h^(q+1)) for every theta in [0, 1]
//   dense_degree           int, degree of the weight polynomials
//   b_dense[dense_stages][dense_degree]
//                          double, b_i(theta) = sum_{p=1..degree} b_dense[i][p-1] theta^p
//
// and y(t + theta h) ~ y + h sum_i b_i(theta) k_i. A method whose interpolant needs
// f(t + h, y_new) and is not FSAL lists that evaluation as an extra stage with c = 1 and row
// a = b.
//
// `check_tableau<T>()` verifies in a static_assert: explicitness, c_i = sum_j a_ij, and the
// order conditions of b and b_hat up to order 4 (up to their stated order when lower). For
// dense output also: explicit extra rows that sum to c_dense, b_i(1) = b_i (0 for the extra
// stages: the interpolant ends on y_new), and the continuous order conditions
// sum_i b_i(theta) Phi_i(tau) = theta^rho(tau) / gamma(tau), power by power in theta, for the
// trees up to order min(4, dense_order).

#include <concepts>

#include "cubie/core/config.hpp"

namespace cubie {

template <class T>
concept explicit_tableau = requires {
    { T::stages } -> std::convertible_to<int>;
    { T::order } -> std::convertible_to<int>;
    { T::name } -> std::convertible_to<const char*>;
    T::a[0][0];
    T::b[0];
    T::c[0];
};

template <class T>
concept embedded_tableau = explicit_tableau<T> && requires {
    { T::embedded_order } -> std::convertible_to<int>;
    T::b_hat[0];
};

template <class T>
concept dual_embedded_tableau = embedded_tableau<T> && requires {
    { T::embedded_low_order } -> std::convertible_to<int>;
    T::b_hat_low[0];
};

template <class T>
concept dense_output_tableau = explicit_tableau<T> && requires {
    { T::dense_stages } -> std::convertible_to<int>;
    { T::dense_order } -> std::convertible_to<int>;
    { T::dense_degree } -> std::convertible_to<int>;
    T::b_dense[0][0];
} &&(T::dense_stages == T::stages || requires {
    T::a_dense[0][0];
    T::c_dense[0];
});

namespace detail {

// Coefficients are double literals of rational numbers or decimal expansions, so the
// conditions hold to rounding only.
inline constexpr double tableau_tolerance = 1e-12;

constexpr double magnitude(double x) {
    return x < 0 ? -x : x;
}

constexpr bool near(double x, double y) {
    return magnitude(x - y) <= tableau_tolerance;
}

/// Stages of the dense-output extension beyond the step's own (0 without dense output).
template <class T>
CUBIE_HD constexpr int extra_dense_stages() {
    if constexpr (dense_output_tableau<T>)
        return T::dense_stages - T::stages;
    else
        return 0;
}

/// a_ij of T extended by its dense-output stages (rows stages..dense_stages-1).
template <class T>
CUBIE_HD constexpr double extended_a(int i, int j) {
    if constexpr (extra_dense_stages<T>() > 0) {
        if (i >= T::stages) return T::a_dense[i - T::stages][j];
    }
    return j < T::stages ? T::a[i][j] : 0.0;
}

/// c_i of T extended by its dense-output stages.
template <class T>
CUBIE_HD constexpr double extended_c(int i) {
    if constexpr (extra_dense_stages<T>() > 0) {
        if (i >= T::stages) return T::c_dense[i - T::stages];
    }
    return T::c[i];
}

/// Rooted trees up to order 4, in the order of elementary_weight_sums: order rho(tau) and
/// density gamma(tau).
inline constexpr int tree_count = 8;
inline constexpr int tree_order[tree_count] = {1, 2, 3, 3, 4, 4, 4, 4};
inline constexpr double tree_density[tree_count] = {1, 2, 3, 6, 4, 8, 12, 24};

/// sum_i w_i Phi_i(tau) for each tree, and sum_i |w_i Phi_i(tau)|, the size its rounding
/// error scales with.
struct tree_sums {
    double value[tree_count]{};
    double size[tree_count]{};
};

/// Elementary weights of N stages with coefficients a(i, j), c(i), weighted by w(i).
template <int N, class W, class A, class C>
constexpr tree_sums elementary_weight_sums(W w, A a, C c) {
    double ac[N]{};
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) ac[i] += a(i, j) * c(j);
    tree_sums sums;
    for (int i = 0; i < N; ++i) {
        double ac2 = 0, aac = 0;
        for (int j = 0; j < N; ++j) {
            ac2 += a(i, j) * c(j) * c(j);
            aac += a(i, j) * ac[j];
        }
        const double ci = c(i);
        const double phi[tree_count] = {1, ci, ci * ci, ac[i], ci * ci * ci, ci * ac[i], ac2, aac};
        for (int t = 0; t < tree_count; ++t) {
            sums.value[t] += w(i) * phi[t];
            sums.size[t] += magnitude(w(i) * phi[t]);
        }
    }
    return sums;
}

/// Order conditions (trees up to order 4) for weights w of tableau T, up to order p.
template <class T>
constexpr bool satisfies_order_conditions(const double (&w)[T::stages], int p) {
    const tree_sums sums = elementary_weight_sums<T::stages>(
        [&](int i) { return w[i]; }, [](int i, int j) { return T::a[i][j]; },
        [](int i) { return T::c[i]; });
    for (int t = 0; t < tree_count; ++t)
        if (tree_order[t] <= p && !near(sums.value[t], 1.0 / tree_density[t])) return false;
    return true;
}

template <class T>
constexpr bool is_explicit() {
    for (int i = 0; i < T::stages; ++i)
        for (int j = i; j < T::stages; ++j)
            if (T::a[i][j] != 0.0) return false;
    return true;
}

template <class T>
constexpr bool rows_sum_to_c() {
    for (int i = 0; i < T::stages; ++i) {
        double row = 0;
        for (int j = 0; j < T::stages; ++j) row += T::a[i][j];
        if (!near(row, T::c[i])) return false;
    }
    return true;
}

/// The interpolant's weights reach 1e4 (Verner's 9(8)) and cancel to O(1): its sums are
/// compared relative to the size of their terms.
constexpr bool near_relative(double x, double y, double size) {
    return magnitude(x - y) <= tableau_tolerance * (size > 1 ? size : 1);
}

template <class T>
constexpr bool extra_rows_are_consistent() {
    for (int i = T::stages; i < T::dense_stages; ++i) {
        double row = 0;
        for (int j = 0; j < T::dense_stages; ++j) {
            if (j >= i && extended_a<T>(i, j) != 0.0) return false;
            row += extended_a<T>(i, j);
        }
        if (!near(row, extended_c<T>(i))) return false;
    }
    return true;
}

/// b_i(1) = b_i, and 0 for the extra stages: the interpolant ends on y_new.
template <class T>
constexpr bool interpolant_ends_on_solution() {
    for (int i = 0; i < T::dense_stages; ++i) {
        double at_one = 0, size = 0;
        for (int p = 0; p < T::dense_degree; ++p) {
            at_one += T::b_dense[i][p];
            size += magnitude(T::b_dense[i][p]);
        }
        if (!near_relative(at_one, i < T::stages ? T::b[i] : 0.0, size)) return false;
    }
    return true;
}

/// sum_i b_i(theta) Phi_i(tau) = theta^rho(tau) / gamma(tau): the coefficient of theta^p is
/// 1 / gamma(tau) for p = rho(tau) and 0 otherwise, for the trees up to min(4, dense_order).
template <class T>
constexpr bool satisfies_continuous_order_conditions() {
    for (int p = 1; p <= T::dense_degree; ++p) {
        const tree_sums sums = elementary_weight_sums<T::dense_stages>(
            [p](int i) { return T::b_dense[i][p - 1]; },
            [](int i, int j) { return extended_a<T>(i, j); },
            [](int i) { return extended_c<T>(i); });
        for (int t = 0; t < tree_count; ++t) {
            if (tree_order[t] > T::dense_order) continue;
            const double expected = tree_order[t] == p ? 1.0 / tree_density[t] : 0.0;
            if (!near_relative(sums.value[t], expected, sums.size[t])) return false;
        }
    }
    return true;
}

template <class T>
constexpr bool dense_output_is_consistent() {
    return T::dense_stages >= T::stages && T::dense_order >= 1 &&
           T::dense_degree >= T::dense_order && extra_rows_are_consistent<T>() &&
           interpolant_ends_on_solution<T>() && satisfies_continuous_order_conditions<T>();
}

}  // namespace detail

/// True when T is a consistent explicit tableau of its stated orders (checked to order 4),
/// with a consistent interpolant when it has dense output.
template <explicit_tableau T>
constexpr bool check_tableau() {
    bool ok = T::stages >= 1 && T::order >= 1 && detail::is_explicit<T>() &&
              detail::rows_sum_to_c<T>() && detail::satisfies_order_conditions<T>(T::b, T::order);
    if constexpr (embedded_tableau<T>) {
        ok = ok && T::embedded_order >= 1 && T::embedded_order != T::order &&
             detail::satisfies_order_conditions<T>(T::b_hat, T::embedded_order);
    }
    if constexpr (dual_embedded_tableau<T>) {
        ok = ok && T::embedded_low_order >= 1 &&
             detail::satisfies_order_conditions<T>(T::b_hat_low, T::embedded_low_order);
    }
    if constexpr (dense_output_tableau<T>) ok = ok && detail::dense_output_is_consistent<T>();
    return ok;
}

/// First Same As Last: the last stage is evaluated at (t + dt, y_new), so its derivative
/// is the first stage of the next step.
template <explicit_tableau T>
constexpr bool is_fsal() {
    constexpr int s = T::stages;
    if (T::c[s - 1] != 1.0 || T::b[s - 1] != 0.0) return false;
    for (int j = 0; j < s; ++j)
        if (T::a[s - 1][j] != T::b[j]) return false;
    return true;
}

}  // namespace cubie
