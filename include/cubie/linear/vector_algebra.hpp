#pragma once
// The vector operations the Krylov solvers share: dot products, 2-norms, the residual
// b - A x of an operator given as a callable apply(v, Av).

#include <cuda/std/array>
#include <cuda/std/cmath>
#include <cuda/std/cstddef>

#include "cubie/core/config.hpp"

namespace cubie::linear {

template <class T, cuda::std::size_t N>
CUBIE_HD T dot(const cuda::std::array<T, N>& u, const cuda::std::array<T, N>& v) {
    T sum = 0;
    CUBIE_UNROLL
    for (cuda::std::size_t i = 0; i < N; ++i) sum += u[i] * v[i];
    return sum;
}

template <class T, cuda::std::size_t N>
CUBIE_HD T norm(const cuda::std::array<T, N>& v) {
    return cuda::std::sqrt(dot(v, v));
}

template <class Apply, class T, cuda::std::size_t N>
CUBIE_HD void residual(const Apply& apply, const cuda::std::array<T, N>& b,
                       const cuda::std::array<T, N>& x, cuda::std::array<T, N>& r) {
    cuda::std::array<T, N> Ax;
    apply(x, Ax);
    CUBIE_UNROLL
    for (cuda::std::size_t i = 0; i < N; ++i) r[i] = b[i] - Ax[i];
}

}  // namespace cubie::linear
