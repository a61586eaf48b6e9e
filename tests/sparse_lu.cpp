// sparse_lu: the plan made from a pattern (pivot order, fill, operation counts on patterns
// whose counts are known), solutions against dense_lu's and exact integer ones, entries
// outside the pattern never read, the refusals, which LU iteration_lu picks, and the same
// solutions with the factors in shared memory. Under nvcc the factorisations and solves run
// in a kernel, one thread per matrix; the checks run on the host in long double.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <vector>

#include "cubie/catalogue/pollution.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/core/thread_shared.hpp"
#include "cubie/linear/complex_dense_lu.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/linear/iteration_lu.hpp"
#include "cubie/linear/sparse_lu.hpp"
#include "cubie/systems/dense_jacobian.hpp"
#include "cubie/systems/right_hand_side.hpp"
#if defined(__CUDACC__)
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#endif
#include "support/deterministic_integers.hpp"

using namespace cubie;

namespace {

// Patterns, each as sparse_lu takes it: a type's jacobian_pattern.

/// Tridiagonal: no fill in the natural order.
struct tridiagonal {
    static constexpr sparsity_pattern<12> jacobian_pattern = [] {
        sparsity_pattern<12> p;
        for (int i = 0; i < 12; ++i)
            for (int j = i - 1; j <= i + 1; ++j)
                if (j >= 0 && j < 12) p.nonzero[i][j] = true;
        return p;
    }();
};

/// An arrow whose hub is row and column 0: eliminated first it fills the whole matrix,
/// last none of it.
struct arrow {
    static constexpr sparsity_pattern<9> jacobian_pattern{{
        "xxxxxxxxx",
        "xx.......",
        "x.x......",
        "x..x.....",
        "x...x....",
        "x....x...",
        "x.....x..",
        "x......x.",
        "x.......x",
    }};
};

struct dense5 {
    static constexpr sparsity_pattern<5> jacobian_pattern = sparsity_pattern<5>::dense();
};

/// The generated system's own.
using pollution_pattern = catalogue::pollution<double>;

template <class T, class Pattern>
using sparse = sparse_lu<T, Pattern>;

template <class Pattern>
constexpr int size_of_pattern = std::remove_cvref_t<decltype(Pattern::jacobian_pattern)>::size;

template <class Pattern>
constexpr bool pivot_order_is_a_permutation() {
    constexpr int N = size_of_pattern<Pattern>;
    bool seen[N]{};
    for (int k = 0; k < N; ++k) {
        const int p = sparse<double, Pattern>::pivot_order(k);
        if (p < 0 || p >= N || seen[p]) return false;
        seen[p] = true;
    }
    return true;
}

/// Factors A and solves b with it: what one thread does; b is left as given on a refusal.
/// Shared: with the factors in the thread's shared memory (core/thread_shared.hpp).
template <class T, class Pattern, bool Shared = false>
CUBIE_HD bool factor_and_solve(const typename sparse<T, Pattern>::matrix& A,
                               vector<T, size_of_pattern<Pattern>>& b) {
    sparse_lu<T, Pattern, Shared> lu;
    if (!lu.factor(A)) return false;
    lu.solve(b);
    return true;
}

#if defined(__CUDACC__)
template <class T, class Pattern, bool Shared>
__global__ void factor_and_solve_kernel(const typename sparse<T, Pattern>::matrix* A,
                                        vector<T, size_of_pattern<Pattern>>* b, int count,
                                        int* factored) {
    const int m = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (m < count) factored[m] = factor_and_solve<T, Pattern, Shared>(A[m], b[m]);
}
#endif

template <class T, int N>
struct solved {
    std::vector<int> factored;
    std::vector<vector<T, N>> x;
};

/// Each matrix factored and its right-hand side solved, on the backend of this file.
template <class T, class Pattern, bool Shared = false, int N = size_of_pattern<Pattern>>
solved<T, N> solve_all(const std::vector<typename sparse<T, Pattern>::matrix>& A,
                       std::vector<vector<T, N>> b) {
    const int count = static_cast<int>(A.size());
    std::vector<int> factored(A.size());
#if defined(__CUDACC__)
    const auto device_A = device_buffer<typename sparse<T, Pattern>::matrix>::copy_of(A);
    auto device_b = device_buffer<vector<T, N>>::copy_of(b);
    device_buffer<int> device_factored(A.size());
    constexpr int block = 64;
    const int shared =
        Shared ? sparse<T, Pattern>::stored_entries * int(sizeof(T)) * thread_shared_block : 0;
    const auto kernel = factor_and_solve_kernel<T, Pattern, Shared>;
    CUBIE_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    kernel<<<(count + block - 1) / block, block, shared>>>(device_A.data(), device_b.data(), count,
                                                           device_factored.data());
    CUBIE_CUDA_CHECK(cudaGetLastError());
    device_b.copy_to(b);
    device_factored.copy_to(factored);
#else
    for (int m = 0; m < count; ++m) factored[m] = factor_and_solve<T, Pattern, Shared>(A[m], b[m]);
#endif
    return {factored, b};
}

/// Matrices in a pattern whose columns are dominated by their diagonals, as I - h gamma J of
/// chemistry: off-diagonal entries in [-1, 1], the diagonal 1 + their column's |sum|
/// times a factor in [1, 3]. Outside the pattern: `outside`.
template <class T, int N>
std::vector<vector<vector<T, N>, N>> dominant_matrices(const sparsity_pattern<N>& pattern,
                                                       int count, T outside) {
    testing::deterministic_integers draw(12345);
    std::vector<vector<vector<T, N>, N>> A(count);
    for (auto& a : A) {
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j)
                a[i][j] = pattern(i, j) && i != j ? T(draw(-1000, 1000)) / T(1000) : outside;
        for (int j = 0; j < N; ++j) {
            T column = 0;
            for (int i = 0; i < N; ++i)
                if (i != j && pattern(i, j)) column += std::abs(a[i][j]);
            a[j][j] = (T(1) + column) * T(draw(1000, 3000)) / T(1000);
        }
    }
    return A;
}

