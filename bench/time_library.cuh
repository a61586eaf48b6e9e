#pragma once
// Times repeated library solves of a sweep: fastest e2e and kernel time after a warm-up.

#include "cubie/batch/solver.hpp"
#include "cubie/systems/lorenz.hpp"
#include "lorenz_bench.hpp"

namespace lorenz_bench {

template <class Method, class Controller>
cubie::batch_result<float> time_library(const sweep& s, int repeat, timing& t,
                                        const cubie::solve_settings<Controller>& settings) {
    const cubie::solver<cubie::systems::lorenz<float>, Method, Controller> solver;
    cubie::batch_result<float> result;
    for (int r = 0; r <= repeat; ++r) {  // r == 0: warm-up
        const double t0 = now_ms();
        result = solver.solve({s.n, s.y0, s.rho}, settings, cubie::backends::cuda{});
        const double e2e = now_ms() - t0;
        if (r > 0) t.keep_best(e2e, result.kernel->milliseconds);
    }
    return result;
}

}  // namespace lorenz_bench
