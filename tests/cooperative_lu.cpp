// cooperative_lu against dense_lu, bit for bit: with one lane (single_lane) and with teams
// of 2 to 8 host threads standing in for a tile's lanes, on integer matrices, random real
// ones across many magnitudes, singular ones, and ones holding NaN or Inf
// (support/lu_test_matrices.hpp); and on complex ones (implicit Runge-Kutta's iteration
// matrices) whose real and imaginary parts are drawn so.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <cuda/std/complex>

#include "cubie/linear/complex_dense_lu.hpp"
#include "cubie/linear/cooperative_lu.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "support/deterministic_integers.hpp"
#include "support/host_team.hpp"
#include "support/lu_test_matrices.hpp"

// Host threads meet at std::barrier, which device code cannot call: the cuda variant of
// this suite compiles these tests out (cuda_only/cooperative_lu.cu runs tiles of a warp).
#if !defined(__CUDACC__)
using namespace cubie;
using cubie::testing::deterministic_integers;
using cubie::testing::draw_lu_matrix;
using cubie::testing::lu_matrix_kinds;

namespace {

template <class T, int N>
using matrix = typename dense_lu<T, N>::matrix;

template <class T, int N>
struct reference {
    bool regular;
    vector<T, N> x;
};

template <class T, int N>
reference<T, N> dense_solution(const matrix<T, N>& a, const vector<T, N>& b) {
    dense_lu<T, N> lu;
    reference<T, N> r{lu.factor(a), b};
    if (r.regular) lu.solve(r.x);
    return r;
}

/// What lane `lane` of a G-lane group gets of the matrix and right-hand side, factors and
/// solves; its elements of x go into `x`, its verdict into regular[lane].
template <class T, int N, class Group>
void solve_on_lane(const Group& g, const matrix<T, N>& a, const vector<T, N>& b, std::vector<T>& x,
                   std::vector<int>& regular) {
    using lu_type = cooperative_lu<T, N, Group>;
    constexpr int G = Group::size;
    const int lane = g.lane();
    typename lu_type::rows_type rows{};
    typename lu_type::part part{};
    for (int m = 0; m < lu_type::rows_per_lane; ++m)
        if (lane + m * G < N) {
            rows[m] = a[lane + m * G];
            part[m] = b[lane + m * G];
        }
    lu_type lu;
    const bool ok = lu.factor(g, rows);
    regular[static_cast<std::size_t>(lane)] = ok ? 1 : 0;
    if (!ok) return;
    lu.solve(g, part);
    for (int m = 0; m < lu_type::rows_per_lane; ++m)
        if (lane + m * G < N) x[static_cast<std::size_t>(lane + m * G)] = part[m];
}

template <class T>
bool same_bits(T a, T b) {
    return std::memcmp(static_cast<const void*>(&a), static_cast<const void*>(&b), sizeof(T)) == 0;
}

template <class T>
inline constexpr bool is_complex = false;
template <class T>
inline constexpr bool is_complex<cuda::std::complex<T>> = true;

template <class T, int N>
struct lu_problem {
    matrix<T, N> a;
    vector<T, N> b;
};

/// A matrix of kind k and a right-hand side; complex ones take their real and imaginary
/// parts from two matrices of that kind.
template <class T, int N>
lu_problem<T, N> draw_problem(cubie::testing::lu_matrix_kind k, deterministic_integers& draws) {
    lu_problem<T, N> p{};
    if constexpr (is_complex<T>) {
        using real = typename T::value_type;
        const matrix<real, N> re = draw_lu_matrix<real, N>(k, draws);
        const matrix<real, N> im = draw_lu_matrix<real, N>(k, draws);
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) p.a[i][j] = T(re[i][j], im[i][j]);
        for (T& v : p.b) v = T(real(draws(-9, 9)), real(draws(-9, 9)));
    } else {
        p.a = draw_lu_matrix<T, N>(k, draws);
        for (T& v : p.b) v = T(draws(-9, 9));
    }
    return p;
}

