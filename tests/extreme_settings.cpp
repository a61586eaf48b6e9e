// Extreme but legal-looking settings: each is solved right or refused with a message that
// names the setting, never a success with a wrong answer. Grouped by what goes wrong
// without care: time arithmetic, output plans, accessors, user code that throws, inputs
// that alias the result, and statuses that must name the real cause.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/catalogue/pleiades.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "support/driver_integral.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

#define CHECK_INVALID(statement, text) \
    CHECK_THROWS_WITH_AS(statement, doctest::Contains(text), std::invalid_argument)
#define CHECK_OUT_OF_RANGE(statement, text) \
    CHECK_THROWS_WITH_AS(statement, doctest::Contains(text), std::out_of_range)

template <class T>
using decay = catalogue::exponential_decay<T>;

/// Decay y' = -k y from y0 = 1 over [t0, t_end], one trajectory per rate in k.
template <class T, class Algorithm, class Controller, class... Outputs>
batch_result<T> solve_decay(const solve_settings<Controller>& s, std::vector<T> k = {T(0.5)},
                            const solve_control& control = {}) {
    const std::vector<T> y0(k.size(), T(1));
    return solver<decay<T>, Algorithm, Controller, Outputs...>{}.solve({k.size(), y0, k}, s,
                                                                       test_backend{}, control);
}

/// The same with summaries (the mean) of the decay, in double.
batch_result<double> summarise_decay(const solve_settings<pi_controller>& s) {
    return solve_decay<double, tsit5, pi_controller, summaries<metrics::mean>>(s);
}

solve_settings<fixed_step> fixed(double t0, double t_end, double dt) {
    solve_settings<fixed_step> s;
    s.t0 = t0, s.t_end = t_end, s.dt = dt;
    return s;
}

solve_settings<pi_controller> adaptive(double t0, double t_end, double tol) {
    solve_settings<pi_controller> s;
    s.t0 = t0, s.t_end = t_end, s.dt = 1e-3;
    s.atol = s.rtol = {tol};
    return s;
}

}  // namespace

// ---- 1. Step counts and time arithmetic ---------------------------------------------

TEST_CASE("fixed steps: a count that no integer holds is refused before any conversion") {
    CHECK_INVALID((solve_decay<double, classical_rk4>(fixed(0, 1, 1e-310))),
                  "setting dt = 1e-310 is invalid: is too small");
    CHECK_INVALID(
        (solve_decay<double, classical_rk4>(fixed(0, 1, 1e-300))),
        "setting max_steps = 1e+06 is invalid: is below the 9.999999999999999e+299 fixed");
    CHECK_INVALID((solve_decay<double, classical_rk4>(fixed(0, 1, 1e-7))),
                  "setting max_steps = 1e+06 is invalid: is below the 10000000 fixed steps");
    CHECK_INVALID((solve_decay<double, classical_rk4>(fixed(0, 1e300, 1))),
                  "is below the 1e+300 fixed steps");
    auto s = fixed(0, 1, 1e-10);
    s.max_steps = std::numeric_limits<std::uint32_t>::max();
    CHECK_INVALID((solve_decay<double, classical_rk4>(s)), "is below the 10000000000 fixed steps");
}

TEST_CASE("a span that overflows the working precision is refused") {
    CHECK_INVALID((solve_decay<double, classical_rk4>(fixed(-1e308, 1e308, 1e300))),
                  "setting t_end = 1e+308 is invalid: is too far from t0 = -1e+308");
    CHECK_INVALID((solve_decay<float, tsit5>(adaptive(-3e38, 3e38, 1e-4))),
                  "t_end - t0 overflows the working precision");
}

TEST_CASE("a fixed step longer than the span is one step of the span") {
    // RK4's one step of h on y' = -k y multiplies y by 1 - z + z^2/2 - z^3/6 + z^4/24, z = kh.
    for (const double dt : {2.0, 1e20, 1.0 + 1e-12}) {
        CAPTURE(dt);
        const auto r = solve_decay<double, classical_rk4>(fixed(3, 4, dt), {1.0});
        CHECK(r.statuses[0] == status::success);
        CHECK(r.accepted_steps[0] == 1);
        CHECK(r.final_state(0, 0) == doctest::Approx(1 - 1 + 0.5 - 1.0 / 6 + 1.0 / 24));
    }
}

