#pragma once
// Tableaus of Rosenbrock (linearly implicit Runge-Kutta) methods, and their compile-time
// consistency checks.
//
// A method in its original form (Hairer & Wanner, Solving ODEs II, IV.7, (7.4)) reads, with
// J = df/dy(t, y) and f_t = df/dt(t, y),
//
//   (I - h gamma J) k_i = h f(t + alpha_i h, y + sum_{j<i} alpha_ij k_j)
//                         + h J sum_{j<i} gamma_ij k_j + gamma_i h^2 f_t,
//   y_new = y + sum_i b_i k_i.
//
// Tableaus here hold its transformed form ((7.25)), which needs no product with J: with
// U_i = sum_{j<=i} gamma_ij k_j (gamma_ii = gamma) and W = I / (h gamma) - J,
//
//   W U_i = f(t + alpha_i h, y + sum_{j<i} a_ij U_j) + sum_{j<i} (c_ij / h) U_j + gamma_i h f_t,
//   y_new = y + sum_i m_i U_i,   error = sum_i (m_i - m_hat_i) U_i,
//
// where, with Gamma = (gamma_ij), (a_ij) = (alpha_ij) Gamma^-1, (c_ij) = diag(1/gamma) -
// Gamma^-1 and (m_i) = (b_i) Gamma^-1. A tableau is a type with static constexpr members
// (coefficients in double; the stepper converts them to the working precision):
//
//   stages, order, embedded_order   int: s, order of y_new, order of the embedded solution
//   name                            const char*, the method's snake_case name
//   gamma                           double > 0, the diagonal of Gamma
//   a[s][s], c[s][s]                double, strictly lower triangular
//   alpha[s]                        double, stage times alpha_i = sum_j alpha_ij
//   gamma_sum[s]                    double, gamma_i = sum_{j<=i} gamma_ij, weights of h f_t
//   m[s], m_hat[s]                  double, weights of the solution and the embedded one
//   w_order                         int, optional: the solution's order as a W-method (below);
//                                   1 where a tableau states none
//
// W-methods (Hairer & Wanner IV.7; Steihaug & Wolfbrandt 1979) are the same formulas with J
// replaced by an arbitrary matrix A, W = I / (h gamma) - A: an approximate or outdated
// Jacobian. Their order conditions split each tree's Rosenbrock condition by the label of
// every vertex with one son: meagre (a derivative of f, weight alpha_ij) or fat (A, weight
// gamma_ij); a tree with a fat vertex must give 0, since the exact solution does not contain A.
// A method has W-order p when its solution keeps order p for every A (1, 3, 8, 21 conditions up
// to order 1, 2, 3, 4); every consistent method has W-order 1 and W-order p implies order p.
//
// `check_rosenbrock_tableau<T>()` verifies in a static_assert: a and c strictly lower,
// gamma > 0, 1 <= w_order <= order, and, after recovering Gamma from c and (alpha_ij), b, b_hat
// from a, m, m_hat: alpha_i = sum_j alpha_ij, gamma_i = sum_j gamma_ij, the order conditions of
// b and b_hat for the trees up to order 4 (up to their stated order when lower), and the
// W-order conditions of b up to w_order (at most 4). The conditions of order 5 and the failure
// of those one order beyond (Rosenbrock and W) are checked in 50-digit arithmetic by
// tests/reference/check_rosenbrock_conditions.py.

#include <concepts>

