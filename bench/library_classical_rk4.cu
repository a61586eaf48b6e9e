// The library's fixed-step classical RK4 on the benchmark sweep, final states only and
// saving the state.

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "library_contender.cuh"
#include "lorenz_bench.hpp"

namespace lorenz_bench {

using lorenz = cubie::catalogue::lorenz<float>;

std::unique_ptr<contender> library_classical_rk4(const ensemble& s) {
    return std::make_unique<
        bench::library_contender<lorenz, cubie::classical_rk4, cubie::fixed_step>>(
        s, bench::fixed_settings(dt_fixed, 1));
}

std::unique_ptr<contender> library_classical_rk4_saving(const ensemble& s, unsigned every_steps) {
    auto settings = bench::fixed_settings(dt_fixed, 1);
    settings.save_every = every_steps * dt_fixed;
    return std::make_unique<bench::library_contender<lorenz, cubie::classical_rk4,
                                                     cubie::fixed_step, cubie::save_state>>(
        s, settings);
}

}  // namespace lorenz_bench
