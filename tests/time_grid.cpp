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
