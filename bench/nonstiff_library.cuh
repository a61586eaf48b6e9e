#pragma once
// The library's side of a non-stiff problem, for any float/double System template.

#include <limits>
#include <memory>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/explicit/vern9.hpp"
#include "library_contender.cuh"
#include "nonstiff_bench.hpp"

namespace nonstiff_bench {

template <template <class> class System>
library_side library_side_of() {
    return {
        [](const ensemble& s, double dt, double t_end) -> std::unique_ptr<contender> {
            return std::make_unique<
                bench::library_contender<System<float>, cubie::classical_rk4, cubie::fixed_step>>(
                s, bench::fixed_settings(dt, t_end));
        },
        [](const ensemble& s, double dt0, double tolerance,
           double t_end) -> std::unique_ptr<contender> {
            return std::make_unique<
                bench::library_contender<System<float>, cubie::tsit5, cubie::pi_controller>>(
                s, bench::adaptive_settings(dt0, tolerance, t_end));
        },
        [](const ensemble& s, double dt0, double t_end) {
            const std::vector<double> y0(s.y0.begin(), s.y0.end()),
                params(s.params.begin(), s.params.end());
            const auto r =
                cubie::solver<System<double>, cubie::vern9, cubie::pi_controller>{}.solve(
                    {s.n, y0, params}, bench::adaptive_settings(dt0, 1e-12, t_end),
                    cubie::backends::cuda{});
            std::vector<double> final_states(r.final_states.begin(), r.final_states.end());
            for (std::size_t i = 0; i < s.n; ++i)
                if (r.statuses[i] != cubie::status::success)
                    for (std::size_t k = 0; k < s.n_states; ++k)
                        final_states[k * s.n + i] = std::numeric_limits<double>::quiet_NaN();
            return final_states;
        }};
}

}  // namespace nonstiff_bench
