// dense_lu: exact solutions of integer systems, pivoting, the singularity rule, backward
// stability on Hilbert matrices, many right-hand sides per factorisation and a batch with
// singular members. Under nvcc every factorisation and solve runs in a kernel, one thread
// per matrix; the checks run on the host in long double.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "cubie/linear/dense_lu.hpp"
#if defined(__CUDACC__)
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#endif
#include "support/deterministic_integers.hpp"

using namespace cubie;

namespace {

template <class T, int N>
using matrix = typename dense_lu<T, N>::matrix;

/// Factors A once and solves b[0..count) with it: what one thread does.
template <class T, int N>
CUBIE_HD bool factor_and_solve(const matrix<T, N>& A, vector<T, N>* b, int count) {
    dense_lu<T, N> lu;
    if (!lu.factor(A)) return false;
    for (int r = 0; r < count; ++r) lu.solve(b[r]);
    return true;
}

#if defined(__CUDACC__)
template <class T, int N>
__global__ void factor_and_solve_kernel(const matrix<T, N>* A, vector<T, N>* b, int per_matrix,
                                        int count, int* factored) {
    const int m = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (m < count) factored[m] = factor_and_solve<T, N>(A[m], b + m * per_matrix, per_matrix);
}
#endif

template <class T, int N>
struct solved {
    std::vector<int> factored;    ///< per matrix
    std::vector<vector<T, N>> x;  ///< per right-hand side; left as given where not factored
};

/// Factors each matrix once and solves its b.size() / A.size() right-hand sides (stored
/// consecutively) on the backend this file is compiled for.
template <class T, int N>
solved<T, N> solve_all(const std::vector<matrix<T, N>>& A, std::vector<vector<T, N>> b) {
    const int count = static_cast<int>(A.size());
    const int per_matrix = static_cast<int>(b.size() / A.size());
    REQUIRE(b.size() == A.size() * static_cast<std::size_t>(per_matrix));
    std::vector<int> factored(A.size());
#if defined(__CUDACC__)
    const auto device_A = device_buffer<matrix<T, N>>::copy_of(A);
    auto device_b = device_buffer<vector<T, N>>::copy_of(b);
    device_buffer<int> device_factored(A.size());
    constexpr int block = 128;
    factor_and_solve_kernel<T, N><<<(count + block - 1) / block, block>>>(
        device_A.data(), device_b.data(), per_matrix, count, device_factored.data());
    CUBIE_CUDA_CHECK(cudaGetLastError());
    device_b.copy_to(b);
    device_factored.copy_to(factored);
#else
    for (int m = 0; m < count; ++m)
        factored[m] = factor_and_solve<T, N>(A[m], b.data() + m * per_matrix, per_matrix);
#endif
    return {factored, b};
}

template <class T, int N>
bool factors(const matrix<T, N>& A) {
    return solve_all<T, N>({A}, {vector<T, N>{}}).factored[0] != 0;
}

template <class T, int N>
long double infinity_norm(const vector<T, N>& x) {
    long double norm = 0;
    for (const T v : x) norm = std::max(norm, std::fabs(static_cast<long double>(v)));
    return norm;
}

template <class T, int N>
long double infinity_norm(const matrix<T, N>& A) {
    long double norm = 0;
    for (const auto& row : A) {
        long double sum = 0;
        for (const T a : row) sum += std::fabs(static_cast<long double>(a));
        norm = std::max(norm, sum);
    }
    return norm;
}

/// ||b - A x|| / (||A|| ||x||) in the infinity norm, in long double so that the check adds
/// no rounding of its own to speak of: the normwise backward error of x.
template <class T, int N>
long double backward_error(const matrix<T, N>& A, const vector<T, N>& x, const vector<T, N>& b) {
    long double residual = 0;
    for (int i = 0; i < N; ++i) {
        long double r = b[i];
        for (int j = 0; j < N; ++j)
            r -= static_cast<long double>(A[i][j]) * static_cast<long double>(x[j]);
        residual = std::max(residual, std::fabs(r));
    }
    return residual / (infinity_norm<T, N>(A) * infinity_norm<T, N>(x));
}

/// Partial pivoting is backward stable: the rounding errors of the factors and of the
/// triangular solves amount to a perturbation of A of at most a small multiple of N eps
/// times ||A|| (the pivot growth of these matrices is small).
template <class T, int N>
long double backward_error_bound() {
    return N * static_cast<long double>(std::numeric_limits<T>::epsilon());
}

/// A bound on the infinity-norm condition number of a matrix with a dominant entry in each
/// row, in distinct columns (a row permutation of a strictly diagonally dominant matrix):
/// ||A^-1|| <= 1 / min_i (dominant_i - sum of the other |a_ij|) (Varah 1975).
template <class T, int N>
long double condition_bound(const matrix<T, N>& A) {
    long double margin = std::numeric_limits<long double>::max();
    std::vector<int> dominant_columns;
    for (const auto& row : A) {
        const auto largest = std::max_element(row.begin(), row.end(),
                                              [](T a, T b) { return std::fabs(a) < std::fabs(b); });
        long double rest = 0;
        for (const T a : row) rest += std::fabs(static_cast<long double>(a));
        const long double dominant = std::fabs(static_cast<long double>(*largest));
        margin = std::min(margin, 2 * dominant - rest);
        dominant_columns.push_back(static_cast<int>(largest - row.begin()));
    }
    std::sort(dominant_columns.begin(), dominant_columns.end());
    REQUIRE(std::adjacent_find(dominant_columns.begin(), dominant_columns.end()) ==
            dominant_columns.end());
    REQUIRE(margin > 0);
    return infinity_norm<T, N>(A) / margin;
}

template <class T, int N>
vector<T, N> product(const matrix<T, N>& A, const vector<T, N>& x) {
    vector<T, N> b{};
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) b[i] += A[i][j] * x[j];
    return b;
}

