// Pollution benchmark: the methods that lanes can share (rosenbrock23, rodas5p, kvaerno5,
// radau_iia_5)
// with every trajectory integrated by STIFF_LANES lanes (algorithms/on_lanes.hpp), in float
// and double; one translation unit per lane count (bench/CMakeLists.txt).

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "stiff_bench.hpp"

namespace stiff_bench {

template <>
std::vector<row> run_on_lanes<STIFF_LANES>(const sweep& s) {
    using rosenbrock23 = cubie::on_lanes<cubie::rosenbrock23, STIFF_LANES>;
    using rodas5p = cubie::on_lanes<cubie::rodas5p, STIFF_LANES>;
    using kvaerno5 = cubie::on_lanes<cubie::kvaerno5, STIFF_LANES>;
    using radau_iia_5 = cubie::on_lanes<cubie::radau_iia_5, STIFF_LANES>;
    return {run<float, rosenbrock23, cubie::pi_controller>("rosenbrock23", s),
            run<double, rosenbrock23, cubie::pi_controller>("rosenbrock23", s),
            run<float, rodas5p, cubie::pi_controller>("rodas5p", s),
            run<double, rodas5p, cubie::pi_controller>("rodas5p", s),
            run<float, kvaerno5, cubie::pi_controller>("kvaerno5", s),
            run<double, kvaerno5, cubie::pi_controller>("kvaerno5", s),
            run<float, radau_iia_5, cubie::gustafsson_controller>("radau_iia_5", s),
            run<double, radau_iia_5, cubie::gustafsson_controller>("radau_iia_5", s)};
}

}  // namespace stiff_bench
