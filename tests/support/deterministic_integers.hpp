#pragma once
// Integers drawn the same on every compiler and standard library (std::uniform_int_distribution
// is not specified bit for bit): a 64-bit linear congruential generator, for the linear
// algebra tests' exact integer systems.

#include <cstdint>

namespace cubie::testing {

/// Deterministic integers in [low, high].
class deterministic_integers {
public:
    explicit deterministic_integers(std::uint64_t seed) : state_(seed) {}
    int operator()(int low, int high) {
        state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
        return low + static_cast<int>((state_ >> 33) % static_cast<std::uint64_t>(high - low + 1));
    }

private:
    std::uint64_t state_;
};

}  // namespace cubie::testing