/// A row-shuffled strictly diagonally dominant integer matrix (pivoting has work to do,
/// the condition number stays below about 4 N) and an integer solution; b = A x is exact.
template <class T, int N>
void integer_system(std::uint64_t seed, matrix<T, N>& A, vector<T, N>& x, vector<T, N>& b) {
    cubie::testing::deterministic_integers draw(seed);
    std::vector<int> columns(N);
    std::iota(columns.begin(), columns.end(), 0);
    for (int i = N - 1; i > 0; --i) std::swap(columns[i], columns[draw(0, i)]);
    for (int i = 0; i < N; ++i) {
        for (int j = 0; j < N; ++j) A[i][j] = T(draw(-3, 3));
        A[i][columns[i]] = T((draw(0, 1) != 0 ? 1 : -1) * (3 * (N - 1) + draw(1, 5)));
        x[i] = T(draw(1, 9) * (draw(0, 1) != 0 ? 1 : -1));
    }
    b = product<T, N>(A, x);
}

/// x solves A x = b to the accuracy its condition allows: forward error at most the
/// condition bound times the backward-error bound.
template <class T, int N>
void check_solution(const matrix<T, N>& A, const vector<T, N>& expected, const vector<T, N>& b) {
    const solved<T, N> s = solve_all<T, N>({A}, {b});
    REQUIRE(s.factored[0] != 0);
    const vector<T, N>& x = s.x[0];
    long double error = 0;
    for (int i = 0; i < N; ++i)
        error = std::max(error, std::fabs(static_cast<long double>(x[i]) - expected[i]));
    INFO("N = " << N);
    CHECK(backward_error<T, N>(A, x, b) <= backward_error_bound<T, N>());
    CHECK(error <=
          condition_bound<T, N>(A) * backward_error_bound<T, N>() * infinity_norm<T, N>(expected));
}

template <class T, int N>
void check_integer_system(std::uint64_t seed) {
    matrix<T, N> A;
    vector<T, N> x, b;
    integer_system<T, N>(seed, A, x, b);
    check_solution<T, N>(A, x, b);
}

}  // namespace

TEST_CASE_TEMPLATE("dense_lu solves integer systems with known solutions", T, float, double) {
    {
        const matrix<T, 1> A{{{T(-4)}}};
        const solved<T, 1> s = solve_all<T, 1>({A}, {vector<T, 1>{T(-12)}});
        CHECK(s.factored[0] != 0);
        CHECK(s.x[0][0] == T(3));  // one correctly rounded division
    }
    check_solution<T, 2>({{{T(1), T(3)}, {T(4), T(1)}}}, {T(2), T(-1)}, {T(-1), T(7)});
    check_solution<T, 3>({{{T(2), T(9), T(1)}, {T(1), T(-1), T(6)}, {T(8), T(2), T(-3)}}},
                         {T(1), T(2), T(-1)}, {T(19), T(-7), T(15)});
    check_integer_system<T, 5>(5);
    check_integer_system<T, 8>(8);
    check_integer_system<T, 20>(20);
}

