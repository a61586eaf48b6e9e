#pragma once
// Global error of adaptive solves against the analytic solution as the tolerance falls:
// harmonic oscillator (omega = 1, x0 = 1, v0 = 0) over [0, 10], atol = rtol = tol.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cubie/catalogue/harmonic_oscillator.hpp"
#include "cubie/solver/solver.hpp"
#include "support/test_backend.hpp"

namespace cubie::testing {

template <class Algorithm, class Controller>
double oscillator_error(double tol) {
    const std::vector<double> y0 = {1, 0};
    const std::vector<double> omega = {1};
    solve_settings<Controller> s;
    s.t_end = 10;
    s.dt = 1.0 / 1024;
    s.atol = {tol};
    s.rtol = {tol};
    const auto r = solver<catalogue::harmonic_oscillator<double>, Algorithm, Controller>{}.solve(
        {1, y0, omega}, s, test_backend{});
    REQUIRE(r.statuses[0] == status::success);
    return std::fmax(std::abs(r.final_state(0, 0) - std::cos(10.0)),
                     std::abs(r.final_state(1, 0) + std::sin(10.0)));
}

/// The error falls with every tenfold-or-more tighter tolerance and stays within
/// `multiple` times the tolerance.
template <class Algorithm, class Controller>
void check_tolerance_proportionality(const std::vector<double>& tolerances, double multiple) {
    double previous = INFINITY;
    for (double tol : tolerances) {
        const double err = oscillator_error<Algorithm, Controller>(tol);
        INFO(Algorithm::name << " with " << Controller::name << ": tol " << tol << ", error "
                             << err);
        CHECK(err < previous);
        CHECK(err <= multiple * tol);
        previous = err;
    }
}

}  // namespace cubie::testing
