// Measured convergence orders, methods of order 4 and 5, on one Kepler orbit (e = 0.3).

#include <doctest/doctest.h>

#include "cubie/algorithms/explicit/cash_karp_54.hpp"
#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/dormand_prince_54.hpp"
#include "cubie/algorithms/explicit/fehlberg_45.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "support/convergence.hpp"

using namespace cubie;
using namespace cubie::testing;

TEST_CASE("classical_rk4: order 4") {
    check_convergence_order<classical_rk4>(kepler_orbit{0.3}, 128, 4);
}
TEST_CASE("dormand_prince_54: order 5") {
    check_convergence_order<dormand_prince_54>(kepler_orbit{0.3}, 128, 4);
}
TEST_CASE("tsit5: order 5") {
    check_convergence_order<tsit5>(kepler_orbit{0.3}, 128, 4);
}
TEST_CASE("cash_karp_54: order 5") {
    check_convergence_order<cash_karp_54>(kepler_orbit{0.3}, 64, 4);
}
TEST_CASE("fehlberg_45: order 4 (the propagated solution)") {
    check_convergence_order<fehlberg_45>(kepler_orbit{0.3}, 512, 4);
}
