#pragma once
// The value of an output a trajectory never recorded (it failed before reaching it, or was
// never started): the NaN with every bit set. It is what a cudaMemset of the byte 0xFF
// writes, which is how the device marks a result cheaply, so the host marks its results with
// it too, and the loop writes it where it sets a save NaN itself (output_recorder): one
// result holds one pattern, and the host's and the device's are the same bits.

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "cubie/core/config.hpp"

namespace cubie {

template <class T>
CUBIE_HD constexpr T unrecorded_nan() {
    static_assert(cuda::std::is_floating_point_v<T> && (sizeof(T) == 4 || sizeof(T) == 8));
    using bits = cuda::std::conditional_t<sizeof(T) == 8, cuda::std::uint64_t, cuda::std::uint32_t>;
    return cuda::std::bit_cast<T>(~bits{0});
}

}  // namespace cubie
