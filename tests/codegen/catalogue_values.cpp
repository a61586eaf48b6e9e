// Generated right-hand sides against the equations written out by hand: bit for bit for
// Lorenz, and at the Bari test set's points, worked by hand, for the stiff problems whose
// reference solutions need stiff methods.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <utility>

#include "cubie/catalogue/bouncing_ball.hpp"
#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/catalogue/forced_duffing.hpp"
#include "cubie/catalogue/harmonic_oscillator.hpp"
#include "cubie/catalogue/hodgkin_huxley.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/catalogue/lorenz96.hpp"
#include "cubie/catalogue/pleiades.hpp"
#include "cubie/catalogue/pollution.hpp"
#include "cubie/catalogue/ring_modulator.hpp"
#include "cubie/catalogue/robertson.hpp"
#include "cubie/catalogue/van_der_pol.hpp"

using namespace cubie;
namespace cat = cubie::catalogue;

template <template <class> class S>
constexpr bool is_system = ode_system<S<float>>&& ode_system<S<double>>&& has_jvp<S<double>>&&
    has_time_derivative<S<float>>;
static_assert(is_system<cat::lorenz> && is_system<cat::lorenz96> && is_system<cat::pleiades> &&
              is_system<cat::pollution> && is_system<cat::ring_modulator> &&
              is_system<cat::robertson> && is_system<cat::van_der_pol> &&
              is_system<cat::hodgkin_huxley> && is_system<cat::forced_duffing>);
static_assert(has_jacobian<cat::lorenz96<double>> && has_jacobian<cat::pleiades<float>>);
static_assert(has_observables<cat::pollution<double>> &&
              has_observables<cat::forced_duffing<float>>);
static_assert(cat::lorenz96<float>::n_states == 32 && cat::pleiades<float>::n_states == 28 &&
              cat::pollution<float>::n_states == 20 && cat::ring_modulator<float>::n_states == 15 &&
              cat::hodgkin_huxley<float>::n_drivers == 1 &&
              cat::forced_duffing<float>::n_observables == 3);

template <class T>
void check_lorenz_bitwise() {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-30, 30), rho(0, 50);
    const T sigma = T(10), beta = T(8.0 / 3.0);
    for (int k = 0; k < 100; ++k) {
        const state_t<cat::lorenz<T>> y{T(u(rng)), T(u(rng)), T(u(rng))};
        const parameters_t<cat::lorenz<T>> p{T(rho(rng))};
        state_t<cat::lorenz<T>> generated;
        cat::lorenz<T>{}.rhs(T(0), y, p, {}, generated);
        CHECK(generated[0] == sigma * (y[1] - y[0]));
        CHECK(generated[1] == y[0] * (p[0] - y[2]) - y[1]);
        CHECK(generated[2] == y[0] * y[1] - beta * y[2]);
    }
}

TEST_CASE("generated Lorenz rhs equals the equations as written, rounding for rounding") {
    check_lorenz_bitwise<double>();
    check_lorenz_bitwise<float>();
}

TEST_CASE("Lorenz 96 rhs: (x[i+1] - x[i-2]) x[i-1] - x[i] + F on the ring") {
    using S = cat::lorenz96<double>;
    state_t<S> x, f;
    for (int i = 0; i < 32; ++i) x[i] = std::sin(1.0 + i);
    S{}.rhs(0, x, {8.5}, {}, f);
    for (int i = 0; i < 32; ++i) {
        const double expected =
            (x[(i + 1) % 32] - x[(i + 30) % 32]) * x[(i + 31) % 32] - x[i] + 8.5;
        CHECK(f[i] == doctest::Approx(expected).epsilon(1e-14));
    }
}

