// sparse_lu's growth refusals end to end: a Rosenbrock solve whose iteration matrices, factored
// in the system's pattern without row exchanges, have multipliers past the growth limit at the
// steps the solution allows. A refused factorisation fails the step as singular and the step
// shrinks; the solve must still succeed, and reach the analytic solution, where dense_lu (row
// exchanges, no limit) factors every matrix.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/linear/iteration_lu.hpp"
#include "cubie/solver/solver.hpp"
#include "cubie/systems/dense_jacobian.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

// Outside an unnamed namespace: nvcc warns of its unreferenced static members there.
namespace growth_refusals {

/// Two overdamped oscillators x' = v, v' = -k x - c v with k = 1e6 and c = 1e6 + 1: modes
/// e^-t and e^-1e6 t. From x = 1, v = -1 only the slow mode is excited, x = e^-t, v = -e^-t,
/// and the steps would grow to a good part of t. In the natural pivot order (the pattern's
/// Markowitz counts tie) the multiplier of W = I / (gamma h) - J is k gamma h: past float's
/// growth limit, 4096, at h above about 0.016 (gamma = 0.19 to 0.25), within double's (6.7e7).
template <class T>
struct overdamped_pair {
    using value_type = T;
    static constexpr int n_states = 4;
    static constexpr int n_parameters = 0;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    static constexpr cuda::std::array<const char*, 4> state_names{"x1", "v1", "x2", "v2"};
    static constexpr cuda::std::array<const char*, 0> parameter_names{};
    static constexpr cuda::std::array<const char*, 0> observable_names{};
    static constexpr cuda::std::array<const char*, 0> driver_names{};
    static constexpr T k = T(1e6), c = T(1e6 + 1);

    CUBIE_HD void rhs(T, const state_t<overdamped_pair>& y, const parameters_t<overdamped_pair>&,
                      const drivers_t<overdamped_pair>&, state_t<overdamped_pair>& dydt) const {
        for (int b = 0; b < 4; b += 2) {
            dydt[b] = y[b + 1];
            dydt[b + 1] = -k * y[b] - c * y[b + 1];
        }
    }
    static constexpr sparsity_pattern<4> jacobian_pattern{{
        ".x..",
        "xx..",
        "...x",
        "..xx",
    }};
    CUBIE_HD void jacobian(T, const state_t<overdamped_pair>&, const parameters_t<overdamped_pair>&,
                           const drivers_t<overdamped_pair>&,
                           jacobian_t<overdamped_pair>& J) const {
        J = {};
        for (int b = 0; b < 4; b += 2) {
            J[b][b + 1] = T(1);
            J[b + 1][b] = -k;
            J[b + 1][b + 1] = -c;
        }
    }
    CUBIE_HD void time_derivative(T, const state_t<overdamped_pair>&,
                                  const parameters_t<overdamped_pair>&,
                                  const drivers_t<overdamped_pair>&,
                                  state_t<overdamped_pair>& dfdt) const {
        dfdt = {};
    }
};

}  // namespace growth_refusals

namespace {

using growth_refusals::overdamped_pair;

static_assert(factored_in_pattern<overdamped_pair<float>>);
static_assert(!factored_in_pattern<dense_jacobian<overdamped_pair<float>>>);

constexpr double t_end = 5, rtol = 1e-4, atol = 1e-6;

template <class System>
batch_result<typename System::value_type> solve_pair() {
    using T = typename System::value_type;
    solve_settings<pi_controller> settings;
    settings.t_end = t_end;
    settings.dt = 1e-3;
    settings.rtol = {rtol};
    settings.atol = {atol};
    const std::vector<T> y0{T(1), T(-1), T(1), T(-1)};
    return solver<System, rodas5p, pi_controller>{}.solve({1, y0, std::vector<T>{}}, settings,
                                                          test_backend{});
}

/// The largest error of x1, v1, x2, v2 at t_end against e^-t, in tolerances.
template <class T>
double error_in_tolerances(const batch_result<T>& r) {
    const double x = std::exp(-t_end);
    const double exact[4] = {x, -x, x, -x};
    double worst = 0;
    for (int i = 0; i < 4; ++i)
        worst = std::fmax(worst, std::abs(double(r.final_state(i, 0)) - exact[i]) /
                                     (atol + rtol * std::abs(exact[i])));
    return worst;
}

template <class T>
void check_pair(bool refusals_expected) {
    const batch_result<T> sparse = solve_pair<overdamped_pair<T>>();
    const batch_result<T> dense = solve_pair<dense_jacobian<overdamped_pair<T>>>();
    INFO("in the pattern: " << sparse.accepted_steps[0] << " accepted, " << sparse.rejected_steps[0]
                            << " rejected; dense: " << dense.accepted_steps[0] << " accepted, "
                            << dense.rejected_steps[0] << " rejected");
    REQUIRE(sparse.statuses[0] == status::success);
    REQUIRE(dense.statuses[0] == status::success);
    CHECK(error_in_tolerances(sparse) < 2);
    CHECK(error_in_tolerances(dense) < 2);
    if (refusals_expected) {
        // Refused factorisations are rejected steps, and they keep the steps short.
        CHECK(sparse.rejected_steps[0] > dense.rejected_steps[0] + 10);
        CHECK(sparse.accepted_steps[0] > 2 * dense.accepted_steps[0]);
    } else {
        CHECK(sparse.accepted_steps[0] + sparse.rejected_steps[0] <=
              dense.accepted_steps[0] + dense.rejected_steps[0] + 2);
    }
}

}  // namespace

TEST_CASE("rodas5p in float past sparse_lu's growth limit: refused steps shrink, and succeed") {
    check_pair<float>(true);
}

TEST_CASE("rodas5p in double on the same system: within the limit, as many steps as dense") {
    check_pair<double>(false);
}
