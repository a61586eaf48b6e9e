#pragma once
// Compile-time loops. The body receives cuda::std::integral_constant indices, so tableau
// coefficients read inside it are constant expressions: zero coefficients vanish at
// compile time and per-thread arrays indexed by them stay in registers.

#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "cubie/core/config.hpp"

namespace cubie {

template <int Count, class Body>
CUBIE_HD constexpr void static_for(Body&& body) {
    [&]<int... I>(cuda::std::integer_sequence<int, I...>) {
        (body(cuda::std::integral_constant<int, I>{}), ...);
    }
    (cuda::std::make_integer_sequence<int, Count>{});
}

}  // namespace cubie
