// right_hand_side's jacobian, time_derivative, jvp and jacobian_diagonal: forward
// differences against analytic derivatives (generated systems' own, hand-derived ones), the
// analytic path taken wherever a system has one, and drivers passed at t as operator()
// passes them. Under nvcc the Jacobians and Jacobian-vector products of the driverless
// systems are formed in a kernel.

#include <doctest/doctest.h>

// The jvp checks' references are catalogue systems in long double, host code only. nvcc
// also compiles their __host__ __device__ members for the device, where long double is
// double, and says so (diagnostic 20208): no kernel here uses them.
#if defined(__CUDACC__)
#pragma nv_diag_suppress 20208
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>
#include <vector>

#include "cubie/catalogue/forced_duffing.hpp"
#include "cubie/catalogue/pollution.hpp"
#include "cubie/catalogue/robertson.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/drivers/cubic_spline_fit.hpp"
#include "cubie/systems/right_hand_side.hpp"
#if defined(__CUDACC__)
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#endif

using namespace cubie;

namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

/// S with its rhs alone, so that right_hand_side takes differences.
template <class S>
struct rhs_only {
    using value_type = typename S::value_type;
    static constexpr int n_states = S::n_states;
    static constexpr int n_parameters = S::n_parameters;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = S::n_drivers;

    S system;

    CUBIE_HD void rhs(value_type t, const state_t<S>& y, const parameters_t<S>& p,
                      const drivers_t<S>& d, state_t<S>& dydt) const {
        system.rhs(t, y, p, d, dydt);
    }
};

static_assert(right_hand_side<catalogue::robertson<double>>::analytic_jacobian);
static_assert(!right_hand_side<rhs_only<catalogue::robertson<double>>>::analytic_jacobian);
static_assert(!right_hand_side<rhs_only<catalogue::van_der_pol<double>>>::analytic_jacobian);

/// right_hand_side<System>::jacobian at (0, y), from f(0, y) as operator() gives it.
template <class System>
CUBIE_HD void jacobian_at(const System& system, const parameters_t<System>& p,
                          const state_t<System>& y, jacobian_t<System>& J) {
    const driver_splines_t<System> no_drivers{};
    const right_hand_side<System> f{system, p, no_drivers};
    state_t<System> dydt;
    f(0, y, dydt);
    f.jacobian(0, y, dydt, J);
}

#if defined(__CUDACC__)
template <class System>
__global__ void jacobian_kernel(System system, parameters_t<System> p, const state_t<System>* y,
                                int count, jacobian_t<System>* J) {
    const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (k < count) jacobian_at(system, p, y[k], J[k]);
}
#endif

/// The Jacobians of a driverless system at each state, on the backend this file is compiled
/// for.
template <class System>
std::vector<jacobian_t<System>> jacobians(const System& system, const parameters_t<System>& p,
                                          const std::vector<state_t<System>>& states) {
    static_assert(System::n_drivers == 0);
    std::vector<jacobian_t<System>> J(states.size());
#if defined(__CUDACC__)
    const auto device_states = device_buffer<state_t<System>>::copy_of(states);
    device_buffer<jacobian_t<System>> device_J(states.size());
    jacobian_kernel<<<1, static_cast<unsigned>(states.size())>>>(
        system, p, device_states.data(), static_cast<int>(states.size()), device_J.data());
    CUBIE_CUDA_CHECK(cudaGetLastError());
    device_J.copy_to(J);
#else
    for (std::size_t k = 0; k < states.size(); ++k) jacobian_at(system, p, states[k], J[k]);
#endif
    return J;
}

/// The increment right_hand_side documents: sqrt(eps) * max(|x|, 1), as x + h rounds it.
double increment(double x) {
    return (x + std::sqrt(eps) * std::max(std::fabs(x), 1.0)) - x;
}

/// A forward difference (f(x + h) - f(x)) / h misses d f / d x by
///   at most  h / 2 * M  +  64 eps T / h:
/// Taylor's remainder, with M a bound on |d^2 f / d x^2| between x and x + h, plus the
/// rounding errors of the two evaluations of f it subtracts, each at most 32 eps T when T
/// bounds the sum of the magnitudes of the terms of f (no term passes more than about 15
/// roundings: two or three in a product, the rest in sums of up to a dozen terms).
double difference_error_bound(double h, double M, double T) {
    return h / 2 * M + 64 * eps * T / h;
}

/// The forward-difference Jacobian against the exact one, entry by entry. M(i, j) bounds
/// |d^2 f_i / d y_j^2| along column j's step; terms(y) bounds the sum of the magnitudes of
/// the terms of any f_i at y.
template <int N, class SecondDerivative, class Terms>
void check_difference_jacobian(const vector<double, N>& y,
                               const vector<vector<double, N>, N>& difference,
                               const vector<vector<double, N>, N>& exact, SecondDerivative M,
                               Terms terms) {
    for (int j = 0; j < N; ++j) {
        const double h = increment(y[j]);
        vector<double, N> stepped = y;
        stepped[j] += h;
        const double T = std::max(terms(y), terms(stepped));
        for (int i = 0; i < N; ++i) {
            INFO("J[" << i << "][" << j << "] = " << exact[i][j] << ", h = " << h);
            CHECK(std::fabs(difference[i][j] - exact[i][j]) <=
                  difference_error_bound(h, M(i, j, y), T));
        }
    }
}

