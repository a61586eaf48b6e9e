// Failure modes end one trajectory with its status and leave the others exactly as they
// would be alone in the batch.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <cuda/std/limits>

#include "cubie/algorithms/explicit/euler.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

/// y' = p y^2: y = y0 / (1 - p y0 t), which blows up at t = 1 / (p y0) when p > 0.
template <class T>
struct quadratic_growth {
    using value_type = T;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 1;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    CUBIE_HD void rhs(T, const state_t<quadratic_growth>& y,
                      const parameters_t<quadratic_growth>& p, const drivers_t<quadratic_growth>&,
                      state_t<quadratic_growth>& dydt) const {
        dydt[0] = p[0] * y[0] * y[0];
    }
};

/// y' = -y until t = p, NaN after: any step reaching past p fails.
template <class T>
struct nan_after {
    using value_type = T;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 1;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    CUBIE_HD void rhs(T t, const state_t<nan_after>& y, const parameters_t<nan_after>& p,
                      const drivers_t<nan_after>&, state_t<nan_after>& dydt) const {
        dydt[0] = t > p[0] ? cuda::std::numeric_limits<T>::quiet_NaN() : -y[0];
    }
};

template <class System, class Algorithm, class Controller>
batch_result<double> solve(const std::vector<double>& y0, const std::vector<double>& p,
                           const solve_settings<Controller>& settings) {
    return solver<System, Algorithm, Controller>{}.solve({y0.size(), y0, p}, settings,
                                                         test_backend{});
}

solve_settings<pi_controller> adaptive_settings() {
    solve_settings<pi_controller> s;
    s.dt = 1.0 / 1024;
    s.atol = {1e-8};
    s.rtol = {1e-8};
    return s;
}

/// Trajectory i of `batch` equals the only trajectory of `alone`, bit for bit.
void check_same(const batch_result<double>& batch, std::size_t i,
                const batch_result<double>& alone) {
    CHECK(batch.statuses[i] == alone.statuses[0]);
    CHECK(batch.final_state(0, i) == alone.final_state(0, 0));
    CHECK(batch.accepted_steps[i] == alone.accepted_steps[0]);
    CHECK(batch.rejected_steps[i] == alone.rejected_steps[0]);
}

}  // namespace

TEST_CASE("dt_min: a trajectory blowing up in finite time ends with step_size_underflow") {
    using system = quadratic_growth<double>;
    auto settings = adaptive_settings();
    settings.dt_min = 1e-7;
    const auto r = solve<system, tsit5, pi_controller>({1, 1, 1}, {-1, 2, 0.5}, settings);
    CHECK(r.statuses[1] == status::step_size_underflow);
    CHECK(r.final_state(0, 1) > 1e3);  // close to the pole at t = 0.5
    CHECK(r.statuses[0] == status::success);
    CHECK(r.final_state(0, 0) == doctest::Approx(0.5).epsilon(1e-7));  // 1 / (1 + t)
    CHECK(r.statuses[2] == status::success);
    CHECK(r.final_state(0, 2) == doctest::Approx(2.0).epsilon(1e-7));  // 1 / (1 - t / 2)
    check_same(r, 0, solve<system, tsit5, pi_controller>({1}, {-1}, settings));
    check_same(r, 2, solve<system, tsit5, pi_controller>({1}, {0.5}, settings));
}

TEST_CASE("max_steps: attempts are counted, accepted and rejected") {
    using system = quadratic_growth<double>;
    auto settings = adaptive_settings();
    settings.max_steps = 10;
    const auto r = solve<system, tsit5, pi_controller>({1, 1}, {2, 0}, settings);
    CHECK(r.statuses[0] == status::max_steps_exceeded);
    CHECK(r.accepted_steps[0] + r.rejected_steps[0] == 10);
    CHECK(r.statuses[1] == status::success);  // y' = 0 takes few, growing steps
    CHECK(r.final_state(0, 1) == 1.0);
}

TEST_CASE("fixed step: overflow to infinity ends with nonfinite_state") {
    using system = quadratic_growth<double>;
    solve_settings<fixed_step> settings;
    settings.dt = 1.0 / 64;
    const auto r = solve<system, euler, fixed_step>({1, 1}, {1e6, -1}, settings);
    CHECK(r.statuses[0] == status::nonfinite_state);
    CHECK(std::isfinite(r.final_state(0, 0)));  // the last finite state is kept
    CHECK(r.accepted_steps[0] < 64);
    CHECK(r.statuses[1] == status::success);
    check_same(r, 1, solve<system, euler, fixed_step>({1}, {-1}, settings));
}

