// Generated Jacobians, Jacobian-vector products, time derivatives and driver Jacobians of
// the small catalogue systems against central finite differences of their rhs.

#include <doctest/doctest.h>

#include "codegen/support/derivative_checks.hpp"
#include "cubie/catalogue/forced_duffing.hpp"
#include "cubie/catalogue/hodgkin_huxley.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/catalogue/robertson.hpp"
#include "cubie/catalogue/van_der_pol.hpp"

using namespace cubie;
using testing::check_derivatives;

TEST_CASE("derivatives match finite differences: lorenz, van der Pol, Robertson") {
    check_derivatives<catalogue::lorenz<double>>("lorenz", {.state_spread = 5});
    check_derivatives<catalogue::van_der_pol<double>>("van_der_pol", {.state_spread = 2});
    check_derivatives<catalogue::robertson<double>>("robertson", {.state_spread = 0.5});
}

TEST_CASE("derivatives match finite differences: driven systems") {
    check_derivatives<catalogue::hodgkin_huxley<double>>(
        "hodgkin_huxley", {.state_spread = 0.3, .driver_min = 0, .driver_max = 20});
    check_derivatives<catalogue::forced_duffing<double>>("forced_duffing", {.state_spread = 1});
}
