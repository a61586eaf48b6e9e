// The library's Tsit5 on the benchmark sweep: fixed steps, adaptive (PI controller), and
// adaptive saving the state from its interpolant.

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "library_contender.cuh"
#include "lorenz_bench.hpp"

namespace lorenz_bench {

using lorenz = cubie::catalogue::lorenz<float>;

std::unique_ptr<contender> library_fixed_tsit5(const ensemble& s) {
    return std::make_unique<bench::library_contender<lorenz, cubie::tsit5, cubie::fixed_step>>(
        s, bench::fixed_settings(dt_fixed, 1));
}

std::unique_ptr<contender> library_tsit5(const ensemble& s, double tolerance) {
    return std::make_unique<bench::library_contender<lorenz, cubie::tsit5, cubie::pi_controller>>(
        s, bench::adaptive_settings(dt_fixed, tolerance, 1));
}

std::unique_ptr<contender> library_tsit5_saving(const ensemble& s, double tolerance,
                                                double save_every) {
    auto settings = bench::adaptive_settings(dt_fixed, tolerance, 1);
    settings.save_every = save_every;
    return std::make_unique<
        bench::library_contender<lorenz, cubie::tsit5, cubie::pi_controller, cubie::save_state>>(
        s, settings);
}

}  // namespace lorenz_bench
