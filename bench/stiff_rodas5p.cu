// Pollution benchmark: rodas5p with the PI controller, in float and double.

#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "stiff_bench.hpp"

namespace stiff_bench {

std::vector<row> run_rodas5p(const sweep& s) {
    return {run<float, cubie::rodas5p, cubie::pi_controller>("rodas5p", s),
            run<double, cubie::rodas5p, cubie::pi_controller>("rodas5p", s)};
}

}  // namespace stiff_bench
