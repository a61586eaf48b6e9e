// The library's adaptive Tsit5 (PI controller) on the benchmark sweep.

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/controllers/digital_filter_controller.hpp"
#include "time_library.cuh"

namespace lorenz_bench {

cubie::batch_result<float> library_tsit5(const sweep& s, int repeat, timing& t) {
    cubie::solve_settings<cubie::pi_controller> settings;
    settings.dt = dt_fixed;
    settings.atol = settings.rtol = {tolerance};
    return time_library<cubie::tsit5>(s, repeat, t, settings);
}

}  // namespace lorenz_bench