template <class T, int N>
std::vector<vector<T, N>> right_hand_sides(int count) {
    testing::deterministic_integers draw(777);
    std::vector<vector<T, N>> b(count);
    for (auto& v : b)
        for (auto& e : v) e = T(draw(-1000, 1000)) / T(100);
    return b;
}

/// max_i |(A x - b)_i| / (|A| |x| + |b|)_i in long double: the backward error of a solution.
template <class T, int N>
long double backward_error(const vector<vector<T, N>, N>& A, const vector<T, N>& x,
                           const vector<T, N>& b, const sparsity_pattern<N>& pattern) {
    long double worst = 0;
    for (int i = 0; i < N; ++i) {
        long double r = -static_cast<long double>(b[i]), scale = std::abs(b[i]);
        for (int j = 0; j < N; ++j) {
            if (!pattern(i, j) && i != j) continue;
            r += static_cast<long double>(A[i][j]) * x[j];
            scale += std::abs(static_cast<long double>(A[i][j]) * x[j]);
        }
        worst = std::fmax(worst, std::abs(r) / scale);
    }
    return worst;
}

}  // namespace

TEST_CASE("sparse_lu's plan: pivot order, fill and operations on patterns of known counts") {
    // Tridiagonal: 3N - 2 entries, N - 1 updates, no fill.
    static_assert(sparse<double, tridiagonal>::stored_entries == 3 * 12 - 2);
    static_assert(sparse<double, tridiagonal>::update_operations == 12 - 1);
    // The arrow's hub has the largest Markowitz count until two rows are left (then it ties,
    // and goes first of the two): no fill.
    static_assert(sparse<double, arrow>::stored_entries == 3 * 9 - 2);
    static_assert(sparse<double, arrow>::pivot_order(0) == 1);
    static_assert(sparse<double, arrow>::pivot_order(7) == 0);
    static_assert(sparse<double, arrow>::update_operations == 8);
    // Dense: the natural order (every count ties), N^2 entries, dense_lu's updates.
    static_assert(sparse<double, dense5>::stored_entries == 25);
    static_assert(sparse<double, dense5>::update_operations == 5 * 4 * 9 / 6);
    static_assert(sparse<double, dense5>::pivot_order(0) == 0 &&
                  sparse<double, dense5>::pivot_order(4) == 4);
    // Pollution: 82 entries that can be nonzero, 94 stored with the diagonal and the fill.
    static_assert(pollution_pattern::jacobian_pattern.count() == 82);
    static_assert(sparse<double, pollution_pattern>::stored_entries == 94);
    static_assert(sparse<double, pollution_pattern>::update_operations == 71);
    CHECK(pivot_order_is_a_permutation<tridiagonal>());
    CHECK(pivot_order_is_a_permutation<arrow>());
    CHECK(pivot_order_is_a_permutation<pollution_pattern>());
}