TEST_CASE_TEMPLATE("dense_lu pivots past zero and tiny diagonal entries", T, float, double) {
    // Zero diagonal: elimination without row exchanges would divide by zero.
    check_solution<T, 3>({{{T(0), T(2), T(1)}, {T(1), T(0), T(3)}, {T(4), T(1), T(0)}}},
                         {T(-1), T(2), T(5)}, {T(9), T(14), T(-2)});
    // A tiny leading entry: without the exchange the multiplier 1 / tiny wipes out the
    // second row and x[0] comes out as 0 instead of about 1.
    const T tiny = T(1e-20);
    const matrix<T, 2> A{{{tiny, T(1)}, {T(1), T(1)}}};
    const solved<T, 2> s = solve_all<T, 2>({A}, {vector<T, 2>{T(1), T(2)}});
    REQUIRE(s.factored[0] != 0);
    const T eps = std::numeric_limits<T>::epsilon();
    CHECK(std::fabs(s.x[0][0] - T(1)) <= 2 * eps);
    CHECK(std::fabs(s.x[0][1] - T(1)) <= 2 * eps);
}

TEST_CASE_TEMPLATE("dense_lu inverts a permutation matrix exactly", T, float, double) {
    constexpr int N = 5;
    constexpr int to[N] = {3, 0, 4, 1, 2};  // row i has its one in column to[i]
    matrix<T, N> P{};
    for (int i = 0; i < N; ++i) P[i][to[i]] = T(1);
    const vector<T, N> b{T(0.1), T(-2.7), T(1) / T(3), T(1e5), T(-7e-9)};
    const solved<T, N> s = solve_all<T, N>({P}, {b});
    REQUIRE(s.factored[0] != 0);
    for (int i = 0; i < N; ++i) CHECK(s.x[0][to[i]] == b[i]);  // multipliers are all zero
}

TEST_CASE("dense_lu is backward stable on Hilbert matrices") {
    // cond(H_8) is about 3e10, so x carries large forward errors; the residual must still
    // be that of a nearby matrix.
    auto check = [](auto size) {
        constexpr int N = decltype(size)::value;
        matrix<double, N> H;
        vector<double, N> b;
        for (int i = 0; i < N; ++i) {
            long double sum = 0;
            for (int j = 0; j < N; ++j) {
                H[i][j] = 1.0 / (i + j + 1);
                sum += H[i][j];
            }
            b[i] = static_cast<double>(sum);  // A times ones, rounded once
        }
        const solved<double, N> s = solve_all<double, N>({H}, {b});
        INFO("N = " << N);
        REQUIRE(s.factored[0] != 0);
        CHECK(backward_error<double, N>(H, s.x[0], b) <= backward_error_bound<double, N>());
    };
    check(std::integral_constant<int, 4>{});
    check(std::integral_constant<int, 5>{});
    check(std::integral_constant<int, 6>{});
    check(std::integral_constant<int, 7>{});
    check(std::integral_constant<int, 8>{});
}

TEST_CASE_TEMPLATE("dense_lu reports singular matrices", T, float, double) {
    CHECK_FALSE(factors<T, 3>({}));
    CHECK_FALSE(factors<T, 3>({{{T(1), T(2), T(3)}, {T(0), T(0), T(0)}, {T(4), T(1), T(2)}}}));
    CHECK_FALSE(factors<T, 3>({{{T(1), T(0), T(3)}, {T(5), T(0), T(6)}, {T(4), T(0), T(2)}}}));
    CHECK_FALSE(factors<T, 4>({{{T(1), T(2), T(3), T(4)},
                                {T(0.5), T(7), T(-1), T(2)},
                                {T(1), T(2), T(3), T(4)},
                                {T(3), T(-1), T(0), T(1)}}}));
    // Rank 2; elimination leaves a last pivot of rounding size, not an exact zero.
    CHECK_FALSE(factors<T, 3>({{{T(1), T(2), T(3)}, {T(4), T(5), T(6)}, {T(7), T(8), T(9)}}}));
}

