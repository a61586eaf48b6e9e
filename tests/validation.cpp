// Bad settings and mismatched sizes throw before any work, with a message naming the
// setting and the bad value.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double infinity = std::numeric_limits<double>::infinity();

const std::vector<double> initial = {1, 1, 0, 0, 0, 0};  // two trajectories
const std::vector<double> rho = {10, 20};

template <class Settings>
void solve_adaptive(const Settings& s, std::size_t n = 2, const std::vector<double>& y = initial,
                    const std::vector<double>& p = rho) {
    solver<catalogue::lorenz<double>, tsit5, pi_controller>{}.solve({n, y, p}, s, test_backend{});
}

solve_settings<pi_controller> valid() {
    solve_settings<pi_controller> s;
    s.dt = 1e-3;
    return s;
}

}  // namespace

#define CHECK_INVALID(statement, text) \
    CHECK_THROWS_WITH_AS(statement, doctest::Contains(text), std::invalid_argument)

TEST_CASE("times and step sizes") {
    auto s = valid();
    CHECK_NOTHROW(solve_adaptive(s));
    s = valid(), s.dt = 0;
    CHECK_INVALID(solve_adaptive(s), "setting dt = 0 is invalid");
    s = valid(), s.dt = -1;
    CHECK_INVALID(solve_adaptive(s), "setting dt = -1 is invalid");
    s = valid(), s.dt = not_a_number;
    CHECK_INVALID(solve_adaptive(s), "setting dt = nan");
    s = valid(), s.dt = infinity;
    CHECK_INVALID(solve_adaptive(s), "setting dt = inf");
    s = valid(), s.t0 = not_a_number;
    CHECK_INVALID(solve_adaptive(s), "setting t0 = nan");
    s = valid(), s.t_end = infinity;
    CHECK_INVALID(solve_adaptive(s), "setting t_end = inf");
    s = valid(), s.t0 = 2, s.t_end = 1;
    CHECK_INVALID(solve_adaptive(s), "setting t_end = 1 is invalid: must not be before t0");
    s = valid(), s.dt_min = -1e-9;
    CHECK_INVALID(solve_adaptive(s), "setting dt_min = -1e-09 is invalid: must be non-negative");
    s = valid(), s.dt_min = 1e-2, s.dt_max = 1e-3;
    CHECK_INVALID(solve_adaptive(s), "setting dt_min = 0.01 is invalid: must not exceed dt_max");
    s = valid(), s.dt_max = 0;
    CHECK_INVALID(solve_adaptive(s), "setting dt_max = 0");
    s = valid(), s.dt = 1e-6, s.dt_min = 1e-5;
    CHECK_INVALID(solve_adaptive(s),
                  "setting dt = 1e-06 is invalid: must not be below dt_min = 1e-05");
    s = valid(), s.max_steps = 0;
    CHECK_INVALID(solve_adaptive(s), "setting max_steps = 0");
}

TEST_CASE("tolerances") {
    auto s = valid();
    s.atol = {-1e-6};
    CHECK_INVALID(solve_adaptive(s), "setting atol[0] = -1e-06 is invalid");
    s = valid(), s.rtol = {1e-6, 1e-6, -1};
    CHECK_INVALID(solve_adaptive(s), "setting rtol[2] = -1");
    s = valid(), s.atol = {1e-6, 1e-6};
    CHECK_INVALID(solve_adaptive(s),
                  "setting atol.size() = 2 is invalid: must be 1 or the number of states (3)");
    s = valid(), s.atol = {0}, s.rtol = {0};
    CHECK_INVALID(solve_adaptive(s), "setting atol[0] = 0 is invalid: and rtol are both zero");
    s = valid(), s.rtol = {not_a_number};
    CHECK_INVALID(solve_adaptive(s), "setting rtol[0] = nan");
    s = valid(), s.atol = {1e-6, 0, 1e-6}, s.rtol = {1e-6, 1e-3, 0};
    CHECK_NOTHROW(solve_adaptive(s));
}

TEST_CASE("controller settings") {
    auto s = valid();
    s.controller.limits.safety = 0;
    CHECK_INVALID(solve_adaptive(s), "setting controller.limits.safety = 0 is invalid");
    s = valid(), s.controller.limits.min_factor = 1.5;
    CHECK_INVALID(solve_adaptive(s), "setting controller.limits.min_factor = 1.5");
    s = valid(), s.controller.limits.max_factor = 0.5;
    CHECK_INVALID(solve_adaptive(s), "setting controller.limits.max_factor = 0.5");
    s = valid(), s.controller.beta = {-0.7, 0.4};
    CHECK_INVALID(solve_adaptive(s),
                  "setting controller.beta[0] = -0.7 is invalid: must be positive");
    s = valid(), s.controller.beta = {0.7, not_a_number};
    CHECK_INVALID(solve_adaptive(s), "setting controller.beta[1] = nan is invalid: must be finite");
}

TEST_CASE("input sizes") {
    CHECK_INVALID(solve_adaptive(valid(), 3),
                  "input initial_states has 6 values; expected 3 x 3 trajectories = 9");
    CHECK_INVALID(solve_adaptive(valid(), 2, initial, {1, 2, 3}),
                  "input parameters has 3 values; expected 1 x 2 trajectories = 2");
    CHECK_INVALID(solve_adaptive(valid(), 2, {1, 2, 3}), "input initial_states has 3 values");
}

