#pragma once
// Measured convergence order of fixed-step methods: the least-squares slope of
// log(error) over log(dt) for step counts n, 2n, 4n, ..., against analytic solutions.
//
// Double precision leaves a high-order method few halvings between its pre-asymptotic
// range and rounding (about 1e-14 here): each method's test picks the problem and the
// step counts where its asymptotic range lies, and says so.

#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/catalogue/harmonic_oscillator.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/solver/solver.hpp"
#include "support/kepler.hpp"
#include "support/test_backend.hpp"

namespace cubie::testing {

inline constexpr double two_pi = 6.283185307179586;

/// Largest absolute error of the final state of one fixed-step trajectory.
template <class System, class Algorithm>
double fixed_step_error(double t_end, int n_steps, const std::vector<double>& y0,
                        const std::vector<double>& parameters, const std::vector<double>& exact) {
    solve_settings<fixed_step> settings;
    settings.t_end = t_end;
    settings.dt = t_end / n_steps;
    const auto result = solver<System, Algorithm, fixed_step>{}.solve({1, y0, parameters}, settings,
                                                                      test_backend{});
    REQUIRE(result.statuses[0] == status::success);
    REQUIRE(result.accepted_steps[0] == static_cast<unsigned>(n_steps));
    double err = 0;
    for (std::size_t i = 0; i < exact.size(); ++i)
        err = std::fmax(err, std::abs(result.final_state(static_cast<int>(i), 0) - exact[i]));
    return err;
}

/// One orbit of the Kepler problem with eccentricity e (nonlinear: every elementary
/// differential of the method takes part).
struct kepler_orbit {
    double eccentricity;
    template <class Algorithm>
    double error(int n_steps) const {
        const auto y0 = kepler_initial_state(eccentricity);
        const auto exact = kepler_solution(eccentricity, two_pi);
        return fixed_step_error<kepler<double>, Algorithm>(two_pi, n_steps, {y0.begin(), y0.end()},
                                                           {}, {exact.begin(), exact.end()});
    }
};

/// Harmonic oscillator, omega = 1, over [0, 10] (linear: clean asymptotics).
struct oscillator {
    template <class Algorithm>
    double error(int n_steps) const {
        return fixed_step_error<catalogue::harmonic_oscillator<double>, Algorithm>(
            10, n_steps, {1, 0}, {1}, {std::cos(10.0), -std::sin(10.0)});
    }
};

/// Exponential growth y' = y over [0, 10], error relative to e^10.
struct exponential_growth {
    template <class Algorithm>
    double error(int n_steps) const {
        const double exact = std::exp(10.0);
        return fixed_step_error<catalogue::exponential_decay<double>, Algorithm>(10, n_steps, {1},
                                                                                 {-1}, {exact}) /
               exact;
    }
};

/// The least-squares slope of y over x.
inline double least_squares_slope(const std::vector<double>& x, const std::vector<double>& y) {
    const double m = static_cast<double>(x.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

/// The slope of log(error) over log(dt) for n_coarsest * 2^k steps with k < points, and the
/// sweep's errors in words.
template <class Algorithm, class Problem>
double measured_order(const Problem& problem, int n_coarsest, int points, std::string& sweep) {
    std::vector<double> x, y;
    std::ostringstream errors;
    errors.precision(3);
    for (int k = 0; k < points; ++k) {
        const int n = n_coarsest << k;
        const double err = problem.template error<Algorithm>(n);
        errors << " " << n << " steps: " << err << ";";
        x.push_back(std::log(1.0 / n));
        y.push_back(std::log(err));
    }
    sweep = errors.str();
    return least_squares_slope(x, y);
}

/// Checks that the measured order of Algorithm on problem is its theoretical order within
/// 0.2.
template <class Algorithm, class Problem>
void check_convergence_order(const Problem& problem, int n_coarsest, int points) {
    std::string sweep;
    const double slope = measured_order<Algorithm>(problem, n_coarsest, points, sweep);
    INFO(std::string(Algorithm::name)
         << ": measured order " << slope << ", expected " << Algorithm::order << ";" << sweep);
    CHECK(std::abs(slope - Algorithm::order) < 0.2);
}

}  // namespace cubie::testing
