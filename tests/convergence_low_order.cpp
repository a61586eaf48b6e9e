// Measured convergence orders, methods of order 1 to 3, on one Kepler orbit (e = 0.3).

#include <doctest/doctest.h>

#include "cubie/algorithms/explicit/bogacki_shampine_32.hpp"
#include "cubie/algorithms/explicit/euler.hpp"
#include "cubie/algorithms/explicit/heun.hpp"
#include "cubie/algorithms/explicit/ralston.hpp"
#include "support/convergence.hpp"

using namespace cubie;
using namespace cubie::testing;

TEST_CASE("euler: order 1") {
    check_convergence_order<euler>(kepler_orbit{0.3}, 16384, 4);
}
TEST_CASE("heun: order 2") {
    check_convergence_order<heun>(kepler_orbit{0.3}, 256, 4);
}
TEST_CASE("ralston: order 2") {
    check_convergence_order<ralston>(kepler_orbit{0.3}, 256, 4);
}
TEST_CASE("bogacki_shampine_32: order 3") {
    check_convergence_order<bogacki_shampine_32>(kepler_orbit{0.3}, 128, 4);
}
