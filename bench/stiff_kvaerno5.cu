// Pollution benchmark: kvaerno5 with the PI controller, in float and double.

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "stiff_bench.hpp"

namespace stiff_bench {

std::vector<row> run_kvaerno5(const sweep& s) {
    return {run<float, cubie::kvaerno5, cubie::pi_controller>("kvaerno5", s),
            run<double, cubie::kvaerno5, cubie::pi_controller>("kvaerno5", s)};
}

}  // namespace stiff_bench
