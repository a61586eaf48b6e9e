// Integrates a few Lorenz trajectories with the installed headers, hand-written and from
// the installed catalogue; exits non-zero unless every trajectory succeeds.
#include <cstdio>
#include <vector>

#include "cubie/catalogue/lorenz.hpp"
#include "cubie/cubie.hpp"

int main() {
    constexpr std::size_t n = 4;
    const std::vector<double> y0 = {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    const std::vector<double> rho = {0, 7, 14, 21};
    cubie::solve_settings<cubie::pi_controller> settings;
    settings.dt = 1.0 / 1024;
    const auto result =
        cubie::solver<cubie::systems::lorenz<double>, cubie::tsit5, cubie::pi_controller>{}.solve(
            {n, y0, rho}, settings, cubie::backends::host{});
    const auto generated =
        cubie::solver<cubie::catalogue::lorenz<double>, cubie::tsit5, cubie::pi_controller>{}.solve(
            {n, y0, rho}, settings, cubie::backends::host{});
    std::printf("%zu trajectories, %zu + %zu failures\n", result.n_trajectories, result.failures(),
                generated.failures());
    return result.failures() + generated.failures() == 0 ? 0 : 1;
}
