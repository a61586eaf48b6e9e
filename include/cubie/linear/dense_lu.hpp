#pragma once
// LU factorisation with partial pivoting of one small dense N x N matrix, per thread: the
// linear solver of Newton iterations and Rosenbrock stages, which factor I - h gamma J once
// per step and solve with it several times.
//
//   P A = L U,  L unit lower triangular, U upper triangular
//
// For small N every loop unrolls completely, so that every index is a compile-time
// constant: up to N = 8 in double (11 in float) the factors then live in registers, and
// larger matrices, though they spill, still run faster than with rolled loops (one
// factorisation and three solves per thread on an H200: 2.5 times for N = 12 in double and
// N = 20 in float, 1.13 times for N = 20 in double). Unrolled code grows like N^3 times the
// cost of an element's multiply-add, and nvcc's time with it: a kernel with an N = 20 double
// instance compiles in 8 s against 3 s for a trivial one, N = 24 in 42 s, N = 32 in over two
// minutes. So the loops unroll while cost N^3 stays within the real N = 20's 8000 (real
// N <= 20, complex N <= 12, a complex multiply-add costing four real ones), and stay rolled
// beyond (N = 32: 3.3 s). An unrolled complex N = 20 beside a real one made a Radau IIA 5
// kernel for Pollution take cicc 300 s and ptxas 37 s, for a 29 KB stack frame.
//
// Row interchanges follow LINPACK (dgefa/dgesl): step k swaps the pivot row into place in
// the columns not yet eliminated (k..N-1) only, and solve() replays the same interchange
// before eliminating column k from b; the multipliers stay in the rows where they were
// computed, as that replay expects. The swap tests each candidate row against the pivot
// row, so that unrolled it is a predicated exchange at constant indices.
//
// Singular to working precision: factor() fails when a pivot u_kk, the largest magnitude
// left in its column, is
//   - not finite, zero or subnormal (no usable reciprocal), or
//   - at most N * eps * (sum_{m<k} |l_km|) * max_{m<k} |u_mk| (eps: machine epsilon).
// u_kk is the pivot row's entry of A in column k minus the terms l_km u_mk that eliminating
// columns m < k subtracted from it (l_km: the row's multipliers, u_mk: column k of U above
// the pivot), and rounding each subtraction perturbs it by about eps |l_km u_mk|; the bound
// holds the sum of those perturbations over at most N terms (Hoelder's inequality). A
// pivot below it is what is left of cancelling terms that large, and cannot be told from
// zero: an exactly rank-deficient matrix leaves pivots of that size rather than exact
// zeros. The bound looks only at the terms that reached u_kk. The rows of I - h gamma J of
// stiff chemistry differ by the ratio of their rate constants (up to 1e15 for Pollution),
// and a row can hold a huge entry in another column (OH's production from O1D at 8.9e11)
// beside a modest diagonal; a bound from the whole matrix's or the whole row's largest
// entry calls such regular matrices singular in float. A pivot with nothing subtracted from
// it is exact and fails only if zero. A row holding Inf fails when it is reached (the
// bound or the pivot is infinite); NaN stays in the part still to be eliminated, so at the
// latest it is the last pivot.
//
// The elements are float or double, or, with linear/complex_dense_lu.hpp included,
// cuda::std::complex of either (the complex iteration matrices of implicit Runge-Kutta
// methods). lu_element<T> says how to do the little arithmetic the factorisation needs; for
// float and double it is the plain expressions, and the pivot's magnitude is |a|.

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/std/utility>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"

namespace cubie {

namespace detail {

// On the device each operation of the elimination is rounded as written. nvcc leaves the
// fusing of a multiply with an add to ptxas, which fuses or not by the code around them,
// so the same elimination compiled into two kernels could round differently (cooperative_lu
// on 32 lanes and dense_lu on a thread differed in the last bits of a third of the
// solutions). The host has no fused instruction to count on and rounds twice, in every
// build the same.

/// a b + c: fused on the device.
template <class T>
CUBIE_HD T lu_multiply_add(T a, T b, T c) {
#if defined(__CUDA_ARCH__)
    return cuda::std::fma(a, b, c);
#else
    return a * b + c;
#endif
}

/// a b, rounded on its own: on the device never fused with an addition that follows.
template <class T>
CUBIE_HD T lu_product(T a, T b) {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == sizeof(float))
        return __fmul_rn(a, b);
    else
        return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

}  // namespace detail

/// The arithmetic dense_lu does on its elements, for float and double; complex elements have
/// their specialisation in linear/complex_dense_lu.hpp.
template <class T>
struct lu_element {
    static_assert(cuda::std::numeric_limits<T>::is_iec559,
                  "dense_lu works in float or double, or in cuda::std::complex of either with "
                  "cubie/linear/complex_dense_lu.hpp included");
    using real = T;                 ///< the type of magnitudes
    static constexpr int cost = 1;  ///< real multiply-adds per multiply-add of elements
    CUBIE_HD static T magnitude(T a) { return cuda::std::fabs(a); }
    CUBIE_HD static T reciprocal(T a) { return T(1) / a; }
    CUBIE_HD static T product(T a, T b) { return detail::lu_product(a, b); }
    /// a - b c
    CUBIE_HD static T minus_product(T a, T b, T c) { return detail::lu_multiply_add(-b, c, a); }
};

template <class T, int N>
class dense_lu {
    using element = lu_element<T>;
    using real = typename element::real;
    static_assert(N >= 1, "dense_lu needs at least one row");
    static constexpr bool unrolled = element::cost * N * N * N <= 20 * 20 * 20;

