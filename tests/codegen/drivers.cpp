// Driver splines against SciPy's CubicSpline (reference/make_spline_reference.py) for every
// boundary condition, with and without wrap-around, on the host and, in the cuda build,
// in a kernel; and driven catalogue systems reading the driver value at t.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/catalogue/forced_duffing.hpp"
#include "cubie/catalogue/hodgkin_huxley.hpp"
#include "cubie/drivers/cubic_spline.hpp"
#include "cubie/drivers/cubic_spline_fit.hpp"
#if defined(__CUDACC__)
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#endif

using namespace cubie;

namespace {

std::vector<std::vector<std::string>> read_csv(const std::string& name) {
    std::ifstream in(std::string(CUBIE_CODEGEN_REFERENCE_DIR) + "/" + name);
    if (!in) throw std::runtime_error("cannot open " + name);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

struct samples {
    std::vector<double> t, y;
};

std::map<std::string, samples> sample_sets() {
    std::map<std::string, samples> sets;
    for (const auto& row : read_csv("cubic_spline_samples.csv")) {
        sets[row[0]].t.push_back(std::stod(row[1]));
        sets[row[0]].y.push_back(std::stod(row[2]));
    }
    return sets;
}

spline_options options_for(const std::string& boundary, bool wrap) {
    spline_options o;
    o.wrap = wrap;
    if (boundary == "natural") o.boundary = spline_boundary::natural;
    if (boundary == "clamped") {
        o.boundary = spline_boundary::clamped;
        o.start_slope = 0.5;  // as in make_spline_reference.py
        o.end_slope = -1.0;
    }
    if (boundary == "not_a_knot") o.boundary = spline_boundary::not_a_knot;
    if (boundary == "periodic") o.boundary = spline_boundary::periodic;
    return o;
}

struct evaluation {
    std::string set, boundary;
    bool wrap;
    double t, value, derivative;
};

std::vector<evaluation> reference() {
    std::vector<evaluation> out;
    for (const auto& r : read_csv("cubic_spline_reference.csv"))
        out.push_back({r[0], r[1], r[2] == "1", std::stod(r[3]), std::stod(r[4]), std::stod(r[5])});
    return out;
}

#if defined(__CUDACC__)
__global__ void evaluate_kernel(cubic_spline_view<double> spline, const double* t, double* value,
                                double* derivative, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        value[i] = spline.value(t[i]);
        derivative[i] = spline.derivative(t[i]);
    }
}

/// The spline's values and derivatives at t, computed on the device.
void evaluate_on_device(const cubic_spline<double>& s, const std::vector<double>& t,
                        std::vector<double>& value, std::vector<double>& derivative) {
    const auto knots = device_buffer<double>::copy_of(s.knots());
    const auto coefficients = device_buffer<double>::copy_of(s.coefficients());
    const auto points = device_buffer<double>::copy_of(t);
    device_buffer<double> v(t.size()), d(t.size());
    cubic_spline_view<double> view = s.view();
    view.knots = knots.data();
    view.coefficients = coefficients.data();
    const int n = static_cast<int>(t.size());
    evaluate_kernel<<<(n + 127) / 128, 128>>>(view, points.data(), v.data(), d.data(), n);
    CUBIE_CUDA_CHECK(cudaGetLastError());
    value.resize(t.size());
    derivative.resize(t.size());
    v.copy_to(value);
    d.copy_to(derivative);
}
#endif

}  // namespace

TEST_CASE("driver splines match SciPy CubicSpline for each boundary condition") {
    const auto sets = sample_sets();
    const auto points = reference();
    std::map<std::string, int> checked;
    for (const evaluation& e : points) {
        const samples& s = sets.at(e.set);
        const spline_options o = options_for(e.boundary, e.wrap);
        const cubic_spline<double> in_double(s.t, s.y, o);
        const cubic_spline<float> in_float(s.t, s.y, o);
        CAPTURE(e.boundary);
        CAPTURE(e.wrap);
        CAPTURE(e.t);
        const double scale = 1 + std::abs(e.value);
        CHECK(std::abs(in_double.view().value(e.t) - e.value) <= 1e-12 * scale);
        CHECK(std::abs(in_double.view().derivative(e.t) - e.derivative) <=
              1e-11 * (1 + std::abs(e.derivative)));
        CHECK(std::abs(in_float.view().value(float(e.t)) - e.value) <= 2e-5 * scale);
        ++checked[e.boundary + (e.wrap ? " wrapped" : "")];
    }
    CHECK(checked.size() == 6);  // natural, clamped, not-a-knot, periodic, both wrapped
}

#if defined(__CUDACC__)
TEST_CASE("driver splines evaluate on the device as on the host") {
    const auto sets = sample_sets();
    for (const char* boundary : {"natural", "clamped", "not_a_knot", "periodic"}) {
        const bool periodic = std::string(boundary) == "periodic";
        const samples& s = sets.at(periodic ? "periodic" : "aperiodic");
        const cubic_spline<double> spline(s.t, s.y, options_for(boundary, periodic));
        std::vector<double> t, value, derivative;
        for (int k = -20; k <= 120; ++k) t.push_back(0.021 * k);
        evaluate_on_device(spline, t, value, derivative);
        for (std::size_t k = 0; k < t.size(); ++k) {
            CAPTURE(boundary);
            CAPTURE(t[k]);
            CHECK(value[k] == doctest::Approx(spline.view().value(t[k])).epsilon(1e-14));
            CHECK(derivative[k] == doctest::Approx(spline.view().derivative(t[k])).epsilon(1e-13));
        }
    }
}
#endif

