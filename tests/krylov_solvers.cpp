// gmres and bicgstab with the identity, Jacobi and Neumann preconditioners: systems with
// known solutions against dense_lu, I - h gamma J of the pollution system with its
// analytic Jacobian, the exact-arithmetic bounds on GMRES's iteration count, the iteration
// budget, breakdown on singular operators and non-finite input, and a batch with failing
// members. Under nvcc every solve runs in a kernel, one thread per system; the checks run
// on the host in long double.
//
// A converged x satisfies the stopping rule for the residual the solver computed in T,
// fl(b - fl(A x)). That differs from the exact residual by at most (N + 1) eps (|b| +
// |A| |x|) componentwise, and the rule's two norms and its product tol ||b|| carry a
// relative rounding error below (N + 2) eps each: the bound every residual check uses.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "cubie/catalogue/pollution.hpp"
#include "cubie/linear/bicgstab.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "cubie/linear/gmres.hpp"
#include "cubie/linear/preconditioners.hpp"
#if defined(__CUDACC__)
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#endif
#include "support/deterministic_integers.hpp"

using namespace cubie;

namespace {

template <class T, int N>
using matrix = vector<vector<T, N>, N>;

enum class preconditioning { identity, jacobi, neumann };
constexpr int neumann_order = 2;

/// Av = A v for a dense A: the operator the solvers see.
template <class T, int N>
struct dense_operator {
    const matrix<T, N>& A;
    CUBIE_HD void operator()(const vector<T, N>& v, vector<T, N>& Av) const {
        for (int i = 0; i < N; ++i) {
            T sum = 0;
            for (int j = 0; j < N; ++j) sum += A[i][j] * v[j];
            Av[i] = sum;
        }
    }
};

/// One thread's solve of A x = b from x = 0.
template <class Solver, class T, int N>
CUBIE_HD krylov_outcome solve_one(const Solver& solver, preconditioning p, const matrix<T, N>& A,
                                  const vector<T, N>& b, vector<T, N>& x, T tol, int& iterations) {
    const dense_operator<T, N> apply{A};
    vector<T, N> diagonal;
    for (int i = 0; i < N; ++i) diagonal[i] = A[i][i];
    const jacobi_preconditioner<T, N> jacobi(diagonal);
    x = {};
    switch (p) {
        case preconditioning::jacobi:
            return solver.solve(apply, jacobi, b, x, tol, iterations);
        case preconditioning::neumann:
            return solver.solve(apply, make_neumann_preconditioner<neumann_order>(jacobi, apply), b,
                                x, tol, iterations);
        default:
            return solver.solve(apply, identity_preconditioner{}, b, x, tol, iterations);
    }
}

#if defined(__CUDACC__)
template <class Solver, class T, int N>
__global__ void solve_kernel(Solver solver, preconditioning p, const matrix<T, N>* A,
                             const vector<T, N>* b, T tol, int count, vector<T, N>* x, int* outcome,
                             int* iterations) {
    const int m = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (m < count)
        outcome[m] = static_cast<int>(
            solve_one<Solver, T, N>(solver, p, A[m], b[m], x[m], tol, iterations[m]));
}
#endif

template <class T, int N>
struct solved {
    std::vector<krylov_outcome> outcome;
    std::vector<int> iterations;
    std::vector<vector<T, N>> x;
};

/// Solves A[m] x = b[m] for every m on the backend this file is compiled for.
template <class Solver, class T, int N>
solved<T, N> solve_all(const Solver& solver, preconditioning p, const std::vector<matrix<T, N>>& A,
                       const std::vector<vector<T, N>>& b, T tol) {
    const int count = static_cast<int>(A.size());
    REQUIRE(b.size() == A.size());
    std::vector<int> outcome(A.size()), iterations(A.size());
    std::vector<vector<T, N>> x(A.size());
#if defined(__CUDACC__)
    const auto device_A = device_buffer<matrix<T, N>>::copy_of(A);
    const auto device_b = device_buffer<vector<T, N>>::copy_of(b);
    device_buffer<vector<T, N>> device_x(A.size());
    device_buffer<int> device_outcome(A.size()), device_iterations(A.size());
    constexpr int block = 64;
    solve_kernel<Solver, T, N><<<(count + block - 1) / block, block>>>(
        solver, p, device_A.data(), device_b.data(), tol, count, device_x.data(),
        device_outcome.data(), device_iterations.data());
    CUBIE_CUDA_CHECK(cudaGetLastError());
    device_x.copy_to(x);
    device_outcome.copy_to(outcome);
    device_iterations.copy_to(iterations);
#else
    for (int m = 0; m < count; ++m) {
        krylov_outcome o = solve_one<Solver, T, N>(solver, p, A[m], b[m], x[m], tol, iterations[m]);
        outcome[m] = static_cast<int>(o);
    }
#endif
    solved<T, N> s{{}, iterations, x};
    for (const int o : outcome) s.outcome.push_back(static_cast<krylov_outcome>(o));
    return s;
}

template <class Solver, class T, int N>
solved<T, N> solve(const Solver& solver, preconditioning p, const matrix<T, N>& A,
                   const vector<T, N>& b, T tol) {
    return solve_all<Solver, T, N>(solver, p, {A}, {b}, tol);
}

template <class T, int N>
long double two_norm(const vector<T, N>& v) {
    long double sum = 0;
    for (const T a : v) sum += static_cast<long double>(a) * a;
    return std::sqrt(sum);
}

/// The exact residual b - A x in long double.
template <class T, int N>
vector<long double, N> residual(const matrix<T, N>& A, const vector<T, N>& x,
                                const vector<T, N>& b) {
    vector<long double, N> r;
    for (int i = 0; i < N; ++i) {
        r[i] = b[i];
        for (int j = 0; j < N; ++j) r[i] -= static_cast<long double>(A[i][j]) * x[j];
    }
    return r;
}

/// The largest exact residual norm a converged x may have (the bound at the top).
template <class T, int N>
long double residual_bound(const matrix<T, N>& A, const vector<T, N>& x, const vector<T, N>& b,
                           T tol) {
    const long double eps = std::numeric_limits<T>::epsilon();
    vector<long double, N> absolute;
    for (int i = 0; i < N; ++i) {
        absolute[i] = std::fabs(static_cast<long double>(b[i]));
        for (int j = 0; j < N; ++j)
            absolute[i] += std::fabs(static_cast<long double>(A[i][j]) * x[j]);
    }
    return tol * two_norm<T, N>(b) * (1 + 3 * (N + 2) * eps) +
           (N + 1) * eps * two_norm<long double, N>(absolute);
}

template <class T, int N>
void check_converged(const matrix<T, N>& A, const vector<T, N>& b, const solved<T, N>& s, T tol) {
    REQUIRE(s.outcome[0] == krylov_outcome::converged);
    CHECK(two_norm<long double, N>(residual<T, N>(A, s.x[0], b)) <=
          residual_bound<T, N>(A, s.x[0], b, tol));
}

template <class T, int N>
bool finite(const vector<T, N>& x) {
    return std::all_of(x.begin(), x.end(), [](T v) { return std::isfinite(v); });
}

/// A strictly diagonally dominant integer matrix, symmetric with a positive diagonal (so
/// positive definite) or not, an integer solution x and b = A x, exact.
template <class T, int N>
void integer_system(std::uint64_t seed, bool symmetric, matrix<T, N>& A, vector<T, N>& x,
                    vector<T, N>& b) {
    cubie::testing::deterministic_integers draw(seed);
    for (int i = 0; i < N; ++i) {
        for (int j = 0; j < N; ++j) A[i][j] = T(draw(-3, 3));
        x[i] = T(draw(1, 9) * (draw(0, 1) != 0 ? 1 : -1));
    }
    for (int i = 0; i < N; ++i) {
        if (symmetric)
            for (int j = 0; j < i; ++j) A[i][j] = A[j][i];
        A[i][i] = T((symmetric || draw(0, 1) != 0 ? 1 : -1) * (3 * (N - 1) + draw(1, 5)));
    }
    for (int i = 0; i < N; ++i) {
        b[i] = 0;
        for (int j = 0; j < N; ++j) b[i] += A[i][j] * x[j];
    }
}

/// min_i (|a_ii| - sum_{j != i} |a_ij|): ||A^-1||_inf <= 1 / margin (Varah 1975).
template <class T, int N>
long double dominance_margin(const matrix<T, N>& A) {
    long double margin = std::numeric_limits<long double>::max();
    for (int i = 0; i < N; ++i) {
        long double rest = 0;
        for (int j = 0; j < N; ++j)
            if (j != i) rest += std::fabs(static_cast<long double>(A[i][j]));
        margin = std::min(margin, std::fabs(static_cast<long double>(A[i][i])) - rest);
    }
    REQUIRE(margin > 0);
    return margin;
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

/// Converged, with the residual of the stopping rule, and within the forward error that
/// residual allows of dense_lu's solution: ||x - x*|| <= ||A^-1|| ||r|| for both, with
/// dense_lu's backward error below N eps ||A|| ||x||.
template <class Solver, class T, int N>
void check_known_solution(const Solver& solver, preconditioning p, const matrix<T, N>& A,
                          const vector<T, N>& expected, const vector<T, N>& b, T tol) {
    const solved<T, N> s = solve<Solver, T, N>(solver, p, A, b, tol);
    check_converged<T, N>(A, b, s, tol);
    dense_lu<T, N> lu;
    REQUIRE(lu.factor(A));
    vector<T, N> x_lu = b;
    lu.solve(x_lu);
    const long double inverse_norm = 1 / dominance_margin<T, N>(A);
    long double size = 0, difference = 0;
    for (int i = 0; i < N; ++i) {
        size = std::max(size, std::fabs(static_cast<long double>(expected[i])));
        difference = std::max(difference, std::fabs(static_cast<long double>(s.x[0][i]) - x_lu[i]));
    }
    const long double eps = std::numeric_limits<T>::epsilon();
    INFO("preconditioning " << static_cast<int>(p) << ", iterations " << s.iterations[0]);
    CHECK(difference <= inverse_norm * (residual_bound<T, N>(A, s.x[0], b, tol) +
                                        N * eps * infinity_norm<T, N>(A) * size));
}

template <class T>
constexpr T tolerance() {
    return std::is_same_v<T, float> ? T(1e-5) : T(1e-11);
}

constexpr preconditioning all_preconditioners[] = {
    preconditioning::identity, preconditioning::jacobi, preconditioning::neumann};

}  // namespace

TEST_CASE("krylov_outcome names") {
    CHECK(std::string(to_string(krylov_outcome::converged)) == "converged");
    CHECK(std::string(to_string(krylov_outcome::max_iterations)) == "max_iterations");
    CHECK(std::string(to_string(krylov_outcome::breakdown)) == "breakdown");
}

TEST_CASE_TEMPLATE("gmres and bicgstab solve integer systems with known solutions", T, float,
                   double) {
    const T tol = tolerance<T>();
    for (const bool symmetric : {true, false}) {
        INFO((symmetric ? "symmetric positive definite" : "nonsymmetric"));
        matrix<T, 8> A8;
        vector<T, 8> x8, b8;
        integer_system<T, 8>(8, symmetric, A8, x8, b8);
        matrix<T, 20> A20;
        vector<T, 20> x20, b20;
        integer_system<T, 20>(20, symmetric, A20, x20, b20);
        for (const preconditioning p : all_preconditioners) {
            check_known_solution<gmres<T, 8, 8>, T, 8>({0}, p, A8, x8, b8, tol);
            check_known_solution<gmres<T, 20, 6>, T, 20>({20}, p, A20, x20, b20, tol);
            check_known_solution<bicgstab<T, 8>, T, 8>({100}, p, A8, x8, b8, tol);
            check_known_solution<bicgstab<T, 20>, T, 20>({100}, p, A20, x20, b20, tol);
        }
    }
}

TEST_CASE("gmres converges in at most N iterations on a well-conditioned system") {
    // In exact arithmetic the Krylov space is all of R^N after N steps; the system's
    // condition number (below 4 N) keeps the rounding far below the tolerance.
    matrix<double, 8> A;
    vector<double, 8> x, b;
    integer_system<double, 8>(88, false, A, x, b);
    const solved<double, 8> s =
        solve<gmres<double, 8, 8>, double, 8>({0}, preconditioning::identity, A, b, 1e-13);
    check_converged<double, 8>(A, b, s, 1e-13);
    CHECK(s.iterations[0] <= 8);
}

TEST_CASE("pollution: I - h gamma J with each preconditioner") {
    using S = catalogue::pollution<double>;
    constexpr int N = S::n_states;
    constexpr double gamma = 0.25;
    constexpr double tol = 1e-10;
    const S system{};
    jacobian_t<S> J;
    system.jacobian(0, S::default_state, S::default_parameters, {}, J);
    for (const double h : {1e-6, 1e-4, 1e-2}) {
        matrix<double, N> A;
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) A[i][j] = (i == j ? 1.0 : 0.0) - h * gamma * J[i][j];
        vector<double, N> b;
        for (int i = 0; i < N; ++i) b[i] = 1.0 + 0.1 * i;
        // No bound on the counts: ||D^-1 E||_inf is about 5e4 to 9e4 here (rate constants up
        // to 4e11 off the diagonal), so the Neumann series' convergence condition fails and
        // no theory orders the counts; they are reported.
        for (const preconditioning p : all_preconditioners) {
            const solved<double, N> g = solve<gmres<double, N, 10>, double, N>({10}, p, A, b, tol);
            const solved<double, N> c = solve<bicgstab<double, N>, double, N>({200}, p, A, b, tol);
            MESSAGE("h = " << h << ", preconditioning " << static_cast<int>(p) << ": gmres(10) "
                           << g.iterations[0] << ", bicgstab " << c.iterations[0] << " iterations");
            check_converged<double, N>(A, b, g, tol);
            check_converged<double, N>(A, b, c, tol);
        }
    }
}

