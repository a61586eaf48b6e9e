// The library's fixed-step classical RK4 on the benchmark sweep.

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "time_library.cuh"

namespace lorenz_bench {

std::unique_ptr<contender> library_classical_rk4(const sweep& s) {
    return std::make_unique<library_contender<cubie::classical_rk4, cubie::fixed_step>>(
        s, fixed_settings());
}

}  // namespace lorenz_bench