/// `cases` matrices of each kind, solved by G lanes and by dense_lu.
template <class T, int N, int G>
void check_against_dense(int cases, std::uint64_t seed) {
    deterministic_integers draws(seed);
    for (const auto k : lu_matrix_kinds) {
        for (int c = 0; c < cases; ++c) {
            const lu_problem<T, N> problem = draw_problem<T, N>(k, draws);
            const matrix<T, N>& a = problem.a;
            const vector<T, N>& b = problem.b;
            const reference<T, N> expected = dense_solution<T, N>(a, b);
            std::vector<T> x(N, T(0));
            std::vector<int> regular(G, -1);
            if constexpr (G == 1) {
                solve_on_lane<T, N>(single_lane{}, a, b, x, regular);
            } else {
                cubie::testing::run_team<G>(
                    [&](const auto& g) { solve_on_lane<T, N>(g, a, b, x, regular); });
            }
            INFO("N " << N << ", lanes " << G << ", kind " << int(k) << ", case " << c);
            for (int lane = 0; lane < G; ++lane) CHECK(regular[lane] == (expected.regular ? 1 : 0));
            if (!expected.regular) continue;
            int differing = 0;
            for (int i = 0; i < N; ++i) differing += same_bits(x[i], expected.x[i]) ? 0 : 1;
            CHECK(differing == 0);
        }
    }
}

}  // namespace

TEST_CASE_TEMPLATE("with one lane, cooperative_lu gives dense_lu's bits", T, float, double) {
    check_against_dense<T, 1, 1>(20, 1);
    check_against_dense<T, 3, 1>(50, 2);
    check_against_dense<T, 7, 1>(50, 3);
    check_against_dense<T, 20, 1>(30, 4);
}

TEST_CASE_TEMPLATE("teams of 2 to 8 lanes give dense_lu's bits", T, float, double) {
    check_against_dense<T, 5, 2>(6, 5);   // lanes of 3 and 2 rows
    check_against_dense<T, 5, 4>(6, 6);   // three lanes of 1 row, one of 2
    check_against_dense<T, 8, 8>(6, 7);   // a row per lane
    check_against_dense<T, 20, 8>(4, 8);  // 3 rows on four lanes, 2 on the rest
}

TEST_CASE_TEMPLATE("complex elements: teams of 2 to 8 lanes give complex dense_lu's bits", T, float,
                   double) {
    // Small sizes: unrolled over complex elements, size 20 took minutes to compile on the
    // host. Radau IIA 5's complex matrices of Pollution (20 states) on 4 and 8 lanes are
    // checked bit for bit in implicit_rk_on_lanes.cpp.
    using complex = cuda::std::complex<T>;
    check_against_dense<complex, 5, 2>(6, 9);   // lanes of 3 and 2 rows
    check_against_dense<complex, 7, 4>(6, 10);  // three lanes of 2 rows, one of 1
}

TEST_CASE("the verdicts of singular and non-finite matrices are dense_lu's") {
    // A zero matrix, and one whose only NaN sits on the diagonal of the first pivot.
    matrix<double, 4> zero{};
    matrix<double, 4> nan_first{};
    for (int i = 0; i < 4; ++i) nan_first[i][i] = 1;
    nan_first[0][0] = std::numeric_limits<double>::quiet_NaN();
    const vector<double, 4> b{1, 2, 3, 4};
    for (const auto& a : {zero, nan_first}) {
        std::vector<double> x(4);
        std::vector<int> regular(4, -1);
        cubie::testing::run_team<4>(
            [&](const auto& g) { solve_on_lane<double, 4>(g, a, b, x, regular); });
        for (int verdict : regular) CHECK(verdict == 0);
        CHECK_FALSE((dense_solution<double, 4>(a, b).regular));
    }
}
#endif