TEST_CASE("gmres and bicgstab stop at their budget on an ill-conditioned system") {
    constexpr int N = 8;
    matrix<double, N> H;  // Hilbert: cond about 1.5e10
    vector<double, N> b;
    for (int i = 0; i < N; ++i) {
        b[i] = 1;
        for (int j = 0; j < N; ++j) H[i][j] = 1.0 / (i + j + 1);
    }
    const solved<double, N> g =
        solve<gmres<double, N, 2>, double, N>({0}, preconditioning::identity, H, b, 1e-12);
    CHECK(g.outcome[0] == krylov_outcome::max_iterations);
    CHECK(g.iterations[0] == 2);
    CHECK(finite<double, N>(g.x[0]));
    const solved<double, N> c =
        solve<bicgstab<double, N>, double, N>({3}, preconditioning::identity, H, b, 1e-12);
    CHECK(c.outcome[0] == krylov_outcome::max_iterations);
    CHECK(c.iterations[0] == 3);
    CHECK(finite<double, N>(c.x[0]));
}

TEST_CASE_TEMPLATE("gmres and bicgstab break down on singular operators and non-finite input", T,
                   float, double) {
    constexpr int N = 8;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    const T inf = std::numeric_limits<T>::infinity();
    vector<T, N> ones;
    ones.fill(T(1));
    matrix<T, N> zero{}, rank_deficient{}, regular;
    for (int i = 0; i + 1 < N; ++i) rank_deficient[i][i] = T(1);  // b has a part outside its range
    vector<T, N> x, b;
    integer_system<T, N>(5, false, regular, x, b);
    matrix<T, N> with_nan = regular, with_inf = regular;
    with_nan[3][5] = nan;
    with_inf[6][1] = inf;
    vector<T, N> b_nan = b;
    b_nan[2] = nan;
    const auto check = [&](const matrix<T, N>& A, const vector<T, N>& rhs, const char* what) {
        for (const preconditioning p : all_preconditioners) {
            INFO(what << ", preconditioning " << static_cast<int>(p));
            const solved<T, N> g = solve<gmres<T, N, 4>, T, N>({5}, p, A, rhs, tolerance<T>());
            CHECK(g.outcome[0] == krylov_outcome::breakdown);
            CHECK(finite<T, N>(g.x[0]));
            const solved<T, N> c = solve<bicgstab<T, N>, T, N>({50}, p, A, rhs, tolerance<T>());
            CHECK(c.outcome[0] == krylov_outcome::breakdown);
            CHECK(finite<T, N>(c.x[0]));
        }
    };
    check(zero, ones, "zero operator");
    check(rank_deficient, ones, "rank-deficient operator");
    check(with_nan, b, "NaN in A");
    check(with_inf, b, "Inf in A");
    check(regular, b_nan, "NaN in b");
}