/// The largest |s''| of a spline, from its coefficients: s'' is linear on each interval.
double largest_second_derivative(const cubic_spline<double>& s) {
    double M = 0;
    for (std::size_t k = 0; k + 1 < s.knots().size(); ++k) {
        const double dx = s.knots()[k + 1] - s.knots()[k];
        const double* c = s.coefficients().data() + 4 * k;
        M = std::max({M, std::fabs(2 * c[2]), std::fabs(2 * c[2] + 6 * c[3] * dx)});
    }
    return M;
}

/// cos(2 pi t) sampled every 0.05 over one period, wrapping around.
cubic_spline<double> periodic_force() {
    std::vector<double> t, f;
    for (int k = 0; k <= 20; ++k) {
        t.push_back(0.05 * k);
        f.push_back(std::cos(2 * std::numbers::pi * t.back()));
    }
    f.back() = f.front();
    return cubic_spline<double>(t, f, {spline_boundary::periodic, 0, 0, true});
}

}  // namespace

TEST_CASE("forward-difference Jacobian of robertson matches its analytic one") {
    using S = catalogue::robertson<double>;
    // Near the solution at t = 0, 0.4, 40 and 4e5.
    const std::vector<state_t<S>> states{{1, 0, 0},
                                         {0.9851721, 3.386395e-5, 0.01479400},
                                         {0.7158271, 9.185535e-6, 0.2841637},
                                         {4.9394e-3, 1.9854e-8, 0.9950606}};
    const auto exact = jacobians(S{}, {}, states);
    const auto difference = jacobians(rhs_only<S>{}, {}, states);
    // Only the k2 y2^2 terms are curved in a single state: d^2 f / d y2^2 = -+2 k2.
    const auto M = [](int i, int j, const state_t<S>&) { return i > 0 && j == 1 ? 2 * S::k2 : 0; };
    const auto terms = [](const state_t<S>& y) {
        return S::k1 * std::fabs(y[0]) + S::k3 * std::fabs(y[1] * y[2]) + S::k2 * y[1] * y[1];
    };
    for (std::size_t k = 0; k < states.size(); ++k) {
        INFO("state " << k);
        check_difference_jacobian<3>(states[k], difference[k], exact[k], M, terms);
    }
}

TEST_CASE("forward-difference Jacobian of pollution matches its analytic one") {
    using S = catalogue::pollution<double>;
    // The initial state, a state near the Bari reference at t = 60 and the midpoint.
    const state_t<S> start = S::default_state;
    const state_t<S> late{5.646255e-2,  0.1342484,   4.139734e-9, 5.523140e-3,  2.018977e-7,
                          1.464542e-7,  7.784249e-2, 0.3245075,   7.494013e-3,  1.622293e-8,
                          1.135864e-8,  2.230506e-3, 2.087163e-4, 1.396921e-11, 8.964885e-3,
                          4.352846e-18, 6.899220e-3, 1.007803e-4, 1.772147e-6,  5.682943e-5};
    state_t<S> middle;
    for (int i = 0; i < S::n_states; ++i) middle[i] = (start[i] + late[i]) / 2;
    const std::vector<state_t<S>> states{start, middle, late};
    const auto exact = jacobians(S{}, S::default_parameters, states);
    const auto difference = jacobians(rhs_only<S>{}, S::default_parameters, states);
    // Every reaction rate is linear in each state (products of two different species), so
    // forward differences are exact but for rounding. Each f_i sums rates r_k (the
    // observables) with coefficients 1 or 2.
    const auto M = [](int, int, const state_t<S>&) { return 0.0; };
    const auto terms = [](const state_t<S>& y) {
        observables_t<S> r;
        S{}.observables(0, y, S::default_parameters, {}, r);
        double sum = 0;
        for (const double rate : r) sum += std::fabs(rate);
        return 2 * sum;
    };
    for (std::size_t k = 0; k < states.size(); ++k) {
        INFO("state " << k);
        check_difference_jacobian<20>(states[k], difference[k], exact[k], M, terms);
    }
}

TEST_CASE("forward-difference Jacobian of van der Pol matches the hand-derived one") {
    using S = rhs_only<catalogue::van_der_pol<double>>;
    for (const double mu : {0.5, 5.0, 1000.0}) {
        const std::vector<state_t<S>> states{{2, 0}, {1.2, -0.8}, {-0.5, 3}, {0, 0}};
        const auto difference = jacobians(S{}, {mu}, states);
        // f = (v, mu (1 - x^2) v - x)
        const auto M = [mu](int i, int j, const state_t<S>& y) {
            return i == 1 && j == 0 ? 2 * mu * std::fabs(y[1]) : 0.0;
        };
        const auto terms = [mu](const state_t<S>& y) {
            return std::fabs(y[1]) + mu * std::fabs(y[1]) * (1 + y[0] * y[0]) + std::fabs(y[0]);
        };
        for (std::size_t k = 0; k < states.size(); ++k) {
            const double x = states[k][0], v = states[k][1];
            const vector<vector<double, 2>, 2> exact{
                {{0, 1}, {-2 * mu * x * v - 1, mu * (1 - x * x)}}};
            INFO("mu = " << mu << ", state " << k);
            check_difference_jacobian<2>(states[k], difference[k], exact, M, terms);
        }
    }
}

