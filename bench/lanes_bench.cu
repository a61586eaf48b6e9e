// Explicit methods with the state dealt out over lanes (on_lanes<tsit5, G>,
// loop/lane_system.hpp) against one thread per trajectory, measured in one run: Lorenz 96
// at 16 to 128 sites (each generated here, measured in bench/lanes_lorenz96.cu), Tsit5 with
// a PI controller (atol = rtol = 1e-5, dt0 = t_end / 1024) and RK4 with 1024 fixed steps,
// in float and double, final states, or with summaries (every site's mean, maximum and
// minimum over 512 samples). F = linspace(0, 16, N), x_i = F with x_0 raised by 0.01, t in
// [0, 10].
//
//   lanes_bench [--log2n K] [--repeat R] [--sites 16,32,40,48,56,64,128]
//               [--methods tsit5,rk4] [--precisions float,double] [--outputs final,summaries]

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "device_banner.cuh"
#include "lanes_bench.hpp"

int main(int argc, char** argv) {
    int log2n = 17, repeat = 3;
    std::string sites = "16,32,64,128", methods = "tsit5,rk4", precisions = "float",
                outputs = "final";
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!std::strcmp(argv[a], "--log2n"))
            log2n = std::atoi(argv[a + 1]);
        else if (!std::strcmp(argv[a], "--repeat"))
            repeat = std::atoi(argv[a + 1]);
        else if (!std::strcmp(argv[a], "--sites"))
            sites = argv[a + 1];
        else if (!std::strcmp(argv[a], "--methods"))
            methods = argv[a + 1];
        else if (!std::strcmp(argv[a], "--precisions"))
            precisions = argv[a + 1];
        else if (!std::strcmp(argv[a], "--outputs"))
            outputs = argv[a + 1];
    }
    bench::print_device_banner();
    std::printf(
        "Lorenz 96, N = 2^%d, %s, t in [0, 10], outputs %s, best of %d: tsit5 + PI at "
        "atol = rtol = 1e-5 from dt0 = 10/1024; rk4 at dt = 10/1024\n",
        log2n, precisions.c_str(), outputs.c_str(), repeat);
    const lanes_bench::request q{methods, precisions, outputs, std::size_t{1} << log2n, repeat};
    [&]<std::size_t... k>(std::index_sequence<k...>) {
        constexpr auto& all = lanes_bench::lorenz96_sites;
        const auto measure = [&]<int Sites>() {
            if (!lanes_bench::lists(sites, std::to_string(Sites))) return;
            if (lanes_bench::lists(outputs, "final"))
                lanes_bench::measure_lorenz96<Sites, false>(q);
            if (lanes_bench::lists(outputs, "summaries"))
                lanes_bench::measure_lorenz96<Sites, true>(q);
        };
        (measure.template operator()<all[k]>(), ...);
    }
    (std::make_index_sequence<std::size(lanes_bench::lorenz96_sites)>{});
    return 0;
}
