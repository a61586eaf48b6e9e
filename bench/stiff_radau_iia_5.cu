// Pollution benchmark: radau_iia_5 with Gustafsson's predictive controller (as RADAU5), in
// float and double.

#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "stiff_bench.hpp"

namespace stiff_bench {

std::vector<row> run_radau_iia_5(const sweep& s) {
    return {run<float, cubie::radau_iia_5, cubie::gustafsson_controller>("radau_iia_5", s),
            run<double, cubie::radau_iia_5, cubie::gustafsson_controller>("radau_iia_5", s)};
}

}  // namespace stiff_bench