TEST_CASE("float: the last fixed step is as long as the span leaves, far from t = 0") {
    // 101 steps over 10.05 from t0 = 1e5: the last is 0.05. In float, t_end less the
    // rounded time of step 100 would make it 0.046875, and y wrong by 3e-4 of itself.
    const auto r = solve_decay<float, classical_rk4>(fixed(1e5, 1e5 + 10.05, 0.1), {0.1f});
    REQUIRE(r.statuses[0] == status::success);
    CHECK(r.accepted_steps[0] == 101);
    CHECK(r.final_state(0, 0) == doctest::Approx(std::exp(-1.005)).epsilon(2e-5));
}

TEST_CASE("float: step and output times the precision cannot tell apart are refused") {
    CHECK_INVALID((solve_decay<float, classical_rk4>(fixed(1e5, 1e5 + 1, 1e-3))),
                  "setting dt = 0.001 is invalid: is below 8 times the spacing");
    auto s = adaptive(1e6, 1e6 + 1, 1e-5);
    s.dt = 0.25, s.save_every = 0.01;
    CHECK_INVALID((solve_decay<float, tsit5, pi_controller, save_state>(s)),
                  "setting save_every = 0.01 is invalid: is below 8 times the spacing");
    s = adaptive(1e6, 1e6 + 1, 1e-5);
    s.dt = 0.25, s.summarise_every = 0.5, s.sample_summaries_every = 0.01;
    CHECK_INVALID((solve_decay<float, tsit5, pi_controller, summaries<metrics::mean>>(s)),
                  "setting sample_summaries_every = 0.01 is invalid: is below 8 times");
    // The same settings in double are solved.
    CHECK((solve_decay<double, classical_rk4>(fixed(1e5, 1e5 + 1, 1e-3))).failures() == 0);
}

TEST_CASE("float: saves far from t = 0 keep distinct times and the states at them") {
    // Float times near 1e4 are 2^-10 apart: each save's reported time is t0 + k 0.01 to
    // within about that; its state is the solution at t0 + k 0.01 itself.
    auto s = adaptive(1e4, 1e4 + 1, 1e-6);
    s.save_every = 0.01;
    const auto r = solve_decay<float, tsit5, pi_controller, save_state>(s, {2.0f});
    REQUIRE(r.statuses[0] == status::success);
    REQUIRE(r.n_saves() == 100);
    for (std::size_t k = 0; k < r.n_saves(); ++k) {
        CAPTURE(k);
        const double since_t0 = 0.01 * double(k + 1);
        CHECK(std::abs(double(r.save_times[k]) - (1e4 + since_t0)) <= 0x1p-10);
        if (k > 0) CHECK(r.save_times[k] > r.save_times[k - 1]);
        CHECK(r.saved_value(k, 0, 0) == doctest::Approx(std::exp(-2.0 * since_t0)).epsilon(1e-5));
    }
}

TEST_CASE("float: adaptive steps far from t = 0 advance the state by the time that passes") {
    // At t = 1e5 float times are 1/128 apart: a step of 0.01 that moved time by 0.0078 or
    // 0.0156 but the state by 0.01 would integrate the wrong span.
    // A first step of 1e-4 there does not move a float time at all; a span whose ends
    // round (t0 = 1e5 + 0.3) is still integrated over t_end - t0 as given.
    for (const double first_step : {0.05, 1e-4}) {
        for (const double t0 : {1e5, 1e5 + 0.3}) {
            CAPTURE(first_step);
            CAPTURE(t0);
            auto s = adaptive(t0, t0 + 1, 1e-6);
            s.dt = first_step;
            const auto r = solve_decay<float, tsit5>(s, {1.0f, 3.0f});
            for (int i = 0; i < 2; ++i) {
                CAPTURE(i);
                REQUIRE(r.statuses[i] == status::success);
                CHECK(r.final_state(0, i) ==
                      doctest::Approx(std::exp(-(1.0 + 2 * i))).epsilon(2e-5));
            }
        }
    }
}

// ---- 2. Output plans: counts in 64 bits, checked ---------------------------------------

