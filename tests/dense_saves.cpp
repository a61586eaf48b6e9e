// Saved series of adaptive methods against SciPy's dense output
// (reference/make_dense_series_reference.py): Lorenz, save_every = 0.07 over [0, 1.5],
// which does not divide the interval, with t0 and t_end saved too. Methods with an
// interpolant save without shortening a single step: their steps, step counts and final
// states are those of the same solve saving nothing (bit for bit on the host, to rounding
// on the device). Methods without one land on the
// save times.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cubie/algorithms/explicit/bogacki_shampine_32.hpp"
#include "cubie/algorithms/explicit/cash_karp_54.hpp"
#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/dormand_prince_54.hpp"
#include "cubie/algorithms/explicit/dormand_prince_853.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/explicit/vern7.hpp"
#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/series_reference.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

constexpr std::size_t n_trajectories = 5;
constexpr std::size_t n_saves = 23;  // t0, 0.07 k for k = 1..21, t_end

template <class T>
batch_inputs<T> lorenz_inputs(std::vector<T>& y0, std::vector<T>& rho) {
    y0.assign(3 * n_trajectories, T(0));
    for (std::size_t i = 0; i < n_trajectories; ++i) y0[i] = 1;
    rho = {0, 7, 14, 21, 28};
    return {n_trajectories, y0, rho};
}

template <class Controller>
solve_settings<Controller> dense_settings(double dt, double tol) {
    solve_settings<Controller> s;
    s.t_end = 1.5;
    s.dt = dt;
    s.atol = s.rtol = {tol};
    s.save_every = 0.07;
    s.save_initial = true;
    s.save_final = true;
    return s;
}

/// Largest error of the saved states against the reference, relative to max(1, |ref|).
template <class T>
double series_error(const batch_result<T>& r) {
    static const auto ref = cubie::testing::read_series_reference("dense_series_reference.csv",
                                                                  n_trajectories * n_saves);
    REQUIRE(r.failures() == 0);
    REQUIRE(r.n_saves() == n_saves);
    double err = 0;
    for (std::size_t traj = 0; traj < n_trajectories; ++traj) {
        for (std::size_t k = 0; k < n_saves; ++k) {
            const std::size_t row = traj * n_saves + k;
            CHECK(static_cast<double>(r.save_times[k]) ==
                  doctest::Approx(ref.t[row]).epsilon(std::is_same_v<T, float> ? 1e-7 : 1e-15));
            const double expected[3] = {ref.x[row], ref.y[row], ref.z[row]};
            for (int v = 0; v < 3; ++v)
                err = std::fmax(err, std::abs(r.saved_value(k, v, traj) - expected[v]) /
                                         std::fmax(1.0, std::abs(expected[v])));
        }
    }
    return err;
}

/// Saves through the interpolant: accurate, and the steps are those of a solve that
/// saves nothing, bit for bit.
template <class T, class Algorithm>
void check_interpolated_saves(double tol, double bound) {
    static_assert(Algorithm::has_dense_output);
    INFO(std::string(Algorithm::name)
         << std::string(sizeof(T) == 4 ? " in float" : " in double") << " at " << tol);
    std::vector<T> y0, rho;
    const auto inputs = lorenz_inputs(y0, rho);
    const auto s = dense_settings<pi_controller>(1e-3, tol);
    const auto saved = solver<catalogue::lorenz<T>, Algorithm, pi_controller, save_state>{}.solve(
        inputs, s, test_backend{});
    const double err = series_error(saved);
    MESSAGE(std::string(Algorithm::name) << ": largest relative error " << err);
    CHECK(err < bound);

    auto plain_settings = s;
    plain_settings.save_every = 0;
    const auto plain = solver<catalogue::lorenz<T>, Algorithm, pi_controller>{}.solve(
        inputs, plain_settings, test_backend{});
#if defined(__CUDACC__)
    // nvcc contracts multiply-adds differently in the two kernels (the saving one keeps
    // the stages), so the two solves agree to rounding, and a step whose error estimate
    // sits at the acceptance threshold may go either way. Landing on the 23 save times
    // would add up to 23 steps.
    for (std::size_t i = 0; i < n_trajectories; ++i) {
        CHECK(std::abs(double(saved.accepted_steps[i]) - double(plain.accepted_steps[i])) <= 1);
        for (int v = 0; v < 3; ++v)
            CHECK(saved.final_state(v, i) ==
                  doctest::Approx(plain.final_state(v, i)).epsilon(10 * tol).scale(1));
    }
#else
    // On the host both solves run the same arithmetic: the same steps, bit for bit.
    CHECK(saved.accepted_steps == plain.accepted_steps);
    CHECK(saved.rejected_steps == plain.rejected_steps);
    CHECK(saved.final_states == plain.final_states);
#endif
    // The final save is the final state itself, not an interpolation.
    for (std::size_t i = 0; i < n_trajectories; ++i)
        for (int v = 0; v < 3; ++v)
            CHECK(saved.saved_value(n_saves - 1, v, i) == saved.final_state(v, i));
}

}  // namespace

// Bounds: about 100 x the tolerance over this chaotic interval (the global error of the
// methods themselves at these tolerances is of that size, see adaptive_*.cpp), well below
// what a wrong interpolant gives (its error is O(h^(p+1)) of steps of 1e-2..1e-1: 1e-4 and
// more).
TEST_CASE("tsit5 saves through its interpolant") {
    check_interpolated_saves<double, tsit5>(1e-10, 1e-7);
    check_interpolated_saves<float, tsit5>(1e-6, 2e-4);
}
TEST_CASE("dormand_prince_54 saves through its interpolant") {
    check_interpolated_saves<double, dormand_prince_54>(1e-10, 1e-7);
}
TEST_CASE("bogacki_shampine_32 saves through its interpolant") {
    check_interpolated_saves<double, bogacki_shampine_32>(1e-8, 1e-5);
}
TEST_CASE("vern7 saves through its interpolant") {
    check_interpolated_saves<double, vern7>(1e-11, 1e-8);
}
TEST_CASE("vern9 saves through its interpolant") {
    check_interpolated_saves<double, vern9>(1e-12, 1e-9);
}
TEST_CASE("dormand_prince_853 saves through its interpolant") {
    check_interpolated_saves<double, dormand_prince_853>(1e-11, 1e-8);
}

TEST_CASE("a method without an interpolant lands on the save times") {
    static_assert(!cash_karp_54::has_dense_output);
    std::vector<double> y0, rho;
    const auto inputs = lorenz_inputs(y0, rho);
    const auto s = dense_settings<pi_controller>(1e-3, 1e-10);
    const auto r =
        solver<catalogue::lorenz<double>, cash_karp_54, pi_controller, save_state>{}.solve(
            inputs, s, test_backend{});
    const double err = series_error(r);
    MESSAGE("cash_karp_54: largest relative error " << err);
    CHECK(err < 1e-7);
}

TEST_CASE("fixed steps save at whole numbers of steps") {
    std::vector<double> y0, rho;
    const auto inputs = lorenz_inputs(y0, rho);
    const double dt = 0.07 / 64;  // 1.5 / dt is not whole: the last step is shortened
    const auto r = solver<catalogue::lorenz<double>, classical_rk4, fixed_step, save_state>{}.solve(
        inputs, dense_settings<fixed_step>(dt, 0), test_backend{});
    const double err = series_error(r);
    MESSAGE("classical_rk4, dt = 0.07 / 64: largest relative error " << err);
    CHECK(err < 1e-6);
}
