// divergent_bench's Pleiades configuration: Tsit5.

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/pleiades.hpp"
#include "divergent_library.cuh"

namespace divergent_bench {

measurement pleiades_tsit5(const ensemble& e, const case_settings& s, int repeat) {
    return measure<cubie::catalogue::pleiades<float>, cubie::tsit5>(e, s, repeat);
}

}  // namespace divergent_bench
