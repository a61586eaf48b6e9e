#pragma once
// sum += scale sum_j w_j X_j (or a new sum) over the stages of an implicit method, the weights w_j
// constants of its tableau: a zero weight emits nothing, and the product with each stage is
// taken as (w_j scale) X_j.

#include <cuda/std/cstddef>
#include <cuda/std/tuple>

#include "cubie/core/config.hpp"
#include "cubie/core/static_for.hpp"

namespace cubie {

/// Weight is a captureless lambda, weight(j) a constant expression for each stage j.
template <int Stages, class State, class Vectors, class T, class Weight>
CUBIE_HD void add_weighted_stages(State& sum, const Vectors& X, T scale, Weight) {
    static_for<Stages>([&](auto j) {
        constexpr double w = Weight{}(j);
        if constexpr (w != 0.0) {
            const T s = T(w) * scale;
            CUBIE_UNROLL
            for (cuda::std::size_t i = 0; i < cuda::std::tuple_size<State>::value; ++i)
                sum[i] += s * X[j][i];
        }
    });
}

/// start + scale sum_j w_j X_j, as add_weighted_stages.
template <int Stages, class State, class Vectors, class T, class Weight>
CUBIE_HD State with_weighted_stages(State start, const Vectors& X, T scale, Weight weight) {
    add_weighted_stages<Stages>(start, X, scale, weight);
    return start;
}

}  // namespace cubie
