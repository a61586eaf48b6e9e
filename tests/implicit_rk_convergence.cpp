// Measured convergence orders of the fully implicit Runge-Kutta methods (fixed steps, double)
// on the stiff, non-autonomous problems of support/stiff_problems.hpp, and the order of their
// interpolant, the collocation polynomial.
//
// Both problems are linear in y with a constant Jacobian, so one simplified Newton iteration
// solves the stage system exactly and the error measured is the method's own.
//   - Prothero-Robinson (lambda = 10): Radau IIA has stage order s, and for h lambda >> 1 its
//     global error on this problem drops to O(h^(s+1)) (order reduction; Gauss-Legendre to
//     O(h^s)). The sweeps keep h lambda <= 1.25 (Radau IIA 5 from 16 steps over [0, 2]) or
//     below 0.32 (64 steps), where the classical orders 3, 5 and 4 show: these tests assert
//     the classical order, not the reduced one.
//   - Stiff pair (lambda = 1000): the stiff mode carries no forcing, so there is no order
//     reduction; Radau IIA is L-stable and damps it at once (h lambda = 125 at 16 steps),
//     and the error is the forced smooth mode's. Gauss-Legendre has R(inf) = 1: |R(-h
//     lambda)| is 0.91 at 16 steps, whose stiff mode then dominates the error, and 0.46 from
//     128 steps (|R|^128 < 1e-40), where the smooth mode's order-4 error shows.
// Each sweep lies past its method's pre-asymptotic range and above the rounding floor (about
// 1e-14).

#include <doctest/doctest.h>

#include <cuda/std/complex>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "cubie/algorithms/implicit_runge_kutta/gauss_legendre_2.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_3.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/linear/complex_dense_lu.hpp"
#include "cubie/systems/right_hand_side.hpp"
#include "support/convergence.hpp"
#include "support/stiff_problems.hpp"

using namespace cubie;
using namespace cubie::testing;

namespace {

using complex = cuda::std::complex<double>;

/// Solves A x = A x_exact with the complex dense_lu; the largest error relative to |x|.
template <int N>
double complex_solve_error(const typename dense_lu<complex, N>::matrix& A,
                           const vector<complex, N>& x_exact) {
    vector<complex, N> b{};
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) b[i] += A[i][j] * x_exact[j];
    dense_lu<complex, N> lu;
    REQUIRE(lu.factor(A));
    lu.solve(b);
    double error = 0, size = 0;
    for (int i = 0; i < N; ++i) {
        error = std::fmax(error, cuda::std::abs(b[i] - x_exact[i]));
        size = std::fmax(size, cuda::std::abs(x_exact[i]));
    }
    return error / size;
}

}  // namespace

// The complex factorisation of the iteration matrices ((alpha + i beta) / h) I - J: dense_lu's
// code over linear/complex_dense_lu.hpp's arithmetic.
TEST_CASE("complex dense_lu: solutions, pivoting, singular matrices, huge pivots") {
    constexpr double eps = std::numeric_limits<double>::epsilon();
    // A zero leading entry needs a row interchange; the matrix is well conditioned.
    const dense_lu<complex, 3>::matrix A{{{complex(0, 0), complex(2, 1), complex(-1, 3)},
                                          {complex(4, -2), complex(1, 1), complex(0, 2)},
                                          {complex(-1, 1), complex(3, 0), complex(5, -1)}}};
    const vector<complex, 3> x{complex(1, -2), complex(-0.5, 0.25), complex(3, 1)};
    CHECK(complex_solve_error<3>(A, x) < 16 * eps);
    // Scaled by 1e200, |a|^2 overflows; Smith's reciprocal of the pivots does not.
    auto huge = A;
    for (auto& row : huge)
        for (auto& a : row) a *= 1e200;
    CHECK(complex_solve_error<3>(huge, x) < 16 * eps);
    // A complex multiple of a row: singular, though no entry is zero.
    auto singular = A;
    for (int j = 0; j < 3; ++j) singular[2][j] = complex(1, 2) * A[1][j];
    CHECK(!dense_lu<complex, 3>{}.factor(singular));
    // The iteration matrix of Radau IIA 3 for J = [[2, -sqrt 2], [sqrt 2, 2]] / h, whose
    // eigenvalues are (2 +- i sqrt 2) / h: singular to working precision.
    const double beta = radau_iia_3_tableau::eigenvalues[0][1];
    const dense_lu<complex, 2>::matrix M{
        {{complex(0, beta), complex(beta, 0)}, {complex(-beta, 0), complex(0, beta)}}};
    CHECK(!dense_lu<complex, 2>{}.factor(M));
    // From N = 13 the complex loops stay rolled (linear/dense_lu.hpp): the same algorithm.
    // The largest entry of each column sits one row below the diagonal's position (cyclically),
    // so every step interchanges rows.
    constexpr int n = 13;
    dense_lu<complex, n>::matrix B{};
    vector<complex, n> y{};
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j)
            B[i][j] = complex(std::sin(1.0 + i + 3.0 * j), std::cos(2.0 * i - j));
        y[i] = complex(1.0 + i, -0.5 * i);
    }
    for (int i = 0; i < n; ++i) B[(i + 1) % n][i] += complex(n, 1);
    CHECK(complex_solve_error<n>(B, y) < 16 * n * eps);
}