TEST_CASE("Pleiades rhs at the Bari initial point, and with the first star's mass m1 changed") {
    using S = cat::pleiades<double>;
    CHECK(S::default_parameters[0] == 1.0);
    const double xs[7] = {3, 3, -1, -3, 2, -2, 2}, ys[7] = {3, -3, 2, 0, 0, -4, 4};
    // Acceleration of body i at (x_i, y_i), pulled by body j of mass j + 1 (m1 for j = 0).
    const auto acceleration = [&](int i, double m1) {
        double ax = 0, ay = 0;
        for (int j = 0; j < 7; ++j) {
            if (j == i) continue;
            const double dx = xs[j] - xs[i], dy = ys[j] - ys[i], r = std::hypot(dx, dy);
            const double m = j == 0 ? m1 : j + 1;
            ax += m * dx / (r * r * r);
            ay += m * dy / (r * r * r);
        }
        return std::pair{ax, ay};
    };
    for (const double m1 : {1.0, 0.5, 2.0}) {
        CAPTURE(m1);
        state_t<S> f;
        S{}.rhs(0, S::default_state, {m1}, {}, f);
        for (int i = 0; i < 14; ++i) CHECK(f[i] == S::default_state[i + 14]);  // x' = u, y' = v
        for (int i = 0; i < 7; ++i) {
            const auto [ax, ay] = acceleration(i, m1);
            CHECK(f[14 + i] == doctest::Approx(ax).epsilon(1e-14));
            CHECK(f[21 + i] == doctest::Approx(ay).epsilon(1e-14));
        }
    }
}

TEST_CASE("Robertson rhs at the Bari initial point (1, 0, 0)") {
    state_t<cat::robertson<double>> f;
    cat::robertson<double>{}.rhs(0, {1, 0, 0}, {}, {}, f);
    CHECK(f[0] == doctest::Approx(-0.04));
    CHECK(f[1] == doctest::Approx(0.04));
    CHECK(f[2] == 0.0);
}

TEST_CASE("pollution rhs and reaction rates at the Bari initial point") {
    using S = cat::pollution<double>;
    // Only NO, O3, HCHO, CO, ALD and SO2 are present: reactions 2, 4, 5, 7, 16 and 17 run.
    const double r2 = 26.6 * 0.2 * 0.04, r4 = 0.86e-3 * 0.1, r5 = 0.82e-3 * 0.1,
                 r7 = 0.13e-3 * 0.01, r16 = 0.35e-3 * 0.04, r17 = 0.175e-1 * 0.04;
    const double expected[20] = {r2,          -r2, r17,      -r2 - r16 - r17,
                                 2 * r4 + r7, 0,   -r4 - r5, r4 + r5 + r7,
                                 -r7,         r7,  0,        0,
                                 0,           0,   0,        r16,
                                 0,           0,   0,        0};
    state_t<S> f;
    S{}.rhs(0, S::default_state, S::default_parameters, {}, f);
    for (int i = 0; i < 20; ++i) {
        CAPTURE(S::state_names[i]);
        CHECK(f[i] == doctest::Approx(expected[i]).epsilon(1e-14));
    }
    observables_t<S> rates;
    S{}.observables(0, S::default_state, S::default_parameters, {}, rates);
    CHECK(rates[1] == doctest::Approx(r2).epsilon(1e-14));
    CHECK(rates[16] == doctest::Approx(r17).epsilon(1e-14));
    CHECK(rates[0] == 0.0);
}

TEST_CASE("ring modulator rhs at zero state when the carrier peaks") {
    using S = cat::ring_modulator<double>;
    // t = 2.5e-5: Uin2 = 2 sin(pi/2) = 2, Uin1 = 0.5 sin(pi/20). With zero states the
    // diode voltages are -2, -2, 2, 2.
    const double t = 2.5e-5, gamma = 40.67286402e-9, delta = 17.7493332;
    const double q_low = gamma * (std::exp(-2 * delta) - 1),
                 q_high = gamma * (std::exp(2 * delta) - 1);
    const double cs = 2e-12, cp = 1e-8, ls1 = 2e-3;
    double expected[15] = {};
    expected[2] = (q_high - q_low) / cs;
    expected[3] = (q_low - q_high) / cs;
    expected[4] = (q_low - q_high) / cs;
    expected[5] = (q_high - q_low) / cs;
    expected[6] = 2 * (q_low - q_high) / cp;
    expected[13] = 0.5 * std::sin(std::numbers::pi / 20) / ls1;
    state_t<S> f;
    S{}.rhs(t, S::default_state, S::default_parameters, {}, f);
    for (int i = 0; i < 15; ++i) {
        CAPTURE(i);
        CHECK(f[i] == doctest::Approx(expected[i]).epsilon(1e-12));
    }
}

