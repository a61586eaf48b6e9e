// The library's Tsit5 on the benchmark sweep: fixed steps, and adaptive (PI controller).

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/controllers/digital_filter_controller.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "time_library.cuh"

namespace lorenz_bench {

std::unique_ptr<contender> library_fixed_tsit5(const sweep& s) {
    return std::make_unique<library_contender<cubie::tsit5, cubie::fixed_step>>(s,
                                                                                fixed_settings());
}

std::unique_ptr<contender> library_tsit5(const sweep& s, double tolerance) {
    return std::make_unique<library_contender<cubie::tsit5, cubie::pi_controller>>(
        s, adaptive_settings(tolerance));
}

}  // namespace lorenz_bench
