// Stiff methods in float on Pollution, whose I - h gamma J has rows 1e15 apart in scale (rate
// constants from 1e-3 to 4.4e11): the real LU (rodas5p, kvaerno5) and the complex one
// (radau_iia_5) must factor it, kvaerno5's Newton iteration converge in float's precision,
// and the solve reach the requested tolerance against the float64 reference
// (reference/stiff_reference.csv), as in double; and take about as many steps as in double.
// Rosenbrock methods here, the implicit Runge-Kutta ones in stiff_single_precision_implicit.cpp.

#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "support/pollution_in_float.hpp"

using namespace cubie;
using cubie::testing::check_float_pollution;
using cubie::testing::check_float_steps_as_double;

TEST_CASE("rodas5p solves Pollution in float") {
    check_float_pollution<rodas5p>();
}

// Judged by its rows' largest entries, dense_lu called Pollution's regular I - h gamma J
// singular in float at steps above 0.01 (linear_solvers.cpp), and these methods took 200 times
// double's steps.
TEST_CASE("rosenbrock23 and rodas5p take about as many steps in float as in double") {
    check_float_steps_as_double<rosenbrock23>();
    check_float_steps_as_double<rodas5p>();
}
