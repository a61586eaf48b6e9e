#pragma once
// dense_lu (linear/dense_lu.hpp) over cuda::std::complex<float> and <double>: the complex
// N x N iteration matrices ((alpha + i beta) / h) I - J of implicit Runge-Kutta methods
// (algorithms/implicit_runge_kutta/implicit_runge_kutta.hpp), one per complex eigenvalue pair of
// A^-1. It costs about four real N x N factorisations (a complex multiply-add is four real ones)
// and holds 2 N^2 reals; the equivalent real 2N x 2N matrix [[alpha/h I - J, -beta/h I], [beta/h I,
// alpha/h I - J]] would cost eight and hold 4 N^2.
//
// The factorisation itself is dense_lu's, unchanged: the same loops, the same LINPACK row
// interchanges and the same singularity rule. Only the element arithmetic differs:
//   - a pivot's magnitude is |Re a| + |Im a|, as LINPACK's zgefa takes it (cabs1): no square
//     root, and within a factor sqrt(2) of |a|, so the singularity rule (a pivot at most
//     N eps sum|l| max|u| of what elimination subtracted from it, in this magnitude) keeps
//     its meaning;
//   - products are written out, (a + ib)(c + id) = (ac - bd) + i(ad + bc): cuda::std::complex's
//     operators follow C99 Annex G, which tests every product for NaN and recovers infinities,
//     and scales every quotient (logb, scalbn): branches and work in the innermost loop for
//     values that are finite here (factor() rejects a non-finite pivot; a NaN entry spreads
//     to a later pivot and fails it);
//   - the reciprocal of a pivot is Smith's (Commun. ACM 5 (1962) 435): dividing by the larger
//     of |Re|, |Im| first keeps |a|^2, which overflows float already at |a| ~ 1.8e19 (h ~ 1e-19),
//     out of the computation. One per row, so its branch costs nothing.

#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/limits>

#include "cubie/core/config.hpp"
#include "cubie/linear/dense_lu.hpp"

namespace cubie {

template <class T>
struct lu_element<cuda::std::complex<T>> {
    static_assert(cuda::std::numeric_limits<T>::is_iec559,
                  "complex dense_lu works in cuda::std::complex<float> or <double>");
    using real = T;
    using complex = cuda::std::complex<T>;
    static constexpr int cost = 4;  ///< (a + ib)(c + id): four real multiply-adds

    CUBIE_HD static T magnitude(const complex& a) {
        return cuda::std::fabs(a.real()) + cuda::std::fabs(a.imag());
    }
    CUBIE_HD static complex reciprocal(const complex& a) {
        const T re = a.real(), im = a.imag();
        if (cuda::std::fabs(re) >= cuda::std::fabs(im)) {
            const T r = im / re;
            const T inverse = T(1) / detail::lu_multiply_add(im, r, re);
            return complex(inverse, -detail::lu_product(r, inverse));
        }
        const T r = re / im;
        const T inverse = T(1) / detail::lu_multiply_add(re, r, im);
        return complex(detail::lu_product(r, inverse), -inverse);
    }
    /// The operations rounded as dense_lu.hpp says (detail::lu_multiply_add).
    CUBIE_HD static complex product(const complex& a, const complex& b) {
        return complex(
            detail::lu_multiply_add(a.real(), b.real(), -detail::lu_product(a.imag(), b.imag())),
            detail::lu_multiply_add(a.real(), b.imag(), detail::lu_product(a.imag(), b.real())));
    }
    /// a - b c
    CUBIE_HD static complex minus_product(const complex& a, const complex& b, const complex& c) {
        const complex bc = product(b, c);
        return complex(a.real() - bc.real(), a.imag() - bc.imag());
    }
};

}  // namespace cubie
