#pragma once
// Vectors and matrices dealt out to the lanes of a lane_group (lane_group.hpp) the way
// cooperative_lu holds its rows: lane l of G holds elements l, l + G, l + 2G, ..., R =
// ceil(N / G) of them, slot m holding element l + m G (slots past N are unused).
//
//   lane_part<T, N, G>       a lane's slots of an N-vector
//   own_part(g, v)           the lane's slots of a vector every lane holds whole
//                            (of a matrix, a vector of rows: the lane's rows)
//   whole(g, part)           the whole vector on every lane, from every lane's slots
//
// Every index into a register array is a compile-time constant once the loops unroll: a
// lane's element l + m G is chosen by comparing the lane with each candidate, never by
// indexing with the lane, which would put the array in local memory. With one lane the
// part is the whole vector and every function returns its argument.

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"
#include "cubie/linear/lane_group.hpp"

namespace cubie {

template <class T, int N, int G>
using lane_part = vector<T, (N + G - 1) / G>;

/// The lane's slots of v, which every lane holds whole.
template <lane_group Group, class Vector>
CUBIE_HD auto own_part(const Group& g, const Vector& v) {
    constexpr int G = Group::size;
    constexpr int N = static_cast<int>(size_of<Vector>);
    if constexpr (G == 1) {
        return v;
    } else {
        const int lane = g.lane();
        lane_part<typename Vector::value_type, N, G> part{};
        CUBIE_UNROLL
        for (int i = 0; i < N; ++i)
            if (i % G == lane) part[i / G] = v[i];
        return part;
    }
}

/// The whole of an N-vector dealt out to the lanes, on every lane: one broadcast per
/// element.
template <int N, lane_group Group, class Part>
CUBIE_HD vector<typename Part::value_type, N> whole(const Group& g, const Part& part) {
    constexpr int G = Group::size;
    static_assert(size_of<Part> == (N + G - 1) / G,
                  "a lane's part of an N-vector has ceil(N / G) slots");
    if constexpr (G == 1) {
        return part;
    } else {
        vector<typename Part::value_type, N> v{};
        CUBIE_UNROLL
        for (int i = 0; i < N; ++i) v[i] = g.broadcast(part[i / G], i % G);
        return v;
    }
}

}  // namespace cubie
