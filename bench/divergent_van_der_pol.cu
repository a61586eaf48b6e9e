// divergent_bench's stiffness sweep: Rosenbrock23 on Van der Pol.

#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "divergent_library.cuh"

namespace divergent_bench {

measurement van_der_pol_rosenbrock23(const ensemble& e, const case_settings& s, int repeat) {
    return measure<cubie::catalogue::van_der_pol<float>, cubie::rosenbrock23>(e, s, repeat);
}

}  // namespace divergent_bench
