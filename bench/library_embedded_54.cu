// The library's other adaptive 5(4) pairs on the benchmark sweep (PI controller):
// Dormand-Prince and Cash-Karp.

#include "cubie/algorithms/explicit/cash_karp_54.hpp"
#include "cubie/algorithms/explicit/dormand_prince_54.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "library_contender.cuh"
#include "lorenz_bench.hpp"

namespace lorenz_bench {

using lorenz = cubie::catalogue::lorenz<float>;

std::unique_ptr<contender> library_dormand_prince_54(const ensemble& s, double tolerance) {
    return std::make_unique<
        bench::library_contender<lorenz, cubie::dormand_prince_54, cubie::pi_controller>>(
        s, bench::adaptive_settings(dt_fixed, tolerance, 1));
}

std::unique_ptr<contender> library_cash_karp_54(const ensemble& s, double tolerance) {
    return std::make_unique<
        bench::library_contender<lorenz, cubie::cash_karp_54, cubie::pi_controller>>(
        s, bench::adaptive_settings(dt_fixed, tolerance, 1));
}

}  // namespace lorenz_bench
