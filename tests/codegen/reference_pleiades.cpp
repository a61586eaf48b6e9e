// Pleiades (28 states) integrated to t = 3 with an explicit method and compared with the
// reference solution of the Test Set for IVP Solvers (University of Bari, problem PLEI,
// computed with PSIDE at tolerance 1e-16), where the first star's mass m1 is 1.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "cubie/algorithms/explicit/dormand_prince_853.hpp"
#include "cubie/catalogue/pleiades.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

TEST_CASE("Pleiades reaches the Bari test set's reference at t = 3") {
    using S = catalogue::pleiades<double>;
    const double reference[28] = {
        0.3706139143970502,  3.237284092057233,   -3.222559032418324,  0.6597091455775310,
        0.3425581707156584,  1.562172101400631,   -0.7003092922212495, -3.943437585517392,
        -3.271380973972550,  5.225081843456543,   -2.590612434977470,  1.198213693392275,
        -0.2429682344935824, 1.091449240428980,   3.417003806314313,   1.354584501625501,
        -2.590065597810775,  2.025053734714242,   -1.155815100160448,  -0.8072988170223021,
        0.5952396354208710,  -3.741244961234010,  0.3773459685750630,  0.9386858869551073,
        0.3667922227200571,  -0.3474046353808490, 2.344915448180937,   -1.947020434263292};
    const std::vector<double> y0(S::default_state.begin(), S::default_state.end()), m1{1.0};
    solve_settings<pi_controller> s;
    s.t_end = 3;
    s.dt = 1e-4;
    s.atol = {1e-13};
    s.rtol = {1e-13};
    const auto r =
        solver<S, dormand_prince_853, pi_controller>{}.solve({1, y0, m1}, s, test_backend{});
    REQUIRE(r.statuses[0] == status::success);
    for (int i = 0; i < 28; ++i) {
        CAPTURE(S::state_names[i]);
        CHECK(std::abs(r.final_state(i, 0) - reference[i]) < 1e-9);
    }
}