TEST_CASE("Hodgkin-Huxley rhs with the driver current") {
    using S = cat::hodgkin_huxley<double>;
    const double V = -58.3, m = 0.12, h = 0.45, n = 0.36, I = 12.5;
    const double g_Na = 110, g_K = 38, g_L = 0.31;
    state_t<S> f;
    S{}.rhs(3.0, {V, m, h, n}, {g_Na, g_K, g_L}, {I}, f);
    const double a_m = 0.1 * (V + 40) / (1 - std::exp(-(V + 40) / 10)),
                 b_m = 4 * std::exp(-(V + 65) / 18), a_h = 0.07 * std::exp(-(V + 65) / 20),
                 b_h = 1 / (1 + std::exp(-(V + 35) / 10)),
                 a_n = 0.01 * (V + 55) / (1 - std::exp(-(V + 55) / 10)),
                 b_n = 0.125 * std::exp(-(V + 65) / 80);
    const double dV =
        I - g_Na * m * m * m * h * (V - 50) - g_K * n * n * n * n * (V + 77) - g_L * (V + 54.387);
    CHECK(f[0] == doctest::Approx(dV).epsilon(1e-13));
    CHECK(f[1] == doctest::Approx(a_m * (1 - m) - b_m * m).epsilon(1e-13));
    CHECK(f[2] == doctest::Approx(a_h * (1 - h) - b_h * h).epsilon(1e-13));
    CHECK(f[3] == doctest::Approx(a_n * (1 - n) - b_n * n).epsilon(1e-13));
}

TEST_CASE("generated van der Pol matches its model") {
    state_t<cat::van_der_pol<double>> f;
    cat::van_der_pol<double>{}.rhs(0, {2, 3}, {0.5}, {}, f);
    CHECK(f[0] == 3.0);
    CHECK(f[1] == -6.5);  // 0.5 (1 - 4) 3 - 2
}

TEST_CASE("names and defaults come from the definitions") {
    CHECK(std::string(cat::lorenz<float>::state_names[2]) == "z");
    CHECK(std::string(cat::lorenz<float>::parameter_names[0]) == "rho");
    CHECK(cat::lorenz<double>::default_parameters[0] == 28.0);
    CHECK(std::string(cat::lorenz96<float>::state_names[31]) == "x[31]");
    CHECK(std::string(cat::pollution<float>::state_names[19]) == "N2O5");
    CHECK(std::string(cat::forced_duffing<float>::observable_names[1]) == "energy");
    CHECK(std::string(cat::hodgkin_huxley<float>::driver_names[0]) == "I_ext");
    CHECK(cat::ring_modulator<double>::gamma == 40.67286402e-9);
    CHECK(cat::pollution<double>::default_parameters[0] == 0.35);
    CHECK(cat::ring_modulator<double>::default_parameters[0] == 2e-12);
}

/// rhs_at(i) against rhs's dydt[i] at states scattered around the system's defaults.
template <class S>
void check_components_one_by_one() {
    using T = typename S::value_type;
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int k = 0; k < 50; ++k) {
        state_t<S> y;
        for (int i = 0; i < S::n_states; ++i)
            y[i] = T(double(S::default_state[i]) * (1 + 0.1 * u(rng)) + 0.1 * u(rng));
        drivers_t<S> d{};
        for (T& value : d) value = T(u(rng));
        const parameters_t<S>& p = S::default_parameters;
        state_t<S> whole;
        S{}.rhs(T(0.3), y, p, d, whole);
        for (int i = 0; i < S::n_states; ++i) {
            CAPTURE(i);
            CHECK(S{}.rhs_at(i, T(0.3), y, p, d) == whole[i]);
        }
    }
}

template <template <class> class S>
void check_components_in_both_precisions() {
    check_components_one_by_one<S<float>>();
    check_components_one_by_one<S<double>>();
}

TEST_CASE("rhs_at gives rhs's components one by one, bit for bit") {
    check_components_in_both_precisions<cat::bouncing_ball>();
    check_components_in_both_precisions<cat::exponential_decay>();
    check_components_in_both_precisions<cat::forced_duffing>();
    check_components_in_both_precisions<cat::harmonic_oscillator>();
    check_components_in_both_precisions<cat::hodgkin_huxley>();
    check_components_in_both_precisions<cat::lorenz>();
    check_components_in_both_precisions<cat::lorenz96>();  // one shifted run around the ring
    check_components_in_both_precisions<cat::pleiades>();  // two runs, and cases
    check_components_in_both_precisions<cat::pollution>();
    check_components_in_both_precisions<cat::ring_modulator>();
    check_components_in_both_precisions<cat::robertson>();
    check_components_in_both_precisions<cat::van_der_pol>();
}