TEST_CASE("output plans whose counts do not fit are refused, naming the setting") {
    auto s = adaptive(0, 5, 1e-6);
    // 2^32 + 4 samples per window would wrap to 4 in 32 bits.
    s.sample_summaries_every = 1e-9, s.summarise_every = 4.2949673;
    CHECK_INVALID(summarise_decay(s),
                  "setting sample_summaries_every = 1e-09 is invalid: gives 4294967300 samples");
    s = adaptive(0, 1e4, 1e-6);
    s.summarise_every = 1, s.sample_summaries_every = 1e-6;
    CHECK_INVALID(summarise_decay(s), "gives 10000000000 samples, more than the limit of 2^32 - 3");
    s = adaptive(0, 1.5, 1e-6);
    s.summarise_every = 1e-9, s.sample_summaries_every = 1e-9;
    CHECK_INVALID((solve_decay<double, tsit5, pi_controller, summaries<metrics::mean_std>>(s)),
                  "setting summarise_every = 1e-09 is invalid: gives 3000000000 output rows");
    s = adaptive(0, 1, 1e-6);
    s.save_every = 1e-10;
    CHECK_INVALID((solve_decay<double, tsit5, pi_controller, save_state>(s)),
                  "setting save_every = 1e-10 is invalid: gives 10000000000 points");
    s = adaptive(0, 1, 1e-6);
    s.save_every = 1e-9;
    CHECK_INVALID(
        (solver<catalogue::lorenz<double>, tsit5, pi_controller, save_state>{}.solve(
            {1, std::vector<double>{1, 0, 0}, std::vector<double>{28}}, s, test_backend{})),
        "output rows per trajectory, more than the limit of 2^31 - 1");
}

// ---- 3. Accessors check every index ----------------------------------------------------

TEST_CASE("result accessors throw std::out_of_range naming the index and the size") {
    auto s = adaptive(0, 1, 1e-6);
    s.save_every = 0.5;
    s.summarise_every = 0.5, s.sample_summaries_every = 0.1;
    const auto r = solve_decay<double, tsit5, pi_controller, save_state, save_counters,
                               summaries<metrics::mean>>(s, {0.5, 1.0});
    REQUIRE(r.failures() == 0);
    CHECK(r.final_state(0, 1) == doctest::Approx(std::exp(-1.0)).epsilon(1e-5));
    CHECK_OUT_OF_RANGE(r.final_state(1, 0), "state 1 is out of range: this result has 1");
    CHECK_OUT_OF_RANGE(r.final_state(-1, 0), "state -1 is out of range");
    CHECK_OUT_OF_RANGE(r.final_state(0, 2), "trajectory 2 is out of range: this result has 2");
    CHECK_OUT_OF_RANGE(r.saved_value(2, 0, 0), "save 2 is out of range: this result has 2");
    CHECK_OUT_OF_RANGE(r.saved_value(0, 1, 0), "saved variable 1 is out of range");
    CHECK_OUT_OF_RANGE(r.saved_value(0, 0, 2), "trajectory 2 is out of range");
    CHECK_OUT_OF_RANGE(r.saved_counter(0, 2, 0), "counter 2 is out of range: this result has 2");
    CHECK_OUT_OF_RANGE(r.saved_counter(0, 0, 5), "trajectory 5 is out of range");
    CHECK_OUT_OF_RANGE(r.summary_value(2, 0, 0), "window 2 is out of range");
    CHECK_OUT_OF_RANGE(r.summary_value(0, 1, 0), "summary row 1 is out of range");
    CHECK_OUT_OF_RANGE(r.summary_value(0, 0, 2), "trajectory 2 is out of range");
    CHECK_OUT_OF_RANGE(r.status_message(2), "trajectory 2 is out of range");
    CHECK_OUT_OF_RANGE(r.trajectory(2), "trajectory 2 is out of range");
    CHECK_OUT_OF_RANGE(r.series("z"), "no saved variable called \"z\"");
    CHECK_OUT_OF_RANGE(r.summary("y.max"), "no summary called \"y.max\"");
}

// ---- 4. User code that throws ------------------------------------------------------------

#if !defined(__CUDACC__)
namespace {

/// y' = -k y, but a rate below zero is a domain error of the model, thrown from rhs.
struct picky_decay {
    using value_type = double;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 1;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    void rhs(double, const state_t<picky_decay>& y, const parameters_t<picky_decay>& p,
             const drivers_t<picky_decay>&, state_t<picky_decay>& dydt) const {
        if (p[0] < 0) throw std::domain_error("picky_decay: negative rate");
        dydt[0] = -p[0] * y[0];
    }
};

}  // namespace

