// Generated derivatives of the larger catalogue systems (20 to 32 states, stiff and
// oscillatory) against central finite differences of their rhs.

#include <doctest/doctest.h>

#include "codegen/support/derivative_checks.hpp"
#include "cubie/catalogue/lorenz96.hpp"
#include "cubie/catalogue/pleiades.hpp"
#include "cubie/catalogue/pollution.hpp"
#include "cubie/catalogue/ring_modulator.hpp"

using namespace cubie;
using testing::check_derivatives;

TEST_CASE("derivatives match finite differences: Lorenz 96 and Pleiades") {
    check_derivatives<catalogue::lorenz96<double>>("lorenz96", {.state_spread = 3});
    check_derivatives<catalogue::pleiades<double>>("pleiades", {.state_spread = 0.5});
}

TEST_CASE("derivatives match finite differences: pollution and ring modulator") {
    check_derivatives<catalogue::pollution<double>>("pollution", {.state_spread = 0.05});
    // Time within the Bari interval [0, 1e-3]: the inputs oscillate with period 1e-4.
    check_derivatives<catalogue::ring_modulator<double>>(
        "ring_modulator", {.state_spread = 0.1, .t_min = 0, .t_max = 1e-3});
}