namespace {

/// Fixed steps of 1/64 over [0, 1] on nan_after with p = (k + 1/2) / 64 for several k,
/// crossing the blocks in which explicit fixed steps are checked for finiteness
/// (loop/integrate.hpp): each trajectory must end as if checked after every step, with the
/// last finite state and the steps that reached it. A step from t fails once a stage time
/// passes p: Euler's only stage is at t, so it takes k + 1 steps; Tsit5's last stages are at
/// t + dt, so it takes k (`reach` = 1). With Outputs, the state and the step counters are
/// saved every 5 steps (blocks end at each save): the saves the trajectory reached hold what
/// it had there, the others NaN.
template <class Algorithm, class... Outputs>
void check_fixed_step_failures(int reach) {
    constexpr bool saving = sizeof...(Outputs) > 0;
    constexpr std::uint32_t steps_per_save = 5;
    solve_settings<fixed_step> settings;
    settings.t0 = 0;
    settings.t_end = 1;
    settings.dt = 1.0 / 64;
    if (saving) settings.save_every = steps_per_save * settings.dt;
    const std::vector<int> ks{0, 4, 5, 6, 7, 8, 9, 10, 15, 16, 20, 30, 31, 32, 33, 62};
    std::vector<double> p;
    for (const int k : ks) p.push_back((k + 0.5) / 64);
    const auto r = solver<nan_after<double>, Algorithm, fixed_step, Outputs...>{}.solve(
        {ks.size(), std::vector<double>(ks.size(), 1.0), p}, settings, test_backend{});
    for (std::size_t i = 0; i < ks.size(); ++i) {
        CAPTURE(ks[i]);
        const std::uint32_t steps = static_cast<std::uint32_t>(ks[i] + 1 - reach);
        CHECK(r.statuses[i] == status::nonfinite_state);
        CHECK(r.accepted_steps[i] == steps);
        auto to_last_finite = settings;
        to_last_finite.t_end = steps * settings.dt;
        to_last_finite.save_every = 0;
        if (steps == 0) {
            CHECK(r.final_state(0, i) == 1.0);
        } else {
            const auto alone =
                solve<nan_after<double>, Algorithm, fixed_step>({1}, {p[i]}, to_last_finite);
            CHECK(alone.statuses[0] == status::success);
            CHECK(r.final_state(0, i) == alone.final_state(0, 0));
        }
        if constexpr (saving) {
            const std::uint32_t reached = steps / steps_per_save;
            REQUIRE(r.n_saves() == 12);
            for (std::uint32_t k = 0; k < r.n_saves(); ++k) {
                CAPTURE(k);
                CHECK(std::isnan(r.saved_value(k, 0, i)) == (k >= reached));
                if (k < reached) CHECK(r.saved_counter(k, 0, i) == steps_per_save);
            }
            if (reached > 0) {
                to_last_finite.t_end = reached * steps_per_save * settings.dt;
                const auto alone =
                    solve<nan_after<double>, Algorithm, fixed_step>({1}, {p[i]}, to_last_finite);
                CHECK(r.saved_value(reached - 1, 0, i) == alone.final_state(0, 0));
            }
        }
    }
}

}  // namespace

TEST_CASE("fixed step: a failing step is found however often finiteness is checked") {
    check_fixed_step_failures<euler>(0);
    check_fixed_step_failures<tsit5>(1);
}

TEST_CASE("fixed step, saving: a failing step is found, and the saves before it are kept") {
    check_fixed_step_failures<euler, save_state, save_counters>(0);
    check_fixed_step_failures<tsit5, save_state, save_counters>(1);
}

TEST_CASE("adaptive: NaN derivatives end with nonfinite_state, not a hang") {
    using system = nan_after<double>;
    auto settings = adaptive_settings();
    settings.dt_min = 1e-9;
    const auto r = solve<system, tsit5, pi_controller>({1, 1}, {0.5, 10}, settings);
    CHECK(r.statuses[0] == status::nonfinite_state);
    CHECK(r.final_state(0, 0) == doctest::Approx(std::exp(-0.5)).epsilon(1e-6));
    CHECK(r.statuses[1] == status::success);
    CHECK(r.final_state(0, 1) == doctest::Approx(std::exp(-1.0)).epsilon(1e-7));
    check_same(r, 1, solve<system, tsit5, pi_controller>({1}, {10}, settings));
}

TEST_CASE("NaN or infinite inputs end that trajectory with nonfinite_input") {
    using system = quadratic_growth<double>;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const auto r =
        solve<system, tsit5, pi_controller>({nan, 1, 1}, {-1, inf, -1}, adaptive_settings());
    CHECK(r.statuses[0] == status::nonfinite_input);
    CHECK(r.statuses[1] == status::nonfinite_input);
    CHECK(r.accepted_steps[0] + r.rejected_steps[0] == 0);
    CHECK(r.statuses[2] == status::success);
    CHECK(r.failures() == 2);
}

TEST_CASE("fixed step: NaN or infinite inputs end with nonfinite_input, the state as given") {
    // Explicit fixed steps look at their inputs only after their first blocks of steps
    // (loop/integrate.hpp). A NaN p leaves nan_after's state finite (t > NaN is false), so
    // that trajectory runs every block before its inputs turn it away.
    using system = nan_after<double>;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    // below one block, several blocks, and no step at all (t_end = t0)
    for (const auto& span : {std::pair{1.0 / 4, 1.0}, {1.0 / 256, 1.0}, {1.0 / 4, 0.0}}) {
        // Clang < 16 captures no structured binding (CAPTURE's lambda)
        const double dt = span.first, t_end = span.second;
        CAPTURE(dt);
        CAPTURE(t_end);
        solve_settings<fixed_step> settings;
        settings.dt = dt;
        settings.t_end = t_end;
        const auto r =
            solve<system, euler, fixed_step>({1, inf, nan, 1}, {nan, 10, 10, 10}, settings);
        for (std::size_t i = 0; i < 3; ++i) {
            CAPTURE(i);
            CHECK(r.statuses[i] == status::nonfinite_input);
            CHECK(r.accepted_steps[i] == 0);
        }
        CHECK(r.final_state(0, 0) == 1.0);
        CHECK(r.final_state(0, 1) == inf);
        CHECK(std::isnan(r.final_state(0, 2)));
        CHECK(r.statuses[3] == status::success);
        check_same(r, 3, solve<system, euler, fixed_step>({1}, {10}, settings));
    }
}