TEST_CASE("host: an exception from the system reaches the caller; the result is not half-kept") {
    const std::size_t n = 1000;
    std::vector<double> y0(n, 1.0), k(n, 0.5);
    k[617] = -1;
    solver<picky_decay, tsit5, pi_controller> s;
    batch_result<double> r;
    CHECK_THROWS_WITH_AS(s.solve({n, y0, k}, adaptive(0, 1, 1e-6), r, backends::host{}),
                         "picky_decay: negative rate", std::domain_error);
    for (std::size_t i = 0; i < n; i += 111) CHECK(r.statuses[i] == status::cancelled);
    // The same result takes the next, valid solve, as a fresh one would.
    k[617] = 0.5;
    s.solve({n, y0, k}, adaptive(0, 1, 1e-6), r, backends::host{});
    const auto fresh = s.solve({n, y0, k}, adaptive(0, 1, 1e-6), backends::host{});
    CHECK(r.failures() == 0);
    CHECK(r.final_states == fresh.final_states);
}
#endif

// ---- 5. Aliasing and lifetimes --------------------------------------------------------------

TEST_CASE("solving on from a result's own final states reads them before overwriting them") {
    auto s = adaptive(0, 0.5, 1e-8);
    solver<decay<double>, tsit5, pi_controller> solve_on;
    const std::vector<double> y0 = {1, 2, 3}, k = {0.5, 1, 2};
    batch_result<double> r = solve_on.solve({3, y0, k}, s, test_backend{});
    const std::vector<double> halfway(r.final_states.begin(), r.final_states.end());
    s.t0 = 0.5, s.t_end = 1;
    solve_on.solve({3, r.final_states, k}, s, r, test_backend{});
    const auto reference = solve_on.solve({3, halfway, k}, s, test_backend{});
    CHECK(r.failures() == 0);
    CHECK(r.final_states == reference.final_states);
    for (int i = 0; i < 3; ++i)
        CHECK(r.final_state(0, i) == doctest::Approx(y0[i] * std::exp(-k[i])).epsilon(1e-6));
    // Parameters read from the result's arrays are copied first too.
    const std::vector<double> rates(r.final_states.begin(), r.final_states.end());
    solve_on.solve({3, y0, r.final_states}, s, r, test_backend{});
    const auto by_copy = solve_on.solve({3, y0, rates}, s, test_backend{});
    CHECK(r.final_states == by_copy.final_states);
    // Inputs the result kept for its files are read too; the solve then empties them, so
    // that a file written later never shows them as its own.
    r.keep_inputs({3, y0, k}, {"k"});
    solve_on.solve({3, r.initial_states, r.parameters}, s, r, test_backend{});
    CHECK(r.final_states == solve_on.solve({3, y0, k}, s, test_backend{}).final_states);
    CHECK(r.initial_states.empty());
    CHECK(r.parameters.empty());
}

namespace {

template <class Spline>
constexpr bool views_of = requires {
    std::declval<Spline>().view();
};

}  // namespace

TEST_CASE("driver splines are owned by the inputs; a temporary's view does not compile") {
    static_assert(!views_of<cubic_spline<double>>, "a temporary spline's view would dangle");
    static_assert(views_of<const cubic_spline<double>&>);
    const std::vector<double> x0 = {0}, none = {};
    // The inputs outlive the vector of splines they were built from.
    batch_inputs<double> inputs{1, x0, none};
    {
        const std::vector<double> t = {0, 1, 2, 3}, d = {2, 2, 2, 2};
        inputs.drivers = std::vector<cubic_spline<double>>{cubic_spline<double>(t, d)};
    }
    const auto r = solver<cubie::testing::driver_integral, tsit5, pi_controller>{}.solve(
        inputs, adaptive(0, 3, 1e-8), test_backend{});
    CHECK(r.statuses[0] == status::success);
    CHECK(r.final_state(0, 0) == doctest::Approx(6).epsilon(1e-9));
}

// ---- 6. Statuses and refusals that name the real cause ----------------------------------

