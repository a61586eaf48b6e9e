// The library's side of Pleiades (the catalogue's committed header).

#include "cubie/catalogue/pleiades.hpp"
#include "nonstiff_library.cuh"

namespace nonstiff_bench {

library_side pleiades_library() {
    return library_side_of<cubie::catalogue::pleiades>();
}

}  // namespace nonstiff_bench
