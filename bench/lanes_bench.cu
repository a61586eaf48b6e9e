// Explicit methods with the state dealt out over lanes (on_lanes<tsit5, G>,
// loop/lane_system.hpp) against one thread per trajectory, measured in one run: Lorenz 96
// at 16 to 128 sites (each generated here), Tsit5 with a PI controller (atol = rtol = 1e-5,
// dt0 = t_end / 1024) and RK4 with 1024 fixed steps, float32, final states only.
// F = linspace(0, 16, N), x_i = F with x_0 raised by 0.01, t in [0, 10]. For each method,
// size and mapping: the kernel's milliseconds
// (best of the repeats), registers, local memory and block size, its ratio to one thread,
// and the largest difference of its final states from one thread's relative to 1 + |x|
// (large where F makes the system chaotic: float solutions whose step sizes differ in the
// last bits part).
//
//   lanes_bench [--log2n K] [--repeat R] [--sites 16,32,64,128] [--methods tsit5,rk4]

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/catalogue/lorenz96_128.hpp"
#include "cubie/catalogue/lorenz96_16.hpp"
#include "cubie/catalogue/lorenz96_32.hpp"
#include "cubie/catalogue/lorenz96_64.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "device_banner.cuh"

namespace {

struct run {
    double milliseconds = 1e300;
    cubie::batch_result<float> result;
};

template <class System, class Algorithm, class Controller>
run measure(const cubie::batch_inputs<float>& inputs, const cubie::solve_settings<Controller>& s,
            int repeat) {
    const cubie::solver<System, Algorithm, Controller> solver;
    run r;
    for (int k = 0; k <= repeat; ++k) {  // the first solve warms up
        cubie::batch_result<float> result = solver.solve(inputs, s, cubie::backends::cuda{});
        if (k > 0) r.milliseconds = std::min(r.milliseconds, double(result.kernel->milliseconds));
        r.result = std::move(result);
    }
    return r;
}

void report(int sites, const char* name, const run& r, const run& one) {
    double worst = 0;
    std::size_t differing_status = 0;
    const std::size_t n = r.result.statuses.size();
    for (std::size_t k = 0; k < n; ++k)
        if (r.result.statuses[k] != one.result.statuses[k]) ++differing_status;
    for (std::size_t k = 0; k < r.result.final_states.size(); ++k) {
        const double a = r.result.final_states[k], b = one.result.final_states[k];
        if (std::isfinite(b)) worst = std::max(worst, std::fabs(a - b) / (1 + std::fabs(b)));
    }
    const cubie::kernel_report& kr = *r.result.kernel;
    std::printf(
        "%4d sites  %-28s %9.3f ms  ratio %5.2f  regs %3d  local %5zu B  block %4d  "
        "max diff %.2e  statuses differing %zu\n",
        sites, name, r.milliseconds, one.milliseconds / r.milliseconds, kr.registers,
        static_cast<std::size_t>(kr.local_bytes), kr.block_size, worst, differing_status);
}

/// Method (Controller) on System under one thread and each tile of lanes.
template <class System, class Method, class Controller>
void measure_mappings(const char* method, std::size_t n, int repeat) {
    constexpr int sites = System::n_states;
    std::vector<float> states(sites * n), forcing(n);
    for (std::size_t k = 0; k < n; ++k) {
        forcing[k] = float(16.0 * double(k) / double(n - 1));
        for (int v = 0; v < sites; ++v) states[std::size_t(v) * n + k] = forcing[k];
        states[k] += 0.01f;
    }
    cubie::solve_settings<Controller> s;
    s.t_end = 10;
    s.dt = 10.0 / 1024;
    s.atol = s.rtol = {1e-5};
    s.max_steps = 1000000;
    const cubie::batch_inputs<float> inputs{n, states, forcing};
    using cubie::on_lanes;
    const run one = measure<System, on_lanes<Method, 1>>(inputs, s, repeat);
    const auto name = [&](int lanes) {
        return std::string(method) +
               (lanes == 1 ? ", one thread" : ", " + std::to_string(lanes) + " lanes");
    };
    report(sites, name(1).c_str(), one, one);
    report(sites, name(4).c_str(), measure<System, on_lanes<Method, 4>>(inputs, s, repeat), one);
    report(sites, name(8).c_str(), measure<System, on_lanes<Method, 8>>(inputs, s, repeat), one);
    report(sites, name(16).c_str(), measure<System, on_lanes<Method, 16>>(inputs, s, repeat), one);
    report(sites, name(32).c_str(), measure<System, on_lanes<Method, 32>>(inputs, s, repeat), one);
}

template <class System>
void measure_sites(const std::string& methods, std::size_t n, int repeat) {
    if (("," + methods + ",").find(",tsit5,") != std::string::npos)
        measure_mappings<System, cubie::tsit5, cubie::pi_controller>("tsit5", n, repeat);
    if (("," + methods + ",").find(",rk4,") != std::string::npos)
        measure_mappings<System, cubie::classical_rk4, cubie::fixed_step>("rk4", n, repeat);
}

}  // namespace

int main(int argc, char** argv) {
    int log2n = 17, repeat = 3;
    std::string sites = "16,32,64,128", methods = "tsit5,rk4";
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!std::strcmp(argv[a], "--log2n"))
            log2n = std::atoi(argv[a + 1]);
        else if (!std::strcmp(argv[a], "--repeat"))
            repeat = std::atoi(argv[a + 1]);
        else if (!std::strcmp(argv[a], "--sites"))
            sites = argv[a + 1];
        else if (!std::strcmp(argv[a], "--methods"))
            methods = argv[a + 1];
    }
    bench::print_device_banner();
    std::printf(
        "Lorenz 96, N = 2^%d, float32, t in [0, 10], final states, best of %d: tsit5 + "
        "PI at atol = rtol = 1e-5 from dt0 = 10/1024; rk4 at dt = 10/1024\n",
        log2n, repeat);
    const std::size_t n = std::size_t{1} << log2n;
    const auto wanted = [&](int count) {
        return ("," + sites + ",").find("," + std::to_string(count) + ",") != std::string::npos;
    };
    using namespace cubie::catalogue;
    if (wanted(16)) measure_sites<lorenz96_16<float>>(methods, n, repeat);
    if (wanted(32)) measure_sites<lorenz96_32<float>>(methods, n, repeat);
    if (wanted(64)) measure_sites<lorenz96_64<float>>(methods, n, repeat);
    if (wanted(128)) measure_sites<lorenz96_128<float>>(methods, n, repeat);
    return 0;
}