TEST_CASE("a relative tolerance below the precision's epsilon is refused") {
    auto s = adaptive(0, 1, 1e-6);
    s.rtol = {1e-300}, s.atol = {0};
    CHECK_INVALID((solve_decay<double, tsit5>(s)),
                  "setting rtol[0] = 1e-300 is invalid: is below the working precision's epsilon");
    s.rtol = {1e-10}, s.atol = {0};
    CHECK_INVALID((solve_decay<float, tsit5>(s)), "setting rtol[0] = 1e-10 is invalid");
    CHECK((solve_decay<double, tsit5>(s)).failures() == 0);
    // An absolute tolerance makes such a relative one harmless.
    s.atol = {1e-6};
    CHECK((solve_decay<float, tsit5>(s)).failures() == 0);
}

TEST_CASE("an unreachable absolute tolerance ends in step-size underflow, not a non-finite state") {
    auto s = adaptive(0, 1, 1e-6);
    s.rtol = {0}, s.atol = {1e-300};
    s.dt_min = 1e-12;
    const auto r = solve_decay<double, tsit5>(s, {0.5, 1.0});
    CHECK(r.statuses[0] == status::step_size_underflow);
    CHECK(r.statuses[1] == status::step_size_underflow);
}

TEST_CASE("float: a rejected step that the time cannot shorten ends in step-size underflow") {
    // Pleiades with m1 = 0.5469: a close encounter near t = 1 asks for steps of about one
    // spacing of float's times there. The rejected step of one spacing came back unchanged
    // (steps are whole spacings of the time since t0) until max_steps, 10^6 of them.
    using pleiades = catalogue::pleiades<float>;
    const std::vector<float> y0(pleiades::default_state.begin(), pleiades::default_state.end());
    const std::vector<float> m1{0.546920836f};
    solve_settings<pi_controller> s;
    s.dt = 3.0 / 1024;
    s.t_end = 3;
    s.atol = s.rtol = {1e-5};
    const auto r = solver<pleiades, tsit5, pi_controller>{}.solve({1, y0, m1}, s, test_backend{});
    CHECK(r.statuses[0] == status::step_size_underflow);
    CHECK(r.accepted_steps[0] + r.rejected_steps[0] < 1000);
}

TEST_CASE("float splines: knots that collapse or samples beyond the range are refused") {
    const std::vector<double> close = {1e6, 1e6 + 0.01, 1e6 + 0.02, 1e6 + 0.03};
    const std::vector<double> values = {0, 1, 2, 3};
    CHECK_THROWS_WITH_AS(cubic_spline<float>(close, values),
                         doctest::Contains("knots 0 and 1 are equal in the working precision"),
                         std::invalid_argument);
    CHECK_NOTHROW(cubic_spline<double>(close, values));
    const std::vector<double> t = {0, 1, 2, 3}, huge = {0, 1e39, 0, 1e39};
    CHECK_THROWS_WITH_AS(cubic_spline<float>(t, huge),
                         doctest::Contains("overflows the working precision"),
                         std::invalid_argument);
    CHECK_NOTHROW(cubic_spline<double>(t, huge));
}

TEST_CASE("float: knots the precision rounds apart give a spline whose pieces still meet") {
    // 1e6 + 0.1 k rounds to multiples of 1/16: fitted on the given knots, each piece would
    // end off its neighbour's start.
    const std::vector<double> t = {1e6, 1e6 + 0.1, 1e6 + 0.2, 1e6 + 0.3, 1e6 + 0.4};
    const std::vector<double> y = {0, 1, 0, 1, 0};
    const cubic_spline<float> spline(t, y);
    const std::vector<float>& knots = spline.knots();
    const std::vector<float>& c = spline.coefficients();  // a + b x + c x^2 + d x^3 a piece
    for (std::size_t k = 1; k < t.size(); ++k) {
        CAPTURE(k);
        const double dx = double(knots[k]) - double(knots[k - 1]);
        const std::size_t p = 4 * (k - 1);
        const double end = c[p] + dx * (c[p + 1] + dx * (c[p + 2] + dx * double(c[p + 3])));
        CHECK(std::abs(end - y[k]) <= 1e-4);
    }
}

TEST_CASE("a component that is exactly 0 under atol = 0 carries no error") {
    auto s = adaptive(0, 1, 1e-6);
    s.atol = {0};
    const std::vector<double> y0 = {0, 1}, k = {0.5, 0.5};
    const auto r =
        solver<decay<double>, tsit5, pi_controller>{}.solve({2, y0, k}, s, test_backend{});
    CHECK(r.statuses[0] == status::success);
    CHECK(r.final_state(0, 0) == 0);
    CHECK(r.statuses[1] == status::success);
    CHECK(r.final_state(0, 1) == doctest::Approx(std::exp(-0.5)).epsilon(1e-5));
}

