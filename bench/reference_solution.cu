// The float64 reference of the benchmark sweep: vern9 in double at rtol = atol = 1e-12.

#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "lorenz_bench.hpp"

namespace lorenz_bench {

std::vector<double> reference_final_states(const ensemble& s) {
    const std::vector<double> y0(s.y0.begin(), s.y0.end()), rho(s.params.begin(), s.params.end());
    cubie::solve_settings<cubie::pi_controller> tight;
    tight.dt = dt_fixed;
    tight.atol = tight.rtol = {1e-12};
    const auto r =
        cubie::solver<cubie::catalogue::lorenz<double>, cubie::vern9, cubie::pi_controller>{}.solve(
            {s.n, y0, rho}, tight, cubie::backends::cuda{});
    return {r.final_states.begin(), r.final_states.end()};
}

}  // namespace lorenz_bench
