// The library's side of Lorenz 96 with LORENZ96_SITES sites, one translation unit per size:
// bench/CMakeLists.txt generates the System (LORENZ96_SYSTEM, in LORENZ96_HEADER) of each.

#include LORENZ96_HEADER
#include "nonstiff_library.cuh"

namespace nonstiff_bench {

template <>
library_side lorenz96_library<LORENZ96_SITES>() {
    return library_side_of<cubie::catalogue::LORENZ96_SYSTEM>();
}

}  // namespace nonstiff_bench
