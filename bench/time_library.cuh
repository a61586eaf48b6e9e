#pragma once
// Times repeated library solves of a sweep: fastest e2e and kernel time after a warm-up.
// As the hand-written kernel's, the inputs sit in page-locked memory, filled once before
// the timed solves, and every solve writes the same result's arrays (solver::solve into a
// reused batch_result), as an application that solves one shape repeatedly does.

#include <algorithm>

#include "cubie/batch/solver.hpp"
#include "cubie/core/pinned_buffer.hpp"
#include "cubie/systems/lorenz.hpp"
#include "lorenz_bench.hpp"

namespace lorenz_bench {

template <class Method, class Controller>
cubie::batch_result<float> time_library(const sweep& s, int repeat, timing& t,
                                        const cubie::solve_settings<Controller>& settings) {
    const cubie::solver<cubie::systems::lorenz<float>, Method, Controller> solver;
    const cubie::pinned_buffer<float> y0(s.y0.size()), rho(s.rho.size());
    std::copy(s.y0.begin(), s.y0.end(), y0.data());
    std::copy(s.rho.begin(), s.rho.end(), rho.data());
    const cubie::batch_inputs<float> inputs{s.n, {y0.data(), y0.size()}, {rho.data(), rho.size()}};
    cubie::batch_result<float> result;
    for (int r = 0; r <= repeat; ++r) {  // r == 0: warm-up
        const double t0 = now_ms();
        solver.solve(inputs, settings, result, cubie::backends::cuda{});
        const double e2e = now_ms() - t0;
        if (r > 0) t.keep_best(e2e, result.kernel->milliseconds);
    }
    return result;
}

}  // namespace lorenz_bench