namespace {

/// f = cos(t) y: d f / d t = -sin(t) y, taken by differences (no time_derivative).
struct cosine_growth {
    using value_type = double;
    static constexpr int n_states = 2;
    static constexpr int n_parameters = 0;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;

    CUBIE_HD void rhs(double t, const state_t<cosine_growth>& y, const parameters_t<cosine_growth>&,
                      const drivers_t<cosine_growth>&, state_t<cosine_growth>& dydt) const {
        dydt[0] = cuda::std::cos(t) * y[0];
        dydt[1] = cuda::std::cos(t) * y[1];
    }
};

}  // namespace

TEST_CASE("forward-difference time derivative of f = cos(t) y") {
    using S = cosine_growth;
    const S system{};
    const parameters_t<S> p{};
    const driver_splines_t<S> no_drivers{};
    const right_hand_side<S> f{system, p, no_drivers};
    const state_t<S> y{3, -0.25};
    for (const double t : {0.0, 0.7, 3.0, -20.0, 1e3}) {
        state_t<S> dydt, dfdt;
        f(t, y, dydt);
        f.time_derivative(t, y, dydt, dfdt);
        const double h = increment(t);
        for (int i = 0; i < S::n_states; ++i) {
            INFO("t = " << t << ", component " << i);
            // |d^2 f_i / d t^2| = |cos(t) y_i| <= |y_i|; T = |y_i| (cos within 2 ulp).
            CHECK(std::fabs(dfdt[i] + std::sin(t) * y[i]) <=
                  difference_error_bound(h, std::fabs(y[i]), std::fabs(y[i])));
        }
    }
}

TEST_CASE("difference increments are the steps the arguments really took") {
    // At t = 0, f = cos(t) y is y itself and f(y + h e_j) - f(y) is exactly the increment
    // (y_j + h) - y_j, so J is the identity to within the rounding of 1 / h. Dividing by the
    // nominal h instead would be off by up to sqrt(eps) / 2 at these states.
    using S = cosine_growth;
    const S system{};
    const parameters_t<S> p{};
    const driver_splines_t<S> no_drivers{};
    const right_hand_side<S> f{system, p, no_drivers};
    for (const state_t<S> y : {state_t<S>{1.7, -1234.5678}, state_t<S>{0.3, 7.1e5}}) {
        state_t<S> dydt;
        jacobian_t<S> J;
        f(0, y, dydt);
        f.jacobian(0, y, dydt, J);
        for (int i = 0; i < S::n_states; ++i) {
            for (int j = 0; j < S::n_states; ++j) {
                INFO("y = (" << y[0] << ", " << y[1] << "), J[" << i << "][" << j << "]");
                CHECK(std::fabs(J[i][j] - (i == j ? 1 : 0)) <= eps);
            }
        }
    }
}

TEST_CASE("time derivative of forced_duffing: analytic with the driver's share, by differences") {
    using S = catalogue::forced_duffing<double>;
    const cubic_spline<double> force = periodic_force();
    const driver_splines_t<S> drivers{force.view()};
    const parameters_t<S> p = S::default_parameters;
    const S system{};
    const right_hand_side<S> analytic{system, p, drivers};
    const rhs_only<S> bare{};
    const right_hand_side<rhs_only<S>> differenced{bare, p, drivers};
    const double largest_s2 = largest_second_derivative(force);
    const state_t<S> y{0.7, -0.4};
    for (const double t : {0.1, 0.35, 2.6, 13.85}) {
        state_t<S> dydt, exact, difference;
        analytic(t, y, dydt);
        analytic.time_derivative(t, y, dydt, exact);
        differenced.time_derivative(t, y, dydt, difference);
        drivers_t<S> rate;
        driver_rates(drivers, t, rate);
        INFO("t = " << t);
        CHECK(exact[0] == 0);
        CHECK(exact[1] == rate[0]);  // d f_1 / d force = 1
        REQUIRE(std::fabs(exact[1]) > 1);
        // f_1 = force - delta v - alpha x - beta x^3 depends on t through the force alone.
        const double h = increment(t);
        const double T =
            std::fabs(p[0] * y[1]) + std::fabs(p[1] * y[0]) + std::fabs(p[2] * y[0] * y[0] * y[0]) +
            std::max(std::fabs(force.view().value(t)), std::fabs(force.view().value(t + h)));
        CHECK(difference[0] == 0);
        CHECK(std::fabs(difference[1] - exact[1]) <= difference_error_bound(h, largest_s2, T));
    }
}

namespace {

/// f = d(t) y with one driver d, counting its rhs evaluations; jacobian (d I),
/// time_derivative (0 at fixed d) and driver_jacobian (y) only where asked for.
template <bool Jacobian, bool TimeDerivative, bool DriverJacobian>
struct driven_probe {
    using value_type = double;
    static constexpr int n_states = 2;
    static constexpr int n_parameters = 0;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 1;
    using state = state_t<driven_probe>;
    using parameters = parameters_t<driven_probe>;
    using drivers = drivers_t<driven_probe>;