TEST_CASE("absurd sizes: an unaddressable batch, a device allocation that cannot succeed") {
    const std::size_t huge = std::numeric_limits<std::size_t>::max() / 4;
    CHECK_INVALID(solve_adaptive(valid(), huge), "input n_trajectories = ");
#if defined(__CUDACC__)
    CHECK_THROWS_WITH_AS(device_buffer<double>(std::size_t{1} << 45),
                         doctest::Contains("cudaErrorMemoryAllocation"), cuda_error);
    // The failed allocation is not blamed on the next, valid solve's kernel.
    CHECK_NOTHROW(solve_adaptive(valid()));
#endif
}

TEST_CASE("dt longer than the interval: one shortened step, or a clamped first step") {
    solve_settings<fixed_step> f;
    f.dt = 5;
    const auto fixed = solver<catalogue::lorenz<double>, classical_rk4, fixed_step>{}.solve(
        {2, initial, rho}, f, test_backend{});
    CHECK(fixed.failures() == 0);
    CHECK(fixed.accepted_steps[0] == 1);
    auto a = valid();
    a.dt = 5;
    const auto adaptive = solver<catalogue::lorenz<double>, tsit5, pi_controller>{}.solve(
        {2, initial, rho}, a, test_backend{});
    CHECK(adaptive.failures() == 0);
}

TEST_CASE("fixed step: the step count must fit max_steps") {
    solve_settings<fixed_step> s;
    s.dt = 1e-3;
    s.max_steps = 999;
    solver<catalogue::lorenz<double>, classical_rk4, fixed_step> rk4;
    CHECK_INVALID(rk4.solve({2, initial, rho}, s, test_backend{}),
                  "setting max_steps = 999 is invalid: is below the 1000 fixed steps");
    s.max_steps = 1000;
    CHECK(rk4.solve({2, initial, rho}, s, test_backend{}).accepted_steps[0] == 1000);
}

TEST_CASE("values that vanish in float") {
    const std::vector<float> y = {1, 0, 0};
    const std::vector<float> p = {10};
    solver<catalogue::lorenz<float>, tsit5, pi_controller> f32;
    auto s = valid();
    s.dt = 1e-50;
    CHECK_INVALID(f32.solve({1, y, p}, s, test_backend{}),
                  "setting dt = 1e-50 is invalid: not representable");
    s = valid(), s.t0 = 1, s.t_end = 1 + 1e-12;
    CHECK_INVALID(f32.solve({1, y, p}, s, test_backend{}), "equals t0 in the working precision");
    s = valid(), s.atol = {1e-300};
    CHECK_INVALID(f32.solve({1, y, p}, s, test_backend{}), "setting atol[0] = 1e-300 is invalid");
}

TEST_CASE("empty batches and empty intervals are valid") {
    const auto none = solver<catalogue::lorenz<double>, tsit5, pi_controller>{}.solve(
        {0, {}, {}}, valid(), test_backend{});
    CHECK(none.n_trajectories == 0);
    CHECK(none.final_states.empty());

    auto s = valid();
    s.t0 = s.t_end = 3;
    const auto still = solver<catalogue::lorenz<double>, tsit5, pi_controller>{}.solve(
        {2, initial, rho}, s, test_backend{});
    CHECK(still.failures() == 0);
    CHECK(still.accepted_steps[1] == 0);
    CHECK(still.final_state(0, 1) == initial[1]);
}

TEST_CASE("save settings are validated; a solver without save_state saves nothing") {
    using decay_saver =
        solver<catalogue::exponential_decay<double>, tsit5, pi_controller, save_state>;
    solve_settings<fixed_step> fixed;
    fixed.dt = 0.1;
    fixed.save_every = 0.15;
    const std::vector<double> y0 = {1}, k = {1};
    CHECK_THROWS_WITH_AS(
        (solver<catalogue::exponential_decay<double>, classical_rk4, fixed_step, save_state>{}
             .solve({1, y0, k}, fixed, test_backend{})),
        doctest::Contains("setting save_every = 0.15 is invalid: is not a whole number of fixed "
                          "steps of dt = 0.1"),
        std::invalid_argument);

    solve_settings<pi_controller> s;
    s.dt = 1e-3;
    s.save_every = -1;
    CHECK_THROWS_WITH_AS(decay_saver{}.solve({1, y0, k}, s, test_backend{}),
                         doctest::Contains("setting save_every = -1 is invalid"),
                         std::invalid_argument);
    s.save_every = 5;
    CHECK_THROWS_WITH_AS(decay_saver{}.solve({1, y0, k}, s, test_backend{}),
                         doctest::Contains("nothing would be saved"), std::invalid_argument);

    solver<catalogue::exponential_decay<double>, tsit5, pi_controller> plain;
    CHECK_THROWS_WITH_AS(plain.solve({1, y0, k}, s, test_backend{}),
                         doctest::Contains("add save_state, save_observables or save_counters"),
                         std::invalid_argument);
    s.save_every = 0;
    const auto r = plain.solve({1, y0, k}, s, test_backend{});
    CHECK(r.saved.empty());
    CHECK(r.save_times.empty());
}
