// The stiff methods give the same trajectories on the host and on the device: Pollution over
// a k1 sweep (the benchmark's problem) in double, every trajectory's status, final state
// and work compared between backends::host and backends::cuda. The two differ only in
// rounding (nvcc contracts to FMA, the host compiler need not), which an adaptive solve may
// amplify into a different step sequence, so final states are compared in units of the
// tolerance and step counts within a few steps, not bit for bit.

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/backends/host.hpp"
#include "cubie/catalogue/pollution.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"

using namespace cubie;

namespace {

using pollution = catalogue::pollution<double>;
constexpr std::size_t n = 64;
constexpr double tol = 1e-8;

template <class Method, class Controller = pi_controller>
void check_backends_agree() {
    INFO(Method::name);
    std::vector<double> y0(pollution::n_states * n), k1(n);
    for (int s = 0; s < pollution::n_states; ++s)
        for (std::size_t i = 0; i < n; ++i) y0[s * n + i] = pollution::default_state[s];
    for (std::size_t i = 0; i < n; ++i) k1[i] = 3.5e-2 * std::pow(100.0, double(i) / (n - 1));
    solve_settings<Controller> settings;
    settings.t_end = 60;
    settings.dt = 60.0 / 1024;
    settings.atol = settings.rtol = {tol};
    const solver<pollution, Method, Controller> s;
    const batch_inputs<double> inputs{n, y0, k1};
    const auto host = s.solve(inputs, settings, backends::host{});
    const auto device = s.solve(inputs, settings, backends::cuda{});
    REQUIRE(host.failures() == 0);
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        CHECK(device.statuses[i] == host.statuses[i]);
        double worst = 0;
        for (int v = 0; v < pollution::n_states; ++v) {
            const double h = host.final_state(v, i), d = device.final_state(v, i);
            worst = std::max(worst, std::abs(h - d) / (tol + tol * std::abs(h)));
        }
        CHECK(worst <= 1.0);
        const auto steps = [](const batch_result<double>& r, std::size_t j) {
            return double(r.accepted_steps[j] + r.rejected_steps[j]);
        };
        CHECK(std::abs(steps(device, i) - steps(host, i)) <= 0.05 * steps(host, i) + 2);
        CHECK(std::abs(double(device.linear_iterations[i]) - double(host.linear_iterations[i])) <=
              0.1 * double(host.linear_iterations[i]) + 20);
    }
}

}  // namespace

TEST_CASE("stiff methods: host and cuda backends agree on a Pollution sweep") {
    check_backends_agree<rosenbrock23>();
    check_backends_agree<rodas5p>();
    check_backends_agree<kvaerno5>();
    check_backends_agree<radau_iia_5, gustafsson_controller>();
}