    int* rhs_calls;

    CUBIE_HD void rhs(double, const state& y, const parameters&, const drivers& d,
                      state& dydt) const {
        ++*rhs_calls;
        dydt[0] = d[0] * y[0];
        dydt[1] = d[0] * y[1];
    }
    CUBIE_HD void jacobian(double, const state&, const parameters&, const drivers& d,
                           jacobian_t<driven_probe>& J) const requires Jacobian {
        J = {};
        J[0][0] = d[0];
        J[1][1] = d[0];
    }
    CUBIE_HD void time_derivative(double, const state&, const parameters&, const drivers&,
                                  state& dfdt) const requires TimeDerivative {
        dfdt = {};
    }
    CUBIE_HD void driver_jacobian(double, const state& y, const parameters&, const drivers&,
                                  vector<vector<double, 1>, 2>& Jd) const requires DriverJacobian {
        Jd[0][0] = y[0];
        Jd[1][0] = y[1];
    }
};

struct probe_results {
    int jacobian_calls, time_derivative_calls;
    vector<vector<double, 2>, 2> J;
    vector<double, 2> dfdt;
};

/// The probe's Jacobian and time derivative at (t, y), and the rhs evaluations each took.
template <class Probe>
probe_results probe_at(const driver_splines_t<Probe>& drivers, double t,
                       const vector<double, 2>& y) {
    int calls = 0;
    const Probe system{&calls};
    const parameters_t<Probe> p{};
    const right_hand_side<Probe> f{system, p, drivers};
    vector<double, 2> dydt;
    f(t, y, dydt);
    probe_results r{};
    calls = 0;
    f.jacobian(t, y, dydt, r.J);
    r.jacobian_calls = calls;
    calls = 0;
    f.time_derivative(t, y, dydt, r.dfdt);
    r.time_derivative_calls = calls;
    return r;
}

}  // namespace

TEST_CASE("analytic derivatives are used where a system has them, with drivers at t") {
    using analytic = driven_probe<true, true, true>;
    using differenced = driven_probe<false, false, false>;
    using no_driver_share = driven_probe<false, true, false>;  // time_derivative alone
    static_assert(right_hand_side<analytic>::analytic_jacobian);
    static_assert(!right_hand_side<differenced>::analytic_jacobian);

    const cubic_spline<double> force = periodic_force();
    const driver_splines_t<analytic> drivers{force.view()};
    const double largest_s2 = largest_second_derivative(force);
    const vector<double, 2> y{1.5, -0.5};
    for (const double t : {0.1, 0.35, 0.8}) {
        vector<double, 1> d, rate;
        driver_values(drivers, t, d);
        driver_rates(drivers, t, rate);
        INFO("t = " << t);

        const probe_results a = probe_at<analytic>(drivers, t, y);
        CHECK(a.jacobian_calls == 0);
        CHECK(a.time_derivative_calls == 0);
        CHECK(a.J == vector<vector<double, 2>, 2>{{{d[0], 0}, {0, d[0]}}});
        CHECK(a.dfdt == vector<double, 2>{y[0] * rate[0], y[1] * rate[0]});

        const probe_results b = probe_at<differenced>(drivers, t, y);
        const probe_results c = probe_at<no_driver_share>(drivers, t, y);
        CHECK(b.jacobian_calls == 2);  // one per column
        CHECK(b.time_derivative_calls == 1);
        CHECK(c.time_derivative_calls == 1);
        const double h = increment(t);
        for (int i = 0; i < 2; ++i) {
            INFO("component " << i);
            // f_i = d y_i is linear in y_i; in t it bends with d'' only.
            const double T = std::fabs(y[i]) * std::max(std::fabs(d[0]), 1.0);
            for (int j = 0; j < 2; ++j)
                CHECK(std::fabs(b.J[i][j] - a.J[i][j]) <=
                      difference_error_bound(increment(y[j]), 0, T));
            const double bound = difference_error_bound(h, std::fabs(y[i]) * largest_s2, T);
            CHECK(std::fabs(b.dfdt[i] - a.dfdt[i]) <= bound);
            CHECK(std::fabs(c.dfdt[i] - a.dfdt[i]) <= bound);
        }
    }
}

// right_hand_side's jvp and jacobian_diagonal, the products matrix-free Newton-Krylov
// methods ask for: the system's jvp where it has one, else a directional difference (its
// increment rule in systems/right_hand_side.hpp), checked against J v from the analytic
// Jacobian in long double.

