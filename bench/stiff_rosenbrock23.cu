// Pollution benchmark: rosenbrock23 with the PI controller, in float and double.

#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "stiff_bench.hpp"

namespace stiff_bench {

std::vector<row> run_rosenbrock23(const sweep& s) {
    return {run<float, cubie::rosenbrock23, cubie::pi_controller>("rosenbrock23", s),
            run<double, cubie::rosenbrock23, cubie::pi_controller>("rosenbrock23", s)};
}

}  // namespace stiff_bench
