// Stiff methods in float on Pollution, whose I - h gamma J has rows 1e15 apart in scale (rate
// constants from 1e-3 to 4.4e11): the real LU (rodas5p, kvaerno5) and the complex one
// (radau_iia_5) must factor it, kvaerno5's Newton iteration converge in float's precision,
// and the solve reach the requested tolerance against the float64 reference
// (reference/stiff_reference.csv), as in double; and take about as many steps as in double.
// DIRK and implicit Runge-Kutta methods here, the Rosenbrock ones in
// stiff_single_precision.cpp.

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "support/pollution_in_float.hpp"

using namespace cubie;
using cubie::testing::check_float_pollution;
using cubie::testing::check_float_steps_as_double;

TEST_CASE("kvaerno5 and radau_iia_5 solve Pollution in float") {
    check_float_pollution<kvaerno5>();
    check_float_pollution<radau_iia_5, gustafsson_controller>();
}

// As for the Rosenbrock methods (stiff_single_precision.cpp); and kvaerno5 took 10^5 steps in
// float for double's 72 while its Newton iteration started from an explicit extrapolation,
// which put O1D far off its slow manifold (dirk.hpp).
TEST_CASE("kvaerno5 and radau_iia_5 take about as many steps in float as in double") {
    check_float_steps_as_double<kvaerno5>();
    check_float_steps_as_double<radau_iia_5, gustafsson_controller>();
}