namespace {

constexpr long double long_eps = std::numeric_limits<long double>::epsilon();

template <class System>
CUBIE_HD void jvp_at(const System& system, const parameters_t<System>& p, const state_t<System>& y,
                     const state_t<System>& v, state_t<System>& Jv) {
    const driver_splines_t<System> no_drivers{};
    const right_hand_side<System> f{system, p, no_drivers};
    state_t<System> dydt;
    f(0, y, dydt);
    f.jvp(0, y, dydt, v, Jv);
}

#if defined(__CUDACC__)
template <class System>
__global__ void jvp_kernel(System system, parameters_t<System> p, const state_t<System>* y,
                           const state_t<System>* v, int count, state_t<System>* Jv) {
    const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (k < count) jvp_at(system, p, y[k], v[k], Jv[k]);
}
#endif

/// right_hand_side::jvp of a driverless system at states[k] along directions[k], on the
/// backend this file is compiled for.
template <class System>
std::vector<state_t<System>> jvps(const System& system, const parameters_t<System>& p,
                                  const std::vector<state_t<System>>& states,
                                  const std::vector<state_t<System>>& directions) {
    static_assert(System::n_drivers == 0);
    REQUIRE(states.size() == directions.size());
    std::vector<state_t<System>> Jv(states.size());
#if defined(__CUDACC__)
    const auto device_states = device_buffer<state_t<System>>::copy_of(states);
    const auto device_directions = device_buffer<state_t<System>>::copy_of(directions);
    device_buffer<state_t<System>> device_Jv(states.size());
    jvp_kernel<<<1, static_cast<unsigned>(states.size())>>>(
        system, p, device_states.data(), device_directions.data(), static_cast<int>(states.size()),
        device_Jv.data());
    CUBIE_CUDA_CHECK(cudaGetLastError());
    device_Jv.copy_to(Jv);
#else
    for (std::size_t k = 0; k < states.size(); ++k)
        jvp_at(system, p, states[k], directions[k], Jv[k]);
#endif
    return Jv;
}

template <int N>
using long_vector = vector<long double, N>;
template <int N>
using long_matrix = vector<long_vector<N>, N>;

template <int N>
long_vector<N> widened(const vector<double, N>& x) {
    long_vector<N> out;
    for (int i = 0; i < N; ++i) out[i] = x[i];
    return out;
}

/// J v and |J| |v| in long double.
template <int N>
void product(const long_matrix<N>& J, const vector<double, N>& v, long_vector<N>& Jv,
             long_vector<N>& magnitude) {
    for (int i = 0; i < N; ++i) {
        Jv[i] = magnitude[i] = 0;
        for (int j = 0; j < N; ++j) {
            Jv[i] += J[i][j] * v[j];
            magnitude[i] += std::fabs(J[i][j] * v[j]);
        }
    }
}

/// What right_hand_side's difference rule does with (y, v): the scale m = max |v_i|, the
/// increment e of the direction w = v / m, and a bound on each |delta_j|, the step the
/// perturbed argument takes: e |w_j| with the roundings of w_j and of e w_j (2 eps), plus
/// the rounding of y_j + e w_j (eps |y_j + e w_j| / 2).
template <int N>
struct difference_step {
    double m, e;
    vector<double, N> delta;  ///< bounds on |delta_j|
};

template <int N>
difference_step<N> difference_step_of(const vector<double, N>& y, const vector<double, N>& v) {
    difference_step<N> s{};
    for (int i = 0; i < N; ++i) s.m = std::max(s.m, std::fabs(v[i]));
    double weighted = 0, squared = 0;
    for (int i = 0; i < N; ++i) {
        const double w = v[i] / s.m;
        weighted += std::max(std::fabs(y[i]), 1.0) * std::fabs(w);
        squared += w * w;
    }
    s.e = std::sqrt(eps) * weighted / squared;
    for (int j = 0; j < N; ++j) {
        const double step = s.e * std::fabs(v[j]) / s.m;
        s.delta[j] = step * (1 + 4 * eps) + eps * (std::fabs(y[j]) + step);
    }
    return s;
}

/// The difference D = (f(y + delta) - f(y)) m / e against the exact J v, component i:
///   |D_i - (J v)_i| <= (m / e) (|R_i| + sum_j |J_ij| |delta_j - e v_j / m| + 64 eps T)
///                      + 4 eps |D_i| + 4 N eps_long (|J| |v|)_i,
/// R the remainder f(y + delta) - f(y) - J delta (bounded by `remainder`, from the bounds on
/// |delta|), |delta_j - e v_j / m| <= eps (|y_j| + 4 e |v_j| / m) (the roundings of w_j,
/// e w_j and y_j + e w_j), T the sum of the magnitudes of f's terms at y and y + delta (their
/// rounding errors, as for the Jacobian's columns), 4 eps |D_i| the rounding of the final
/// subtraction and scaling, and the last term the long double product's own.
template <int N, class Remainder, class Terms>
void check_difference_jvp(const vector<double, N>& y, const vector<double, N>& v,
                          const vector<double, N>& D, const long_matrix<N>& J, Remainder remainder,
                          Terms terms) {
    const difference_step<N> s = difference_step_of<N>(y, v);
    long_vector<N> Jv, magnitude;
    product<N>(J, v, Jv, magnitude);
    const vector<double, N> R = remainder(y, s.delta);
    vector<double, N> shifted;
    for (int j = 0; j < N; ++j) shifted[j] = std::fabs(y[j]) + s.delta[j];
    const double T = std::max(terms(y), terms(shifted));
    for (int i = 0; i < N; ++i) {
        double perturbation = 0;
        for (int j = 0; j < N; ++j)
            perturbation += static_cast<double>(std::fabs(J[i][j])) * eps *
                            (std::fabs(y[j]) + 4 * s.e * std::fabs(v[j]) / s.m);
        const long double bound = s.m / s.e * (R[i] + perturbation + 64 * eps * T) +
                                  4 * eps * std::fabs(D[i]) + 4 * N * long_eps * magnitude[i];
        INFO("component " << i << ": D = " << D[i] << ", J v = " << static_cast<double>(Jv[i])
                          << ", e = " << s.e);
        CHECK(std::fabs(D[i] - Jv[i]) <= bound);
    }
}

/// Directions for every state: a unit vector, mixed signs and sizes, and v scaled to 1e200
/// and 1e-200 (their squares would overflow and underflow without the scaling by max |v_i|).
template <int N>
std::vector<vector<double, N>> directions() {
    vector<double, N> unit{}, mixed, huge, tiny;
    unit[N - 1] = 1;
    for (int i = 0; i < N; ++i) {
        mixed[i] = (i % 2 ? -1 : 1) * std::pow(10.0, (i % 5) - 2) * (1 + 0.1 * i);
        huge[i] = 1e200 * mixed[i];
        tiny[i] = 1e-200 * mixed[i];
    }
    return {unit, mixed, huge, tiny};
}

}  // namespace