TEST_CASE_TEMPLATE(
    "sparse_lu solves diagonally dominant systems in Pollution's pattern as "
    "dense_lu does",
    T, float, double) {
    constexpr int N = 20;
    constexpr int count = 200;
    const auto A = dominant_matrices<T, N>(pollution_pattern::jacobian_pattern, count, T(0));
    const auto b = right_hand_sides<T, N>(count);
    const solved<T, N> s = solve_all<T, pollution_pattern>(A, b);
    // NaN at every '.', the fill's places among them: the same bits, as the pattern says
    // those entries are zero.
    const auto A_nan = dominant_matrices<T, N>(pollution_pattern::jacobian_pattern, count,
                                               std::numeric_limits<T>::quiet_NaN());
    const solved<T, N> s_nan = solve_all<T, pollution_pattern>(A_nan, b);
    // With the factors in shared memory (rosenbrock.hpp's variant): the same operations on
    // the same values, the same bits. On the host the factors are an array either way.
    const solved<T, N> s_shared = solve_all<T, pollution_pattern, true>(A, b);
    const long double eps = std::numeric_limits<T>::epsilon();
    for (int m = 0; m < count; ++m) {
        REQUIRE(s.factored[m]);
        REQUIRE(s_nan.factored[m]);
        REQUIRE(s_shared.factored[m]);
        for (int i = 0; i < N; ++i) CHECK(s_nan.x[m][i] == s.x[m][i]);
        for (int i = 0; i < N; ++i) CHECK(s_shared.x[m][i] == s.x[m][i]);
        // Backward stable: the residual is a few eps of the terms it sums.
        CHECK(backward_error(A[m], s.x[m], b[m], pollution_pattern::jacobian_pattern) <
              8 * N * eps);
        // The same solution as dense_lu's: these matrices are well conditioned.
        dense_lu<T, N> dense;
        REQUIRE(dense.factor(A[m]));
        vector<T, N> x = b[m];
        dense.solve(x);
        for (int i = 0; i < N; ++i)
            CHECK(std::abs(s.x[m][i] - x[i]) <= 64 * eps * (1 + std::abs(x[i])));
    }
}

TEST_CASE_TEMPLATE(
    "sparse_lu solves complex systems in Pollution's pattern, as Radau's ((alpha + i beta) / h) "
    "I - J, as complex dense_lu does",
    T, float, double) {
    using complex = cuda::std::complex<T>;
    constexpr int N = 20;
    constexpr int count = 100;
    const auto& pattern = pollution_pattern::jacobian_pattern;
    // The real matrices above as -J's off-diagonal and the real part of the diagonal, and an
    // imaginary part of the diagonal in [-3, 3] (beta / h): what Radau IIA 5 factors.
    const auto real = dominant_matrices<T, N>(pattern, count, T(0));
    testing::deterministic_integers draw(4242);
    std::vector<vector<vector<complex, N>, N>> A(count);
    for (int m = 0; m < count; ++m)
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j)
                A[m][i][j] = complex(real[m][i][j], i == j ? T(draw(-3000, 3000)) / T(1000) : T(0));
    const auto re = right_hand_sides<T, N>(count), im = right_hand_sides<T, N>(count + 1);
    std::vector<vector<complex, N>> b(count);
    for (int m = 0; m < count; ++m)
        for (int i = 0; i < N; ++i) b[m][i] = complex(re[m][i], im[m + 1][i]);
    const solved<complex, N> s = solve_all<complex, pollution_pattern>(A, b);
    // With the factors in shared memory (implicit_runge_kutta.hpp's variant; float's 752
    // bytes a thread, double's would not fit a block): the same operations on the same
    // values, the same bits. On the host the factors are an array either way.
    if constexpr (std::is_same_v<T, float>) {
        const solved<complex, N> shared = solve_all<complex, pollution_pattern, true>(A, b);
        for (int m = 0; m < count; ++m) {
            REQUIRE(shared.factored[m]);
            for (int i = 0; i < N; ++i) CHECK(shared.x[m][i] == s.x[m][i]);
        }
    }
    const long double eps = std::numeric_limits<T>::epsilon();
    using wide = std::complex<long double>;
    const auto widen = [](complex z) { return wide(z.real(), z.imag()); };
    for (int m = 0; m < count; ++m) {
        REQUIRE(s.factored[m]);
        // Backward stable: |A x - b| is a few eps of the terms it sums, in long double.
        long double worst = 0;
        for (int i = 0; i < N; ++i) {
            wide r = -widen(b[m][i]);
            long double scale = std::abs(widen(b[m][i]));
            for (int j = 0; j < N; ++j) {
                if (!pattern(i, j) && i != j) continue;
                r += widen(A[m][i][j]) * widen(s.x[m][j]);
                scale += std::abs(widen(A[m][i][j]) * widen(s.x[m][j]));
            }
            worst = std::fmax(worst, std::abs(r) / scale);
        }
        CHECK(worst < 16 * N * eps);
        // The same solution as complex dense_lu's, within a few eps of it.
        dense_lu<complex, N> dense;
        REQUIRE(dense.factor(A[m]));
        vector<complex, N> x = b[m];
        dense.solve(x);
        for (int i = 0; i < N; ++i)
            CHECK(std::abs(widen(s.x[m][i]) - widen(x[i])) <=
                  128 * eps * (1 + std::abs(widen(x[i]))));
    }
}

