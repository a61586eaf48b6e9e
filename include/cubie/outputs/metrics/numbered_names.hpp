#pragma once
// Output names numbered from zero ("peak0", "peak1", ...), spelled at compile time for
// metrics whose number of outputs is a template parameter. The text lives in a static
// constexpr array of the metric; output_names points into it.

#include <cuda/std/array>
#include <cuda/std/cstddef>

namespace cubie::metrics {

/// One name: the prefix (Length counts its '\0'), up to 10 decimal digits and a '\0'.
template <cuda::std::size_t Length>
using numbered_name = cuda::std::array<char, Length + 10>;

/// prefix0, prefix1, ..., prefix{N-1}.
template <int N, cuda::std::size_t Length>
constexpr cuda::std::array<numbered_name<Length>, N> numbered_names(const char (&prefix)[Length]) {
    cuda::std::array<numbered_name<Length>, N> names{};
    for (int i = 0; i < N; ++i) {
        numbered_name<Length>& name = names[i];
        cuda::std::size_t end = 0;
        for (; end + 1 < Length; ++end) name[end] = prefix[end];
        char reversed[10] = {};
        int digits = 0;
        for (int rest = i; digits == 0 || rest > 0; rest /= 10)
            reversed[digits++] = '0' + rest % 10;
        while (digits > 0) name[end++] = reversed[--digits];
    }
    return names;
}

/// Pointers to the names of `text`, which must have static storage (a static constexpr
/// member) for the pointers to be constants.
template <cuda::std::size_t Size, cuda::std::size_t N>
constexpr cuda::std::array<const char*, N> name_pointers(
    const cuda::std::array<cuda::std::array<char, Size>, N>& text) {
    cuda::std::array<const char*, N> pointers{};
    for (cuda::std::size_t i = 0; i < N; ++i) pointers[i] = text[i].data();
    return pointers;
}

}  // namespace cubie::metrics