TEST_CASE("jvp by differences matches J v of robertson's analytic Jacobian") {
    using S = catalogue::robertson<double>;
    using L = catalogue::robertson<long double>;
    const std::vector<state_t<S>> points{{1, 0, 0},
                                         {0.9851721, 3.386395e-5, 0.01479400},
                                         {0.7158271, 9.185535e-6, 0.2841637},
                                         {4.9394e-3, 1.9854e-8, 0.9950606}};
    std::vector<state_t<S>> states, vs;
    for (const auto& y : points)
        for (const auto& v : directions<3>()) {
            states.push_back(y);
            vs.push_back(v);
        }
    const auto D = jvps(rhs_only<S>{}, {}, states, vs);
    const auto analytic = jvps(S{}, {}, states, vs);
    // f is quadratic: R = (k3 d2 d3, -k2 d2^2 - k3 d2 d3, k2 d2^2) exactly.
    const auto remainder = [](const state_t<S>&, const state_t<S>& d) {
        const double a = S::k3 * d[1] * d[2], b = S::k2 * d[1] * d[1];
        return state_t<S>{a, a + b, b};
    };
    const auto terms = [](const state_t<S>& y) {
        return S::k1 * std::fabs(y[0]) + S::k3 * std::fabs(y[1] * y[2]) + S::k2 * y[1] * y[1];
    };
    for (std::size_t k = 0; k < states.size(); ++k) {
        INFO("state " << k / 4 << ", direction " << k % 4);
        long_matrix<3> J;
        L{}.jacobian(0, widened<3>(states[k]), {}, {}, J);
        check_difference_jvp<3>(states[k], vs[k], D[k], J, remainder, terms);
        // The analytic path is the generated jvp: J v to its rounding. Every entry of J is
        // a same-signed sum, so (|J| |v|)_i bounds its terms' magnitudes; each passes at
        // most 8 roundings.
        long_vector<3> Jv, magnitude;
        product<3>(J, vs[k], Jv, magnitude);
        for (int i = 0; i < 3; ++i)
            CHECK(std::fabs(analytic[k][i] - Jv[i]) <= 8 * eps * magnitude[i]);
    }
}

TEST_CASE("jvp by differences matches J v of pollution's analytic Jacobian") {
    using S = catalogue::pollution<double>;
    using L = catalogue::pollution<long double>;
    const state_t<S> start = S::default_state;
    const state_t<S> late{5.646255e-2,  0.1342484,   4.139734e-9, 5.523140e-3,  2.018977e-7,
                          1.464542e-7,  7.784249e-2, 0.3245075,   7.494013e-3,  1.622293e-8,
                          1.135864e-8,  2.230506e-3, 2.087163e-4, 1.396921e-11, 8.964885e-3,
                          4.352846e-18, 6.899220e-3, 1.007803e-4, 1.772147e-6,  5.682943e-5};
    const parameters_t<S> p = S::default_parameters;
    const vector<long double, 1> long_p{p[0]};
    std::vector<state_t<S>> states, vs;
    for (const auto& y : {start, late})
        for (const auto& v : directions<20>()) {
            states.push_back(y);
            vs.push_back(v);
        }
    const rhs_only<S> bare{};
    const auto D = jvps(bare, p, states, vs);
    // Every rate is a constant, a constant times a species or a product of two species, so
    // J is affine in y and R_i = 1/2 sum_jk H_ijk d_j d_k with the constant second
    // derivatives H_ijk = J_ij(y + e_k) - J_ij(y).
    const auto remainder = [&](const state_t<S>& y, const state_t<S>& d) {
        long_matrix<20> J0;
        L{}.jacobian(0, widened<20>(y), long_p, {}, J0);
        state_t<S> R{};
        for (int k = 0; k < 20; ++k) {
            long_vector<20> shifted = widened<20>(y);
            shifted[k] += 1;
            long_matrix<20> Jk;
            L{}.jacobian(0, shifted, long_p, {}, Jk);
            for (int i = 0; i < 20; ++i)
                for (int j = 0; j < 20; ++j)
                    R[i] += 0.5 * static_cast<double>(std::fabs(Jk[i][j] - J0[i][j])) * d[j] *
                            d[k] * (1 + 1e-6);  // 1e-6: H's long double rounding, and more
        }
        return R;
    };
    const auto terms = [&](const state_t<S>& y) {
        observables_t<S> r;
        S{}.observables(0, y, p, {}, r);
        double sum = 0;
        for (const double rate : r) sum += std::fabs(rate);
        return 2 * sum;
    };
    for (std::size_t k = 0; k < states.size(); ++k) {
        INFO("state " << k / 4 << ", direction " << k % 4);
        long_matrix<20> J;
        L{}.jacobian(0, widened<20>(states[k]), long_p, {}, J);
        check_difference_jvp<20>(states[k], vs[k], D[k], J, remainder, terms);
    }
}