    /// body(i) for i = first, ..., N - 1: unrolled completely for small N (first is then a
    /// constant once the enclosing loops are unrolled), else left to the compiler.
    template <class Body>
    CUBIE_HD static void for_each_from(int first, Body&& body) {
        if constexpr (unrolled) {
            CUBIE_UNROLL
            for (int i = first; i < N; ++i) body(i);
        } else {
            for (int i = first; i < N; ++i) body(i);
        }
    }

    /// body(i) for i = 0, ..., end - 1, unrolled like for_each_from.
    template <class Body>
    CUBIE_HD static void for_each_below(int end, Body&& body) {
        if constexpr (unrolled) {
            CUBIE_UNROLL
            for (int i = 0; i < end; ++i) body(i);
        } else {
            for (int i = 0; i < end; ++i) body(i);
        }
    }

public:
    using matrix = vector<vector<T, N>, N>;  ///< row-major: A[i][j]

    /// Factors A. False when A is singular to working precision (the rule above); after a
    /// failure, solve() must not be called until a factorisation succeeds.
    CUBIE_HD bool factor(const matrix& A) {
        using limits = cuda::std::numeric_limits<real>;
        lu_ = A;
        vector<real, N> multipliers{};  // per row, moved with it: sum of |l| taken so far

        // A rejected pivot ends the factorisation: the later steps return at once.
        bool regular = true;
        for_each_from(0, [&](int k) {
            if (!regular) return;
            int p = k;
            real pivot = element::magnitude(lu_[k][k]);
            for_each_from(k + 1, [&](int i) {
                const real a = element::magnitude(lu_[i][k]);
                if (a > pivot) {
                    pivot = a;
                    p = i;
                }
            });
            for_each_from(k + 1, [&](int i) {
                if (i == p) {
                    for_each_from(k, [&](int j) { cuda::std::swap(lu_[k][j], lu_[i][j]); });
                    cuda::std::swap(multipliers[k], multipliers[i]);
                }
            });
            real above = 0;  // max_{m<k} |u_mk|
            for_each_below(
                k, [&](int m) { above = cuda::std::fmax(above, element::magnitude(lu_[m][k])); });
            const real negligible = real(N) * limits::epsilon() * multipliers[k] * above;
            regular = pivot > negligible && pivot >= limits::min() && pivot <= limits::max();
            if (!regular) return;
            pivot_[k] = p;
            // The diagonal keeps 1 / u_kk: solve() multiplies instead of dividing.
            const T inverse = element::reciprocal(lu_[k][k]);
            lu_[k][k] = inverse;
            for_each_from(k + 1, [&](int i) {
                const T l = element::product(lu_[i][k], inverse);
                lu_[i][k] = l;
                multipliers[i] += element::magnitude(l);
                for_each_from(k + 1, [&](int j) {
                    lu_[i][j] = element::minus_product(lu_[i][j], l, lu_[k][j]);
                });
            });
        });
        return regular;
    }

    /// Solves A x = b in place (b becomes x) with the last successful factorisation; any
    /// number of right-hand sides may share one factorisation.
    CUBIE_HD void solve(vector<T, N>& b) const {
        for_each_from(0, [&](int k) {
            for_each_from(k + 1, [&](int i) {
                if (i == pivot_[k]) cuda::std::swap(b[k], b[i]);
            });
            for_each_from(k + 1,
                          [&](int i) { b[i] = element::minus_product(b[i], lu_[i][k], b[k]); });
        });
        for_each_from(0, [&](int r) {
            const int k = N - 1 - r;
            for_each_from(k + 1,
                          [&](int j) { b[k] = element::minus_product(b[k], lu_[k][j], b[j]); });
            b[k] = element::product(b[k], lu_[k][k]);
        });
    }

private:
    matrix lu_{};  ///< L below the diagonal (unit diagonal implied), U above, 1/u_kk on it
    vector<int, N> pivot_{};  ///< step k exchanged rows k and pivot_[k]
};

}  // namespace cubie
