// Adaptive error control of the high-order embedded pairs (see tolerance_sweep.hpp).

#include <doctest/doctest.h>

#include "cubie/algorithms/explicit/dormand_prince_853.hpp"
#include "cubie/algorithms/explicit/vern7.hpp"
#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "support/tolerance_sweep.hpp"

using namespace cubie;
using cubie::testing::check_tolerance_proportionality;

namespace {
const std::vector<double> tolerance_sweep = {1e-4, 1e-6, 1e-8, 1e-10};
}

TEST_CASE("dormand_prince_853: error follows the tolerance") {
    check_tolerance_proportionality<dormand_prince_853, pi_controller>(tolerance_sweep, 1);
}
TEST_CASE("vern7: error follows the tolerance") {
    check_tolerance_proportionality<vern7, pi_controller>(tolerance_sweep, 1);
}
TEST_CASE("vern9: error follows the tolerance") {
    check_tolerance_proportionality<vern9, pi_controller>(tolerance_sweep, 1);
}