TEST_CASE("jvp by differences matches J v of van der Pol's hand-derived Jacobian") {
    using S = rhs_only<catalogue::van_der_pol<double>>;
    for (const double mu : {0.5, 5.0, 1000.0}) {
        const std::vector<state_t<S>> points{{2, 0}, {1.2, -0.8}, {-0.5, 3}, {0, 0}};
        std::vector<state_t<S>> states, vs;
        for (const auto& y : points)
            for (const auto& v : directions<2>()) {
                states.push_back(y);
                vs.push_back(v);
            }
        const auto D = jvps(S{}, {mu}, states, vs);
        // f_1 = mu (1 - x^2) v - x: R_1 = -mu (2 x dx dv + v dx^2 + dx^2 dv).
        const auto remainder = [mu](const state_t<S>& y, const state_t<S>& d) {
            return state_t<S>{0, mu * (2 * std::fabs(y[0]) * d[0] * d[1] +
                                       std::fabs(y[1]) * d[0] * d[0] + d[0] * d[0] * d[1])};
        };
        const auto terms = [mu](const state_t<S>& y) {
            return std::fabs(y[1]) + mu * std::fabs(y[1]) * (1 + y[0] * y[0]) + std::fabs(y[0]);
        };
        for (std::size_t k = 0; k < states.size(); ++k) {
            const long double x = states[k][0], v = states[k][1];
            const long_matrix<2> J{{{0, 1}, {-2 * mu * x * v - 1, mu * (1 - x * x)}}};
            INFO("mu = " << mu << ", state " << k / 4 << ", direction " << k % 4);
            check_difference_jvp<2>(states[k], vs[k], D[k], J, remainder, terms);
        }
    }
}

namespace {

/// f = d(t) y with one driver d, counting its rhs evaluations, with jvp d v where asked for.
template <bool Jvp>
struct driven_jvp_probe {
    using value_type = double;
    static constexpr int n_states = 2;
    static constexpr int n_parameters = 0;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 1;
    using state = state_t<driven_jvp_probe>;

    int* rhs_calls;

    CUBIE_HD void rhs(double, const state& y, const parameters_t<driven_jvp_probe>&,
                      const drivers_t<driven_jvp_probe>& d, state& dydt) const {
        ++*rhs_calls;
        dydt[0] = d[0] * y[0];
        dydt[1] = d[0] * y[1];
    }
    CUBIE_HD void jvp(double, const state&, const parameters_t<driven_jvp_probe>&,
                      const drivers_t<driven_jvp_probe>& d, const state& v,
                      state& Jv) const requires Jvp {
        Jv[0] = d[0] * v[0];
        Jv[1] = d[0] * v[1];
    }
};

}  // namespace