TEST_CASE("radau_iia_3: order 3") {
    check_convergence_order<radau_iia_3>(prothero_robinson_problem{}, 64, 4);
    check_convergence_order<radau_iia_3>(stiff_pair_problem{}, 64, 4);
}
TEST_CASE("radau_iia_5: order 5") {
    check_convergence_order<radau_iia_5>(prothero_robinson_problem{}, 16, 4);
    check_convergence_order<radau_iia_5>(stiff_pair_problem{}, 16, 4);
}
TEST_CASE("gauss_legendre_2: order 4") {
    check_convergence_order<gauss_legendre_2>(prothero_robinson_problem{}, 64, 4);
    check_convergence_order<gauss_legendre_2>(stiff_pair_problem{}, 128, 3);
}

namespace {

using problem = prothero_robinson<double>;
using state = state_t<problem>;

// Prothero-Robinson with lambda = 10 from its exact state at t0: y = sin t.
constexpr double t0 = 0.3;
constexpr double lambda = 10;
constexpr double thetas[] = {0.2, 0.4, 0.5, 0.7, 0.9};

/// One step of size h from the exact state at t0, with its increments for interpolation.
template <class Method>
struct interpolated_step {
    double h;
    state y{std::sin(t0)}, y_new;
    typename Method::template dense_stages_t<state> Z;
    implicit_step_report report;
    double error_norm;

    explicit interpolated_step(double step) : h(step) {
        const problem system{};
        const parameters_t<problem> parameters{lambda};
        const driver_splines_t<problem> drivers{};
        const right_hand_side<problem> f{system, parameters, drivers};
        state dydt, dydt_new;
        f(t0, y, dydt);
        const tolerances<double, 1> tol{{1e-12}, {1e-12}};
        error_norm = Method::step_with_error(f, t0, h, y, dydt, y_new, dydt_new, tol, Z, report);
        Method::prepare_dense_output(f, t0, h, y, Z);
    }

    double at(double theta) const {
        state out;
        Method::interpolate(h, y, Z, theta, out);
        return out[0];
    }
};

/// The interpolant's error inside one step falls like h^(dense_order + 1) = h^(s+1) (stage
/// order s); it starts on y exactly and ends on y_new to rounding.
template <class Method>
void check_interpolant(double h_max, int points) {
    static_assert(Method::has_dense_output && Method::dense_order == Method::stages);
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    std::ostringstream sweep;
    sweep.precision(3);
    for (int j = 0; j < points; ++j) {
        const double h = h_max * std::pow(2.0, -j);
        const interpolated_step<Method> step(h);
        REQUIRE(step.report.failure == step_failure::none);
        REQUIRE(std::isfinite(step.error_norm));
        double error = 0;
        for (const double theta : thetas)
            error = std::fmax(error, std::abs(step.at(theta) - std::sin(t0 + theta * h)));
        CHECK(step.at(0) == step.y[0]);
        CHECK(std::abs(step.at(1) - step.y_new[0]) <= 4 * std::numeric_limits<double>::epsilon());
        sweep << " h " << h << ": " << error << ";";
        const double x = std::log(h), y = std::log(error);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    const double slope = (points * sxy - sx * sy) / (points * sxx - sx * sx);
    INFO(std::string(Method::name) << ": interpolation error ~ h^" << slope << ";" << sweep.str());
    CHECK(std::abs(slope - (Method::dense_order + 1)) < 0.2);
}

}  // namespace

TEST_CASE("radau_iia_3 and radau_iia_5: interpolation error ~ h^(s+1)") {
    check_interpolant<radau_iia_3>(0.025, 4);
    check_interpolant<radau_iia_5>(0.05, 4);
    CHECK(!gauss_legendre_2::has_dense_output);  // fixed steps only: no step hands back Z
}
