// Adaptive error control of the embedded pairs up to order 5, and every adaptive
// controller driving one of them (see tolerance_sweep.hpp).

#include <doctest/doctest.h>

#include "cubie/algorithms/explicit/bogacki_shampine_32.hpp"
#include "cubie/algorithms/explicit/cash_karp_54.hpp"
#include "cubie/algorithms/explicit/dormand_prince_54.hpp"
#include "cubie/algorithms/explicit/fehlberg_45.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "cubie/controllers/i_controller.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/controllers/pid_controller.hpp"
#include "support/tolerance_sweep.hpp"

using namespace cubie;
using cubie::testing::check_tolerance_proportionality;

namespace {
const std::vector<double> tolerance_sweep = {1e-4, 1e-6, 1e-8};
}

TEST_CASE("bogacki_shampine_32: error follows the tolerance") {
    check_tolerance_proportionality<bogacki_shampine_32, pi_controller>(tolerance_sweep, 20);
}
TEST_CASE("dormand_prince_54: error follows the tolerance") {
    check_tolerance_proportionality<dormand_prince_54, pi_controller>(tolerance_sweep, 5);
}
TEST_CASE("tsit5: error follows the tolerance") {
    check_tolerance_proportionality<tsit5, pi_controller>(tolerance_sweep, 5);
}
TEST_CASE("cash_karp_54: error follows the tolerance") {
    check_tolerance_proportionality<cash_karp_54, pi_controller>(tolerance_sweep, 5);
}
// Fehlberg propagates its fourth-order solution without local extrapolation: the global
// error grows like tol^(4/5) and reaches about 40 tol at 1e-8.
TEST_CASE("fehlberg_45: error follows the tolerance") {
    check_tolerance_proportionality<fehlberg_45, pi_controller>(tolerance_sweep, 50);
}
TEST_CASE("each adaptive controller drives dormand_prince_54 to its tolerance") {
    check_tolerance_proportionality<dormand_prince_54, i_controller>(tolerance_sweep, 10);
    check_tolerance_proportionality<dormand_prince_54, pid_controller>(tolerance_sweep, 5);
    check_tolerance_proportionality<dormand_prince_54, gustafsson_controller>(tolerance_sweep, 10);
}
