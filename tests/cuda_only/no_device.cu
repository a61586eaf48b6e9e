// The cuda backend on a machine where the CUDA runtime finds no device (no GPU, or no
// driver): the solve says that no device was found and how to solve on the host instead.
// Where a device is present the same solve succeeds. Runs on every machine (no skip).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cubie/algorithms/explicit/euler.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/catalogue/exponential_decay.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/solver/solver.hpp"

using namespace cubie;

TEST_CASE("without a device, the cuda backend says no device was found and names the host") {
    const std::vector<double> y0 = {1, 1}, k = {1, 2};
    solve_settings<fixed_step> settings;
    settings.dt = 1.0 / 16;
    const solver<catalogue::exponential_decay<double>, euler, fixed_step> s;
    if (backends::cuda_device_available()) {
        const auto r = s.solve({2, y0, k}, settings, backends::cuda{});
        CHECK(r.failures() == 0);
        return;
    }
    try {
        static_cast<void>(s.solve({2, y0, k}, settings, backends::cuda{}));
        FAIL("the cuda backend solved without a device");
    } catch (const cuda_error& e) {
        const std::string message = e.what();
        INFO(message);
        CHECK(means_no_device(e.code()));
        CHECK(message.rfind("no CUDA device was found", 0) == 0);
        CHECK(message.find("cubie::backends::host") != std::string::npos);
        CHECK(message.find(".hpp:") != std::string::npos);  // the failing call, still named
    }
    // The automatic backend takes the host where no device is present.
    CHECK(s.solve({2, y0, k}, settings).backend == "host");
}
