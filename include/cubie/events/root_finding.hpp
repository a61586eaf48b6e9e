#pragma once
// Where a function crosses zero within a bracket: the ITP method (Interpolate, Truncate,
// Project; Oliveira and Takahashi, ACM TOMS 47(1), 2020). Each iteration takes the
// regula falsi point, moved towards the midpoint by a truncation of order width^2, and
// projected into the interval within which the bracket is sure to shrink as fast as
// bisection's would by the last iteration. So it never takes more iterations than
// bisection plus one (n0 = 1), and converges superlinearly, as the secant method does, on
// smooth functions: a crossing inside a step is located to the working precision in a
// handful of evaluations of the step's interpolant.
//
// Constants as the paper recommends: kappa1 = 0.2 / (b - a), kappa2 = 2, n0 = 1.

#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/core/step_size_math.hpp"

namespace cubie {

/// A located crossing: the end of the final bracket where the function is at or past zero,
/// and its value there.
template <class T>
struct located_crossing {
    T x;
    T value;
};

/// For F with F(a) = fa < 0 <= F(b) = fb and a < b: the first point found at which F is no
/// longer below zero, b' in (a, b], such that a crossing lies in [b' - 2 eps, b']. At most
/// ceil(log2((b - a) / (2 eps))) + 1 evaluations of F; stops early at an exact zero. A
/// bracket that does not hold (fa >= 0) gives a itself.
template <class T, class F>
CUBIE_HD located_crossing<T> locate_crossing(F&& f, T a, T b, T fa, T fb, T eps) {
    if (!(fa < 0)) return {a, fa};
    const T initial = b - a;
    if (!(initial > 2 * eps)) return {b, fb};
    const int bisections = static_cast<int>(cuda::std::ceil(cuda::std::log2(initial / (2 * eps))));
    // eps 2^(n_max - j), halved after each iteration j (n_max = bisections + n0); `left`
    // counts the iterations n_max - j that remain.
    T reach = cuda::std::ldexp(eps, bisections + 1);
    const T kappa1 = step_size_divide(T(0.2), initial);
    for (int left = bisections + 1; left >= 0 && b - a > 2 * eps; --left) {
        const T width = b - a;
        const T middle = a + width / 2;
        if (!(middle > a && middle < b)) break;  // no value of T between them
        // Any point will do: one outside (a, b), or NaN, gives way to the midpoint below.
        const T falsi = step_size_divide(fb * a - fa * b, fb - fa);
        const T delta = kappa1 * width * width;
        const T toward = middle - falsi;
        const T sign = toward > 0 ? T(1) : (toward < 0 ? T(-1) : T(0));
        const T truncated = delta <= cuda::std::fabs(toward) ? falsi + sign * delta : middle;
        const T radius = reach - width / 2;
        T x = cuda::std::fabs(truncated - middle) <= radius ? truncated : middle - sign * radius;
        if (!(x > a && x < b)) x = middle;  // rounding may leave the open interval
        const T fx = f(x);
        if (fx == 0) return {x, fx};
        if (fx > 0) {
            b = x;
            fb = fx;
        } else {
            a = x;
            fa = fx;
        }
        reach /= 2;
    }
    return {b, fb};
}

}  // namespace cubie
