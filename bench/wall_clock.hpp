#pragma once
// The benchmarks' wall clock, in milliseconds.

#include <chrono>

namespace bench {

inline double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace bench