TEST_CASE("more refusals at the edges: step limits, spans, output points, whole numbers") {
    auto s = adaptive(0, 1, 1e-6);
    s.dt_max = 1e-46;
    CHECK_INVALID((solve_decay<float, tsit5>(s)), "setting dt_max = 1e-46 is invalid");
    // Float cannot tell 1e7 and 1e7 + 1 apart by more than one spacing.
    CHECK_INVALID((solve_decay<float, tsit5>(adaptive(1e7, 1e7 + 1, 1e-5))),
                  "setting t_end - t0 = 1 is invalid: is below 8 times the spacing");
    // Four billion interpolated samples would run for minutes a trajectory.
    s = adaptive(0, 4, 1e-6);
    s.summarise_every = 1, s.sample_summaries_every = 1e-9;
    CHECK_INVALID(summarise_decay(s),
                  "output points per trajectory, more than max_steps = 1000000");
    s.max_steps = 5'000'000'000;
    CHECK_INVALID(summarise_decay(s), "setting max_steps = 5e+09 is invalid");
    s = adaptive(0, 1, 1e-6);
    s.summarise_every = 1, s.sample_summaries_every = 1e-320;
    CHECK_INVALID(summarise_decay(s),
                  "setting sample_summaries_every = 1e-320 is invalid: is below 8 times");
    // 1e9 + 0.4 steps of 1 are 1e9 + 1 steps, the last one of 0.4, not 1e9 of them.
    auto f = fixed(0, 1e9 + 0.4, 1);
    f.max_steps = 1'000'000'000;
    CHECK_INVALID((solve_decay<double, classical_rk4>(f)), "is below the 1000000001 fixed steps");
}

TEST_CASE("t_end is saved where it falls between grid points, however far from 0") {
    auto s = adaptive(1e9, 1e9 + 1.5, 1e-8);
    s.save_every = 1, s.save_final = true;
    const auto r = solve_decay<double, tsit5, pi_controller, save_state>(s);
    REQUIRE(r.n_saves() == 2);
    CHECK(r.save_times[0] == 1e9 + 1);
    CHECK(r.save_times[1] == 1e9 + 1.5);
    CHECK(r.saved_value(1, 0, 0) == doctest::Approx(std::exp(-0.75)).epsilon(1e-6));
}

TEST_CASE("settings edited by hand, or re-spanned with over(), integrate their own span") {
    auto user = adaptive(0, 4, 1e-8);
    const auto settings = make_integration_settings<tsit5, pi_controller, decay<double>>(user);
    const decay<double> system{};
    const parameters_t<decay<double>> k{0.5};
    state_t<decay<double>> by_hand{1}, by_over{1};
    for (int piece = 0; piece < 4; ++piece) {
        auto edited = settings;
        edited.t0 = piece, edited.t_end = piece + 1;
        step_counters a{}, b{};
        CHECK(integrate<tsit5, pi_controller>(system, edited, by_hand, k, a) == status::success);
        CHECK(integrate<tsit5, pi_controller>(system, settings.over(piece, piece + 1), by_over, k,
                                              b) == status::success);
    }
    CHECK(by_hand[0] == doctest::Approx(std::exp(-2.0)).epsilon(1e-7));
    CHECK(by_over[0] == doctest::Approx(std::exp(-2.0)).epsilon(1e-7));
}

#if defined(__CUDACC__)
TEST_CASE("cuda: inputs in the device_result solved into are refused") {
    solver<decay<double>, tsit5, pi_controller> solve_on;
    const std::vector<double> y0 = {1, 2}, k = {0.5, 1};
    auto on_device = solve_on.solve_on_device({2, y0, k}, adaptive(0, 1, 1e-8));
    const std::span<const double> finals(on_device.final_states.data(), 2);
    const auto rates = device_buffer<double>::copy_of(k);
    CHECK_INVALID(solve_on.solve_on_device({2, finals, std::span<const double>(rates.data(), 2)},
                                           adaptive(1, 2, 1e-8), on_device),
                  "inputs lie in the device_result solved into");
}
#endif
