// The library needs C++20 in every translation unit, nvcc's included: CMake 3.25 would
// silently compile CUDA as C++17 if the build did not ask nvcc for C++20 itself.

#include <doctest/doctest.h>

#include "support/test_backend.hpp"

static_assert(__cplusplus >= 202002L, "compiled below C++20");

TEST_CASE("translation unit is compiled as C++20") {
    INFO("backend: " << cubie::testing::test_backend_name << ", __cplusplus = " << __cplusplus);
    CHECK(__cplusplus >= 202002L);
}