TEST_CASE_TEMPLATE("krylov batch: failing members do not disturb the others", T, float, double) {
    constexpr int N = 6;
    constexpr int count = 500;
    constexpr int failing_every = 37;  // a NaN in A
    const T tol = tolerance<T>();
    std::vector<matrix<T, N>> A(count), regular;
    std::vector<vector<T, N>> b(count), regular_b;
    for (int m = 0; m < count; ++m) {
        vector<T, N> x;
        integer_system<T, N>(1000 + m, m % 2 == 0, A[m], x, b[m]);
        if (m % failing_every == 0) {
            A[m][2][4] = std::numeric_limits<T>::quiet_NaN();
        } else {
            regular.push_back(A[m]);
            regular_b.push_back(b[m]);
        }
    }
    const auto check = [&](const auto& solver) {
        using Solver = std::decay_t<decltype(solver)>;
        const solved<T, N> all =
            solve_all<Solver, T, N>(solver, preconditioning::jacobi, A, b, tol);
        const solved<T, N> alone =
            solve_all<Solver, T, N>(solver, preconditioning::jacobi, regular, regular_b, tol);
        int r = 0;
        for (int m = 0; m < count; ++m) {
            INFO("system " << m);
            if (m % failing_every == 0) {
                CHECK(all.outcome[m] == krylov_outcome::breakdown);
                CHECK(finite<T, N>(all.x[m]));
                continue;
            }
            CHECK(all.outcome[m] == krylov_outcome::converged);
            CHECK(two_norm<long double, N>(residual<T, N>(A[m], all.x[m], b[m])) <=
                  residual_bound<T, N>(A[m], all.x[m], b[m], tol));
            CHECK(all.x[m] == alone.x[r]);
            CHECK(all.iterations[m] == alone.iterations[r]);
            ++r;
        }
    };
    check(gmres<T, N, 4>{10});
    check(bicgstab<T, N>{100});
}