namespace cubie {

template <class T>
concept rosenbrock_tableau = requires {
    { T::stages } -> std::convertible_to<int>;
    { T::order } -> std::convertible_to<int>;
    { T::embedded_order } -> std::convertible_to<int>;
    { T::name } -> std::convertible_to<const char*>;
    { T::gamma } -> std::convertible_to<double>;
    T::a[0][0];
    T::c[0][0];
    T::alpha[0];
    T::gamma_sum[0];
    T::m[0];
    T::m_hat[0];
};

namespace detail::rosenbrock_checks {

// Coefficients are 16-digit decimals of sizes up to 300 (Rodas5P's c): conditions hold to
// rounding relative to the size of their terms.
inline constexpr double tolerance = 1e-12;

constexpr double magnitude(double x) {
    return x < 0 ? -x : x;
}

constexpr bool near(double x, double y, double size) {
    return magnitude(x - y) <= tolerance * (size > 1 ? size : 1);
}

template <class T>
constexpr bool strictly_lower() {
    for (int i = 0; i < T::stages; ++i)
        for (int j = i; j < T::stages; ++j)
            if (T::a[i][j] != 0.0 || T::c[i][j] != 0.0) return false;
    return true;
}

/// The method in its original form: Gamma, (alpha_ij) and the weights b, b_hat.
template <class T>
struct original_form {
    double gamma[T::stages][T::stages]{};
    double alpha[T::stages][T::stages]{};
    double b[T::stages]{};
    double b_hat[T::stages]{};
};

template <class T>
constexpr original_form<T> recover_original_form() {
    constexpr int s = T::stages;
    original_form<T> o;
    // Gamma^-1 = diag(1/gamma) - c is lower triangular: forward substitution gives
    // Gamma_ij = gamma sum_{j<=k<i} c_ik Gamma_kj below the diagonal.
    for (int i = 0; i < s; ++i) {
        o.gamma[i][i] = T::gamma;
        for (int j = 0; j < i; ++j) {
            double sum = 0;
            for (int k = j; k < i; ++k) sum += T::c[i][k] * o.gamma[k][j];
            o.gamma[i][j] = T::gamma * sum;
        }
    }
    for (int j = 0; j < s; ++j)
        for (int k = 0; k < s; ++k) {
            for (int i = 0; i < s; ++i) o.alpha[i][j] += T::a[i][k] * o.gamma[k][j];
            o.b[j] += T::m[k] * o.gamma[k][j];
            o.b_hat[j] += T::m_hat[k] * o.gamma[k][j];
        }
    return o;
}

template <class T>
constexpr bool stage_sums_match(const original_form<T>& o) {
    for (int i = 0; i < T::stages; ++i) {
        double alpha = 0, alpha_size = 0, gamma = 0, gamma_size = 0;
        for (int j = 0; j < T::stages; ++j) {
            alpha += o.alpha[i][j];
            alpha_size += magnitude(o.alpha[i][j]);
            gamma += o.gamma[i][j];
            gamma_size += magnitude(o.gamma[i][j]);
        }
        if (!near(alpha, T::alpha[i], alpha_size) || !near(gamma, T::gamma_sum[i], gamma_size))
            return false;
    }
    return true;
}

/// Order conditions sum_i w_i Phi_i(tau) = 1 / density(tau) for the trees up to order
/// min(4, p). Phi follows Hairer & Wanner IV.7: a vertex with one son is weighted by
/// beta_ij = alpha_ij + gamma_ij (diagonal gamma included), a vertex with several sons by
/// alpha_ij for each son.
template <class T>
constexpr bool satisfies_order_conditions(const original_form<T>& o, const double (&w)[T::stages],
                                          int p) {
    constexpr int s = T::stages;
    double beta[s][s]{}, alpha_i[s]{}, beta_i[s]{};
    for (int i = 0; i < s; ++i)
        for (int j = 0; j < s; ++j) {
            beta[i][j] = o.alpha[i][j] + o.gamma[i][j];
            alpha_i[i] += o.alpha[i][j];
            beta_i[i] += beta[i][j];
        }
    double beta_beta[s]{}, alpha_beta[s]{}, beta_alpha2[s]{}, beta_beta_beta[s]{};
    for (int i = 0; i < s; ++i)
        for (int j = 0; j < s; ++j) {
            beta_beta[i] += beta[i][j] * beta_i[j];
            alpha_beta[i] += o.alpha[i][j] * beta_i[j];
            beta_alpha2[i] += beta[i][j] * alpha_i[j] * alpha_i[j];
        }
    for (int i = 0; i < s; ++i)
        for (int j = 0; j < s; ++j) beta_beta_beta[i] += beta[i][j] * beta_beta[j];

    constexpr int trees = 8;
    constexpr int tree_order[trees] = {1, 2, 3, 3, 4, 4, 4, 4};
    constexpr double density[trees] = {1, 2, 3, 6, 4, 8, 12, 24};
    for (int t = 0; t < trees; ++t) {
        if (tree_order[t] > p) continue;
        double sum = 0, size = 0;
        for (int i = 0; i < s; ++i) {
            const double a = alpha_i[i];
            const double phi[trees] = {
                1,         beta_i[i],         a * a,          beta_beta[i],
                a * a * a, a * alpha_beta[i], beta_alpha2[i], beta_beta_beta[i]};
            sum += w[i] * phi[t];
            size += magnitude(w[i] * phi[t]);
        }
        if (!near(sum, 1.0 / density[t], size)) return false;
    }
    return true;
}

template <int S>
struct stage_vector {
    double v[S]{};
};

template <int S>
constexpr stage_vector<S> times(const double (&m)[S][S], const stage_vector<S>& x) {
    stage_vector<S> r;
    for (int i = 0; i < S; ++i)
        for (int j = 0; j < S; ++j) r.v[i] += m[i][j] * x.v[j];
    return r;
}

template <int S>
constexpr stage_vector<S> pointwise(const stage_vector<S>& x, const stage_vector<S>& y) {
    stage_vector<S> r;
    for (int i = 0; i < S; ++i) r.v[i] = x.v[i] * y.v[i];
    return r;
}

template <int S>
constexpr bool weighted_sum_is(const double (&w)[S], const stage_vector<S>& phi, double expected) {
    double sum = 0, size = 0;
    for (int i = 0; i < S; ++i) {
        sum += w[i] * phi.v[i];
        size += magnitude(w[i] * phi.v[i]);
    }
    return near(sum, expected, size);
}

/// W-order conditions sum_i w_i Phi_i(tau) = 1 / density(tau), or 0 where tau has a fat vertex,
/// for the labelled trees up to order min(4, p): a vertex with one son is meagre (alpha_ij)
/// or fat (gamma_ij, diagonal included), a vertex with several sons is meagre.
template <class T>
constexpr bool satisfies_w_order_conditions(const original_form<T>& o, const double (&w)[T::stages],
                                            int p) {
    constexpr int s = T::stages;
    using column = stage_vector<s>;
    // label(fat, x): x below a vertex with one son, meagre or fat.
    const auto label = [&](bool fat, const column& x) {
        return fat ? times(o.gamma, x) : times(o.alpha, x);
    };
    column e;
    for (int i = 0; i < s; ++i) e.v[i] = 1;
    if (!weighted_sum_is(w, e, 1.0)) return false;
    if (p < 2) return true;
    for (const bool x : {false, true})  // [tau]
        if (!weighted_sum_is(w, label(x, e), x ? 0.0 : 1.0 / 2)) return false;
    if (p < 3) return true;
    const column alpha_e = times(o.alpha, e);
    const column alpha_e2 = pointwise(alpha_e, alpha_e);
    if (!weighted_sum_is(w, alpha_e2, 1.0 / 3)) return false;  // [tau, tau]
    for (const bool x : {false, true})
        for (const bool y : {false, true})  // [[tau]]
            if (!weighted_sum_is(w, label(x, label(y, e)), x || y ? 0.0 : 1.0 / 6)) return false;
    if (p < 4) return true;
    if (!weighted_sum_is(w, pointwise(alpha_e2, alpha_e), 1.0 / 4)) return false;  // [tau^3]
    for (const bool x : {false, true}) {
        // [tau, [tau]] and [[tau, tau]]
        if (!weighted_sum_is(w, pointwise(alpha_e, times(o.alpha, label(x, e))), x ? 0.0 : 1.0 / 8))
            return false;
        if (!weighted_sum_is(w, label(x, alpha_e2), x ? 0.0 : 1.0 / 12)) return false;
    }
    for (const bool x : {false, true})
        for (const bool y : {false, true})
            for (const bool z : {false, true})  // [[[tau]]]
                if (!weighted_sum_is(w, label(x, label(y, label(z, e))),
                                     x || y || z ? 0.0 : 1.0 / 24))
                    return false;
    return true;
}

}  // namespace detail::rosenbrock_checks

/// The W-order T states, or 1 (every consistent method's) where it states none.
template <rosenbrock_tableau T>
constexpr int rosenbrock_w_order() {
    if constexpr (requires { T::w_order; }) return T::w_order;
    return 1;
}

/// True when T is a consistent Rosenbrock tableau of its stated orders and W-order (checked to
/// order 4).
template <rosenbrock_tableau T>
constexpr bool check_rosenbrock_tableau() {
    namespace checks = detail::rosenbrock_checks;
    constexpr int w_order = rosenbrock_w_order<T>();
    if (!(T::stages >= 1 && T::order >= 1 && T::embedded_order >= 1 &&
          T::embedded_order != T::order && w_order >= 1 && w_order <= T::order && T::gamma > 0 &&
          checks::strictly_lower<T>()))
        return false;
    const checks::original_form<T> o = checks::recover_original_form<T>();
    return checks::stage_sums_match<T>(o) &&
           checks::satisfies_order_conditions<T>(o, o.b, T::order) &&
           checks::satisfies_order_conditions<T>(o, o.b_hat, T::embedded_order) &&
           checks::satisfies_w_order_conditions<T>(o, o.b, w_order);
}

}  // namespace cubie
