// Measured convergence orders, methods of order 7 to 9. Their asymptotic range in double
// precision is narrow: Dormand-Prince 8 on a circular Kepler orbit (nonlinear) over four
// step counts, Verner 7 on the oscillator over three, Verner 9 on exponential growth over
// one halving (errors 2e-11 and 4e-14; the next halving reaches rounding).

#include <doctest/doctest.h>

#include "cubie/algorithms/explicit/dormand_prince_853.hpp"
#include "cubie/algorithms/explicit/vern7.hpp"
#include "cubie/algorithms/explicit/vern9.hpp"
#include "support/convergence.hpp"

using namespace cubie;
using namespace cubie::testing;

TEST_CASE("dormand_prince_853: order 8") {
    check_convergence_order<dormand_prince_853>(kepler_orbit{0.0}, 8, 4);
}
TEST_CASE("vern7: order 7") {
    check_convergence_order<vern7>(oscillator{}, 32, 3);
}
TEST_CASE("vern9: order 9") {
    check_convergence_order<vern9>(exponential_growth{}, 24, 2);
}
