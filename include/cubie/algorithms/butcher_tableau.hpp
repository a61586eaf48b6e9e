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
// `check_tableau<T>()` verifies in a static_assert: explicitness, c_i = sum_j a_ij, and the
// order conditions of b and b_hat up to order 4 (up to their stated order when lower).

#include <concepts>

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

namespace detail {

// Coefficients are double literals of rational numbers or decimal expansions, so the
// conditions hold to rounding only.
inline constexpr double tableau_tolerance = 1e-12;

constexpr bool near(double x, double y) {
    const double d = x - y;
    return (d < 0 ? -d : d) <= tableau_tolerance;
}

/// Order conditions (trees up to order 4) for weights w of tableau T, up to order p.
template <class T>
constexpr bool satisfies_order_conditions(const double (&w)[T::stages], int p) {
    constexpr int s = T::stages;
    double sum_w = 0, w_c = 0, w_c2 = 0, w_ac = 0, w_c3 = 0, w_cac = 0, w_ac2 = 0, w_aac = 0;
    for (int i = 0; i < s; ++i) {
        double ac = 0, ac2 = 0, aac = 0;
        for (int j = 0; j < s; ++j) {
            ac += T::a[i][j] * T::c[j];
            ac2 += T::a[i][j] * T::c[j] * T::c[j];
            double ajc = 0;
            for (int k = 0; k < s; ++k) ajc += T::a[j][k] * T::c[k];
            aac += T::a[i][j] * ajc;
        }
        const double ci = T::c[i];
        sum_w += w[i];
        w_c += w[i] * ci;
        w_c2 += w[i] * ci * ci;
        w_ac += w[i] * ac;
        w_c3 += w[i] * ci * ci * ci;
        w_cac += w[i] * ci * ac;
        w_ac2 += w[i] * ac2;
        w_aac += w[i] * aac;
    }
    bool ok = near(sum_w, 1.0);
    if (p >= 2) ok = ok && near(w_c, 1.0 / 2);
    if (p >= 3) ok = ok && near(w_c2, 1.0 / 3) && near(w_ac, 1.0 / 6);
    if (p >= 4) {
        ok = ok && near(w_c3, 1.0 / 4) && near(w_cac, 1.0 / 8) && near(w_ac2, 1.0 / 12) &&
             near(w_aac, 1.0 / 24);
    }
    return ok;
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

}  // namespace detail

/// True when T is a consistent explicit tableau of its stated orders (checked to order 4).
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
