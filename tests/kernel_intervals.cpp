// The kernel time of a chunked solve: the union of the chunks' kernel intervals, checked
// against a count of the unit cells some interval covers.

#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "cubie/backends/kernel_intervals.hpp"

TEST_CASE("kernel time is the union of the chunks' kernel intervals") {
    using cubie::backends::kernel_intervals;
    CHECK(kernel_intervals{}.covered() == 0.0f);

    kernel_intervals waits;  // two kernels with a wait for copies between them
    waits.add(0, 2);
    waits.add(5, 6);
    CHECK(waits.covered() == 3.0f);

    kernel_intervals overlapping;  // kernels of several streams at once, out of order
    overlapping.add(3, 7);
    overlapping.add(0, 4);
    overlapping.add(1, 2);
    overlapping.add(7, 8);
    CHECK(overlapping.covered() == 8.0f);

    std::mt19937 random(24);
    for (int trial = 0; trial < 200; ++trial) {
        std::uniform_int_distribution<int> count(1, 12), at(0, 60), length(0, 15);
        kernel_intervals union_of;
        std::vector<bool> cells(80, false);
        for (int k = count(random); k > 0; --k) {
            const int start = at(random), stop = start + length(random);
            union_of.add(float(start), float(stop));
            for (int c = start; c < stop; ++c) cells[c] = true;
        }
        int covered = 0;
        for (const bool c : cells) covered += c ? 1 : 0;
        CHECK(union_of.covered() == float(covered));
    }
}
