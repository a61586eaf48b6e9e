// The library's other adaptive 5(4) pairs on the benchmark sweep (PI controller):
// Dormand-Prince and Cash-Karp.

#include "cubie/algorithms/explicit/cash_karp_54.hpp"
#include "cubie/algorithms/explicit/dormand_prince_54.hpp"
#include "cubie/controllers/digital_filter_controller.hpp"
#include "time_library.cuh"

namespace lorenz_bench {

std::unique_ptr<contender> library_dormand_prince_54(const sweep& s, double tolerance) {
    return std::make_unique<library_contender<cubie::dormand_prince_54, cubie::pi_controller>>(
        s, adaptive_settings(tolerance));
}

std::unique_ptr<contender> library_cash_karp_54(const sweep& s, double tolerance) {
    return std::make_unique<library_contender<cubie::cash_karp_54, cubie::pi_controller>>(
        s, adaptive_settings(tolerance));
}

}  // namespace lorenz_bench
