#pragma once
// Which entries of an N x N matrix can be nonzero: the structure of a system's Jacobian,
// known when its derivatives are (the code generator writes it beside them), from which
// linear/sparse_lu.hpp plans a factorisation at compile time.
//
//   static constexpr cubie::sparsity_pattern<3> jacobian_pattern{{
//       "xx.",
//       "xxx",
//       ".xx",
//   }};
//
// Row i, column j is 'x' when d f_i / d y_j can be nonzero and '.' when it is zero for
// every t, y and parameter. A system declaring its pattern must never write a nonzero
// value where it says '.': the factorisation does not read those entries.

namespace cubie {

template <int N>
struct sparsity_pattern {
    static_assert(N >= 1, "a sparsity pattern has at least one row");
    static constexpr int size = N;

    bool nonzero[N][N]{};  ///< [i][j]: entry (i, j) can be nonzero

    constexpr sparsity_pattern() = default;

    /// From N rows of N characters, 'x' for an entry that can be nonzero and '.' for one
    /// that cannot; a row of another length or another character fails to compile where
    /// the pattern is a constant.
    constexpr sparsity_pattern(const char* const (&rows)[N]) {
        for (int i = 0; i < N; ++i) {
            for (int j = 0; j < N; ++j) {
                const char c = rows[i][j];
                if (c != 'x' && c != '.') throw "a sparsity pattern's rows hold N of 'x' and '.'";
                nonzero[i][j] = c == 'x';
            }
            if (rows[i][N] != '\0') throw "a sparsity pattern's rows hold N characters";
        }
    }

    /// Every entry can be nonzero.
    static constexpr sparsity_pattern dense() {
        sparsity_pattern p;
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) p.nonzero[i][j] = true;
        return p;
    }

    constexpr bool operator()(int i, int j) const { return nonzero[i][j]; }

    /// The number of entries that can be nonzero.
    constexpr int count() const {
        int c = 0;
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) c += nonzero[i][j];
        return c;
    }
};

}  // namespace cubie