TEST_CASE("jvp: the system's own where it has one, drivers at t; else one rhs evaluation") {
    static_assert(right_hand_side<driven_jvp_probe<true>>::analytic_jvp);
    static_assert(!right_hand_side<driven_jvp_probe<false>>::analytic_jvp);
    static_assert(right_hand_side<catalogue::pollution<double>>::analytic_jvp);
    const cubic_spline<double> force = periodic_force();
    const driver_splines_t<driven_jvp_probe<true>> drivers{force.view()};
    const parameters_t<driven_jvp_probe<true>> p{};
    const vector<double, 2> y{1.5, -0.5}, v{0.25, 4};
    for (const double t : {0.1, 0.35, 0.8}) {
        vector<double, 1> d;
        driver_values(drivers, t, d);
        INFO("t = " << t);
        int calls = 0;
        const driven_jvp_probe<true> with_jvp{&calls};
        const right_hand_side<driven_jvp_probe<true>> analytic{with_jvp, p, drivers};
        vector<double, 2> dydt, Jv;
        analytic(t, y, dydt);
        calls = 0;
        analytic.jvp(t, y, dydt, v, Jv);
        CHECK(calls == 0);
        CHECK(Jv == vector<double, 2>{d[0] * v[0], d[0] * v[1]});

        const driven_jvp_probe<false> without{&calls};
        const right_hand_side<driven_jvp_probe<false>> differenced{without, p, drivers};
        differenced(t, y, dydt);
        calls = 0;
        differenced.jvp(t, y, dydt, v, Jv);
        CHECK(calls == 1);
        // f is linear in y: R = 0, T = |d| (|y_i| + |delta_i|) per component.
        const long_matrix<2> J{{{d[0], 0}, {0, d[0]}}};
        const auto remainder = [](const vector<double, 2>&, const vector<double, 2>&) {
            return vector<double, 2>{};
        };
        const auto terms = [&](const vector<double, 2>& x) {
            return std::fabs(d[0]) * std::max(std::fabs(x[0]), std::fabs(x[1]));
        };
        check_difference_jvp<2>(y, v, Jv, J, remainder, terms);

        // v = 0 gives 0 without evaluating f; a v that is not finite gives NaN.
        calls = 0;
        differenced.jvp(t, y, dydt, {0, 0}, Jv);
        CHECK(calls == 0);
        CHECK(Jv == vector<double, 2>{0, 0});
        differenced.jvp(t, y, dydt, {1, std::numeric_limits<double>::quiet_NaN()}, Jv);
        CHECK(calls == 0);
        CHECK(std::isnan(Jv[0]));
        CHECK(std::isnan(Jv[1]));
        differenced.jvp(t, y, dydt, {std::numeric_limits<double>::infinity(), 0}, Jv);
        CHECK(std::isnan(Jv[0]));
    }
}

TEST_CASE("jacobian_diagonal: from jvps, from the Jacobian, or as the difference Jacobian's") {
    using R = catalogue::robertson<double>;
    using P = catalogue::pollution<double>;
    const state_t<R> y_r{0.7158271, 9.185535e-6, 0.2841637};
    const state_t<P> y_p = P::default_state;
    const parameters_t<P> p_p = P::default_parameters;
    const driver_splines_t<R> none_r{};
    const driver_splines_t<P> none_p{};

    // By differences: the difference Jacobian's diagonal, bit for bit.
    const auto check_difference = [](const auto& f, const auto& y) {
        using state = std::decay_t<decltype(y)>;
        constexpr int n = static_cast<int>(cuda::std::tuple_size<state>::value);
        state dydt, diagonal;
        vector<state, n> J;
        f(0, y, dydt);
        f.jacobian(0, y, dydt, J);
        f.jacobian_diagonal(0, y, dydt, diagonal);
        for (int i = 0; i < n; ++i) CHECK(diagonal[i] == J[i][i]);
    };
    const rhs_only<R> bare_r{};
    const rhs_only<P> bare_p{};
    check_difference(right_hand_side<rhs_only<R>>{bare_r, {}, none_r}, y_r);
    check_difference(right_hand_side<rhs_only<P>>{bare_p, p_p, none_p}, y_p);

    // From the generated jvp: the analytic Jacobian's diagonal to rounding. Every diagonal
    // entry of both is a same-signed sum (a species' loss terms), so |J_ii| bounds its terms;
    // the jvp evaluates them with at most 8 roundings each.
    const auto check_jvp = [](const auto& f, const auto& y) {
        using state = std::decay_t<decltype(y)>;
        constexpr int n = static_cast<int>(cuda::std::tuple_size<state>::value);
        state dydt, diagonal;
        vector<state, n> J;
        f(0, y, dydt);
        f.jacobian(0, y, dydt, J);
        f.jacobian_diagonal(0, y, dydt, diagonal);
        for (int i = 0; i < n; ++i)
            CHECK(std::fabs(diagonal[i] - J[i][i]) <= 8 * eps * std::fabs(J[i][i]));
    };
    const R robertson{};
    const P pollution{};
    check_jvp(right_hand_side<R>{robertson, {}, none_r}, y_r);
    check_jvp(right_hand_side<P>{pollution, p_p, none_p}, y_p);

    // With drivers: d(t) on the diagonal either way, N rhs evaluations by differences.
    const cubic_spline<double> force = periodic_force();
    const driver_splines_t<driven_jvp_probe<true>> drivers{force.view()};
    const vector<double, 2> y{1.5, -0.5};
    const double t = 0.35;
    vector<double, 1> d;
    driver_values(drivers, t, d);
    int calls = 0;
    const driven_jvp_probe<true> with_jvp{&calls};
    const driven_jvp_probe<false> without{&calls};
    const right_hand_side<driven_jvp_probe<true>> analytic{with_jvp, {}, drivers};
    const right_hand_side<driven_jvp_probe<false>> differenced{without, {}, drivers};
    vector<double, 2> dydt, diagonal;
    analytic(t, y, dydt);
    calls = 0;
    analytic.jacobian_diagonal(t, y, dydt, diagonal);
    CHECK(calls == 0);
    CHECK(diagonal == vector<double, 2>{d[0], d[0]});
    differenced.jacobian_diagonal(t, y, dydt, diagonal);
    CHECK(calls == 2);
    for (int i = 0; i < 2; ++i)
        CHECK(std::fabs(diagonal[i] - d[0]) <=
              difference_error_bound(increment(y[i]), 0, std::fabs(d[0] * y[i]) * 2));
}
