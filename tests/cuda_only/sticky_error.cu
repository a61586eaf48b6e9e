// A kernel that faults leaves a sticky error: the batch solve reports it with the kernel
// it ran, and every later solve in the process says why it cannot run rather than
// returning garbage. (Deliberately faults: not run under compute-sanitizer.)

#include <doctest/doctest.h>

#include <vector>

#include "cubie/algorithms/explicit/euler.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/solver/solver.hpp"

using namespace cubie;

namespace cubie::testing {

/// y' = -y, but a negative parameter makes the device write through a null pointer.
struct faulting_decay {
    using value_type = double;
    static constexpr int n_states = 1;
    static constexpr int n_parameters = 1;
    static constexpr int n_observables = 0;
    static constexpr int n_drivers = 0;
    CUBIE_HD void rhs(double, const state_t<faulting_decay>& y,
                      const parameters_t<faulting_decay>& p, const drivers_t<faulting_decay>&,
                      state_t<faulting_decay>& dydt) const {
#if defined(__CUDA_ARCH__)
        if (p[0] < 0) *static_cast<volatile double*>(nullptr) = y[0];
#endif
        dydt[0] = -p[0] * y[0];
    }
};

}  // namespace cubie::testing

using cubie::testing::faulting_decay;

TEST_CASE("a faulting kernel is reported as sticky, and later solves say why they fail") {
    solve_settings<fixed_step> settings;
    settings.dt = 0.1;
    const std::vector<double> y0 = {1, 1};
    const solver<faulting_decay, euler, fixed_step> faulting;

    CHECK_THROWS_WITH_AS(
        faulting.solve({2, y0, std::vector<double>{1, -1}}, settings, backends::cuda{}),
        doctest::Contains("batch kernel (euler, fixed) failed: "
                          "cudaErrorIllegalAddress"),
        cuda_error);

    const solver<catalogue::exponential_decay<double>, euler, fixed_step> healthy;
    CHECK_THROWS_WITH_AS(
        healthy.solve({2, y0, std::vector<double>{1, 2}}, settings, backends::cuda{}),
        doctest::Contains("this error is sticky"), cuda_error);
}
