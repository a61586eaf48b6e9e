// Output time grids: the next time of a grid, decided on its index alone, against the
// definition by the count of its points.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "cubie/outputs/time_grid.hpp"

TEST_CASE("a grid's next time is its point, or never past the last one") {
    const float never = std::numeric_limits<float>::infinity();
    for (const std::uint32_t first_k : {0u, 1u})
        for (std::uint32_t last_k = 0; last_k < 12; ++last_k)
            for (const bool final_point : {false, true}) {
                cubie::time_grid<float> g;
                g.t0 = 0.5f;
                g.every = 0.1f;
                g.t_end = 0.5f + 0.1f * float(last_k) + (final_point ? 0.05f : 0.0f);
                g.span = g.t_end - g.t0;
                g.first_k = first_k;
                g.last_k = last_k;
                g.final_point = final_point;
                for (std::uint32_t index = 0; index < g.count() + 3; ++index) {
                    CAPTURE(first_k);
                    CAPTURE(last_k);
                    CAPTURE(final_point);
                    CAPTURE(index);
                    const std::uint32_t k = first_k + index;
                    const bool point = index < g.count();
                    CHECK(g.time_or_never(index) == (point ? g.time(index) : never));
                    const float since =
                        k <= last_k ? std::fmin(float(k) * g.every, g.span) : g.span;
                    CHECK(g.since_t0_or_never(index) == (point ? since : never));
                }
            }
}

TEST_CASE("a grid's points as counts of fixed steps: k every_steps, clamped to the last step") {
    // The definition: point index's k every_steps steps, unless that passes n_steps, where
    // time() clamps it to t_end; t_end itself after n_steps.
    const std::uint64_t never = cubie::time_grid<float>::never();
    for (const std::uint32_t first_k : {0u, 1u})
        for (std::uint32_t last_k = 0; last_k < 6; ++last_k)
            for (const bool final_point : {false, true})
                for (const std::uint32_t every_steps : {1u, 3u, 10u})
                    for (const std::uint32_t n_steps :
                         {last_k * every_steps, last_k * every_steps + 2}) {
                        cubie::time_grid<float> g;
                        g.first_k = first_k;
                        g.last_k = last_k;
                        g.final_point = final_point;
                        g.every_steps = every_steps;
                        CAPTURE(first_k);
                        CAPTURE(last_k);
                        CAPTURE(final_point);
                        CAPTURE(every_steps);
                        CAPTURE(n_steps);
                        std::uint64_t previous = 0;
                        for (std::uint32_t index = 0; index < g.count() + 3; ++index) {
                            CAPTURE(index);
                            const std::uint64_t k = first_k + index;
                            const std::uint64_t step = g.step_or_never(index, n_steps);
                            if (k <= last_k)
                                CHECK(step == k * every_steps);
                            else if (index < g.count())
                                CHECK(step == n_steps);
                            else
                                CHECK(step == never);
                            if (index > 0 && index < g.count()) CHECK(step >= previous);
                            previous = step;
                        }
                    }
}

TEST_CASE("step counts past 2^32: clamped to the last step, never distinct from every count") {
    cubie::time_grid<double> g;
    g.first_k = 1;
    g.last_k = 3;
    g.final_point = true;
    g.every_steps = 0x7fffffffu;  // k every_steps passes 2^32 from k = 3 on
    const std::uint32_t n_steps = 0xffffffffu;
    CHECK(g.step_or_never(0, n_steps) == 0x7fffffffu);
    CHECK(g.step_or_never(1, n_steps) == 0xfffffffeu);
    CHECK(g.step_or_never(2, n_steps) == n_steps);  // 3 every_steps > n_steps
    CHECK(g.step_or_never(3, n_steps) == n_steps);  // t_end
    CHECK(g.step_or_never(4, n_steps) == cubie::time_grid<double>::never());
    CHECK(cubie::time_grid<double>::never() > n_steps);
}