TEST_CASE_TEMPLATE(
    "dense_lu draws the singularity line at N eps times what elimination took "
    "from the pivot",
    T, float, double) {
    // N = 2: eliminating row 0 from row 1 of {{1, 1}, {1, 1 + d}} subtracts l u_01 = 1 from
    // 1 + d and leaves the pivot d exactly, which must exceed 2 eps |l| |u_01| = 2 eps, and
    // be a normal number.
    const T eps = std::numeric_limits<T>::epsilon();
    const T smallest = std::numeric_limits<T>::min();
    CHECK(factors<T, 2>({{{T(1), T(1)}, {T(1), T(1) + T(3) * eps}}}));
    CHECK_FALSE(factors<T, 2>({{{T(1), T(1)}, {T(1), T(1) + T(2) * eps}}}));
    CHECK(factors<T, 2>({{{smallest, T(0)}, {T(0), smallest}}}));
    CHECK_FALSE(factors<T, 2>({{{smallest / 4, T(0)}, {T(0), smallest / 4}}}));  // subnormal
    // A pivot that nothing was subtracted from is exact, however small beside the rest.
    CHECK(factors<T, 2>({{{T(1), T(0)}, {T(0), T(1e-30)}}}));
    // Rows 1e20 apart (I - h gamma J of stiff chemistry) are regular, though their entries
    // span far more than 1 / (N eps).
    CHECK(factors<T, 2>({{{T(1e20), T(5e19)}, {T(0.5), T(1)}}}));
    CHECK(factors<T, 3>({{{T(1), T(0.5), T(0)}, {T(0), T(1e20), T(0)}, {T(0.25), T(0), T(1)}}}));
    // A row whose largest entry lies in a column eliminated after its own pivot: Pollution's
    // OH row holds 8.9e11 from O1D (column 2 here) beside a diagonal of order 1. Judged by
    // its row's largest entry, the first pivot was singular in float (3 eps 8.9e11 > 1), and
    // Rosenbrock and Radau methods in float took 200 times double's steps on Pollution.
    CHECK(factors<T, 3>(
        {{{T(1), T(0.5), T(-8.9e11)}, {T(0.25), T(1), T(0)}, {T(0), T(0), T(4.4e11)}}}));
}

TEST_CASE_TEMPLATE("dense_lu rejects NaN and Inf", T, float, double) {
    const T nan = std::numeric_limits<T>::quiet_NaN();
    const T inf = std::numeric_limits<T>::infinity();
    const matrix<T, 3> A{{{T(4), T(1), T(0)}, {T(1), T(4), T(1)}, {T(0), T(1), T(4)}}};
    REQUIRE(factors<T, 3>(A));
    for (const T bad : {nan, inf, -inf}) {
        for (const auto& entry : {std::pair{0, 0}, std::pair{0, 2}, std::pair{2, 1}}) {
            // Clang < 16 captures no structured binding (INFO's lambda)
            const int i = entry.first, j = entry.second;
            matrix<T, 3> B = A;
            B[i][j] = bad;
            INFO("entry (" << i << ", " << j << ") = " << bad);
            CHECK_FALSE(factors<T, 3>(B));
        }
    }
}

TEST_CASE_TEMPLATE("dense_lu solves many right-hand sides with one factorisation", T, float,
                   double) {
    constexpr int N = 5;
    matrix<T, N> A;
    vector<T, N> x, b;
    integer_system<T, N>(77, A, x, b);
    // The columns of the identity twice, then b: X = A^-1 column by column.
    std::vector<vector<T, N>> rhs;
    for (int pass = 0; pass < 2; ++pass) {
        for (int k = 0; k < N; ++k) {
            vector<T, N> e{};
            e[k] = T(1);
            rhs.push_back(e);
        }
    }
    rhs.push_back(b);
    const solved<T, N> s = solve_all<T, N>({A}, rhs);
    REQUIRE(s.factored[0] != 0);
    for (int k = 0; k < N; ++k) {
        INFO("column " << k);
        CHECK(backward_error<T, N>(A, s.x[k], rhs[k]) <= backward_error_bound<T, N>());
        CHECK(s.x[N + k] == s.x[k]);  // solve() leaves the factorisation as it was
    }
    CHECK(backward_error<T, N>(A, s.x[2 * N], b) <= backward_error_bound<T, N>());
}

TEST_CASE_TEMPLATE("dense_lu batch: singular members do not disturb the others", T, float, double) {
    constexpr int N = 6;
    constexpr int count = 1000;
    constexpr int singular_every = 37;  // a repeated row
    std::vector<matrix<T, N>> A(count), regular;
    std::vector<vector<T, N>> b(count), regular_b;
    for (int m = 0; m < count; ++m) {
        vector<T, N> x;
        integer_system<T, N>(1000 + m, A[m], x, b[m]);
        if (m % singular_every == 0) {
            A[m][4] = A[m][1];
        } else {
            regular.push_back(A[m]);
            regular_b.push_back(b[m]);
        }
    }
    const solved<T, N> all = solve_all<T, N>(A, b);
    const solved<T, N> alone = solve_all<T, N>(regular, regular_b);
    int r = 0;
    for (int m = 0; m < count; ++m) {
        INFO("matrix " << m);
        if (m % singular_every == 0) {
            CHECK(all.factored[m] == 0);
            CHECK(all.x[m] == b[m]);
            continue;
        }
        REQUIRE(all.factored[m] != 0);
        CHECK(backward_error<T, N>(A[m], all.x[m], b[m]) <= backward_error_bound<T, N>());
        CHECK(all.x[m] == alone.x[r]);
        ++r;
    }
}
