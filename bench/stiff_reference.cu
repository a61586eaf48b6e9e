// Pollution benchmark: the float64 reference final states, by rodas5p at rtol 1e-10 and
// atol 1e-14 on the device, checked against kvaerno5 at the same tolerances.

#include <stdexcept>

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "stiff_bench.hpp"

namespace stiff_bench {

namespace {

template <class Method>
cubie::batch_result<double> tight_solve(const sweep& s) {
    auto settings = timing_settings<cubie::pi_controller>(1e-10);
    settings.atol = {1e-14};
    std::vector<double> states, parameters;
    const auto r = cubie::solver<pollution<double>, Method, cubie::pi_controller>{}.solve(
        s.inputs(states, parameters), settings, cubie::backends::cuda{});
    if (r.failures() != 0)
        throw std::runtime_error(std::string("the reference solve by ") + Method::name +
                                 " failed for " + std::to_string(r.failures()) + " trajectories");
    return r;
}

}  // namespace

std::vector<double> reference_states(const sweep& s, double& disagreement) {
    const auto reference = tight_solve<cubie::rodas5p>(s);
    const auto check = tight_solve<cubie::kvaerno5>(s);
    disagreement = 0;
    for (std::size_t k = 0; k < reference.final_states.size(); ++k) {
        const double ref = reference.final_states[k];
        disagreement = std::max(
            disagreement, std::abs(check.final_states[k] - ref) / (s.tol + s.tol * std::abs(ref)));
    }
    return {reference.final_states.begin(), reference.final_states.end()};
}

}  // namespace stiff_bench