TEST_CASE("spline fitting rejects bad samples with a reason") {
    const std::vector<double> t{0, 1, 2, 3}, y{0, 1, 0, 1}, short_t{0, 1, 2}, short_y{0, 1, 0};
    CHECK_THROWS_WITH_AS(cubic_spline<double>(t, short_y), doctest::Contains("4 knots but 3"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(cubic_spline<double>(short_t, short_y), doctest::Contains("at least 4"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(cubic_spline<double>(t, y, {spline_boundary::periodic}),
                         doctest::Contains("first and last samples equal"), std::invalid_argument);
    const std::vector<double> unordered{0, 2, 1, 3};
    CHECK_THROWS_WITH_AS(cubic_spline<double>(unordered, y), doctest::Contains("increase"),
                         std::invalid_argument);
    CHECK_NOTHROW(cubic_spline<double>(short_t, short_y, {spline_boundary::natural}));
}

TEST_CASE("a forced Duffing oscillator reads its driver through rhs and observables") {
    using S = catalogue::forced_duffing<double>;
    // Periodic forcing cos(2 pi t) sampled on [0, 1], wrapped for all t.
    std::vector<double> t, f;
    for (int k = 0; k <= 64; ++k) {
        t.push_back(k / 64.0);
        f.push_back(std::cos(2 * std::numbers::pi * k / 64.0));
    }
    f.back() = f.front();
    const cubic_spline<double> force(t, f, {spline_boundary::periodic, 0, 0, true});
    const cuda::std::array<cubic_spline_view<double>, 1> drivers{force.view()};

    const double x = 0.7, v = -0.4, delta = 0.3, alpha = -1, beta = 1;
    for (const double time : {0.1, 0.35, 2.6, 13.85}) {
        drivers_t<S> d;
        driver_values(drivers, time, d);
        CHECK(d[0] == doctest::Approx(std::cos(2 * std::numbers::pi * time)).epsilon(1e-6));
        state_t<S> dydt;
        S{}.rhs(time, {x, v}, {delta, alpha, beta}, d, dydt);
        CHECK(dydt[0] == v);
        CHECK(dydt[1] == doctest::Approx(d[0] - delta * v - (alpha * x + beta * x * x * x)));
        observables_t<S> out;
        S{}.observables(time, {x, v}, {delta, alpha, beta}, d, out);
        CHECK(out[0] == doctest::Approx(alpha * x + beta * x * x * x));
        CHECK(out[1] == doctest::Approx(v * v / 2 + alpha * x * x / 2 + beta * x * x * x * x / 4));
        CHECK(out[2] == doctest::Approx(d[0] * v));  // power delivered by the force

        // d f / dt along the trajectory's time: driver_jacobian times the driver's rate.
        drivers_t<S> rate;
        driver_rates(drivers, time, rate);
        vector<vector<double, 1>, 2> Jd;
        S{}.driver_jacobian(time, {x, v}, {delta, alpha, beta}, d, Jd);
        CHECK(Jd[1][0] * rate[0] ==
              doctest::Approx(-2 * std::numbers::pi * std::sin(2 * std::numbers::pi * time))
                  .epsilon(1e-4));
    }
}

TEST_CASE("Hodgkin-Huxley fires while the injected current is on") {
    using S = catalogue::hodgkin_huxley<double>;
    // A current rising to 10 uA/cm^2 around t = 2 ms, sampled every 0.25 ms and
    // interpolated as the driver. Forward Euler at dt = 1e-3 ms over 20 ms: the membrane
    // rests until the current comes, then spikes above 0 mV.
    std::vector<double> t, current;
    for (int k = 0; k <= 120; ++k) {
        t.push_back(0.25 * k);
        current.push_back(10 / (1 + std::exp(-(t.back() - 2) / 0.2)));
    }
    const cubic_spline<double> step(t, current, {spline_boundary::natural});
    const cuda::std::array<cubic_spline_view<double>, 1> drivers{step.view()};
    state_t<S> y = S::default_state;
    double peak = y[0], before = y[0];
    for (int i = 0; i < 20000; ++i) {
        if (i == 1000) before = y[0];  // t = 1 ms, no current yet
        drivers_t<S> d;
        driver_values(drivers, i * 1e-3, d);
        state_t<S> f;
        S{}.rhs(i * 1e-3, y, S::default_parameters, d, f);
        for (int k = 0; k < 4; ++k) y[k] += 1e-3 * f[k];
        peak = std::max(peak, y[0]);
    }
    CHECK(std::abs(before + 65) < 1);
    CHECK(peak > 0);
    CHECK(peak < 60);
}
