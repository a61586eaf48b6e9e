// The library's fixed-step classical RK4 on the benchmark sweep.

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "time_library.cuh"

namespace lorenz_bench {

cubie::batch_result<float> library_classical_rk4(const sweep& s, int repeat, timing& t) {
    cubie::solve_settings<cubie::fixed_step> settings;
    settings.dt = dt_fixed;
    return time_library<cubie::classical_rk4>(s, repeat, t, settings);
}

}  // namespace lorenz_bench