TEST_CASE(
    "sparse_lu solves integer tridiagonal systems exactly and reads nothing outside "
    "the pattern") {
    constexpr int N = 12;
    testing::deterministic_integers draw(99);
    // 4 on the diagonal, -1 beside it, an integer solution: b is exact, and so nearly is x.
    using matrix = sparse<double, tridiagonal>::matrix;
    std::vector<matrix> A(2);
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            const bool in = tridiagonal::jacobian_pattern(i, j);
            A[0][i][j] = in ? (i == j ? 4.0 : -1.0) : 0.0;
            A[1][i][j] = in ? A[0][i][j] : std::numeric_limits<double>::quiet_NaN();
        }
    vector<double, N> x_exact;
    for (auto& e : x_exact) e = draw(-9, 9);
    vector<double, N> b{};
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j)
            if (tridiagonal::jacobian_pattern(i, j)) b[i] += A[0][i][j] * x_exact[j];
    const solved<double, N> s = solve_all<double, tridiagonal>(A, {b, b});
    for (int m = 0; m < 2; ++m) {
        REQUIRE(s.factored[m]);
        for (int i = 0; i < N; ++i) CHECK(std::abs(s.x[m][i] - x_exact[i]) < 1e-14);
    }
    // NaN outside the pattern changed nothing: the same bits.
    for (int i = 0; i < N; ++i) CHECK(s.x[1][i] == s.x[0][i]);
}

TEST_CASE_TEMPLATE(
    "sparse_lu refuses singular matrices, non-finite entries and multipliers "
    "past its growth limit",
    T, float, double) {
    using lu = sparse<T, dense5>;
    using matrix = typename lu::matrix;
    matrix identity{};
    for (int i = 0; i < 5; ++i) identity[i][i] = 1;
    const T limit = lu::growth_limit;
    CHECK(limit == (sizeof(T) == 4 ? T(4096) : T(67108864)));

    std::vector<matrix> A(7, identity);
    A[1][2][2] = 0;  // a zero pivot with nothing subtracted
    // Rows 3 and 4 equal: the last pivot is what cancellation leaves, and cannot be told from
    // zero.
    A[2][3] = {T(0), T(0), T(0), T(1), T(1)};
    A[2][4] = A[2][3];
    A[3][1][4] = std::numeric_limits<T>::quiet_NaN();
    A[4][0][0] = std::numeric_limits<T>::infinity();
    // A multiplier of twice the limit, and one just within it.
    A[5][0][0] = T(1) / (2 * limit);
    A[5][3][0] = 1;
    A[6][0][0] = T(1) / limit;
    A[6][3][0] = 1;
    const auto b = right_hand_sides<T, 5>(7);
    const solved<T, 5> s = solve_all<T, dense5>(A, b);
    CHECK(s.factored[0]);
    CHECK_FALSE(s.factored[1]);
    CHECK_FALSE(s.factored[2]);
    CHECK_FALSE(s.factored[3]);
    CHECK_FALSE(s.factored[4]);
    CHECK_FALSE(s.factored[5]);
    CHECK(s.factored[6]);
    // dense_lu exchanges rows and factors the matrix sparse_lu refuses for its growth.
    dense_lu<T, 5> dense;
    CHECK(dense.factor(A[5]));
}

// iteration_lu: sparse_lu where a system declares a pattern that halves the stored
// entries, on one lane; dense_lu where the pattern is hidden or full; cooperative_lu on
// several lanes.
namespace iteration_lu_choice {
struct two_lanes {  // a lane_group's type, for the choice alone
    static constexpr int size = 2;
    int lane() const;
    template <class T>
    T broadcast(T, int) const;
    template <class T>
    T exchange(T, int) const;
    void sync() const;
};
using pollution_f = catalogue::pollution<float>;
static_assert(std::is_same_v<iteration_lu<float, 20, right_hand_side<pollution_f>, single_lane>,
                             detail::one_lane_lu<sparse_lu<float, pollution_f>>>);
static_assert(std::is_same_v<
              iteration_lu<float, 20, right_hand_side<dense_jacobian<pollution_f>>, single_lane>,
              detail::one_lane_lu<dense_lu<float, 20>>>);
static_assert(std::is_same_v<
              iteration_lu<float, 2, right_hand_side<catalogue::van_der_pol<float>>, single_lane>,
              detail::one_lane_lu<dense_lu<float, 2>>>);
static_assert(std::is_same_v<iteration_lu<float, 20, right_hand_side<pollution_f>, two_lanes>,
                             cooperative_lu<float, 20, two_lanes>>);
}  // namespace iteration_lu_choice
