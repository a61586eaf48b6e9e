// Divergent ensembles: static against balanced and automatic scheduling
// (batch/scheduling.hpp), float32, final states only, kernel time (inputs and outputs in
// device memory), fastest of --repeat after a warm-up, the schedules' solves alternating.
// Cases:
//   lorenz          Lorenz, rho = linspace(0, 200, N), x0 = (1, 0, 0), t in [0, 10], Tsit5:
//                   fixed points, the origin and chaos in one sweep
//   lorenz_shuffled the same values of rho in a random order (a Monte Carlo sample, or a
//                   grid whose fastest-varying axis is another): every warp holds them all
//   pleiades        Pleiades, m1 = linspace(0.5, 2, N), t in [0, 3], Tsit5: close
//                   encounters; in float about 7% of the trajectories end in a step-size
//                   underflow (on the host at 2^14: 213 steps on average, at most 1,083)
//   pleiades_shuffled  the same m1 in a random order
//   van_der_pol     a stiffness sweep: Van der Pol, mu = logspace(0.1, 1000, N),
//                   x0 = (2, 0), t in [0, 30], Rosenbrock23: 27 to 1,200 steps
//   van_der_pol_shuffled  the same mu in a random order
//   uniform         Lorenz at rho = 28 for every trajectory, t in [0, 1], Tsit5: no
//                   divergence at all, the cost of balancing alone
// All at atol = rtol = 1e-5 from dt0 = t_end / 1024. For each case and N: the attempted
// steps per trajectory (mean, p99, max), the static mapping's lane use (batch/lane_use.hpp),
// kernel ms of each schedule and its ratio to static, what automatic chose and the lane use
// of the first sample it measured (a block on every multiprocessor), whether all agree bit
// for bit, registers and the first launch of static and balanced.
// max_steps applies to every case.
//
//   divergent_bench [--log2n 20,24] [--repeat 3] [--max-steps 1000000]
//                   [--cases lorenz,lorenz_shuffled,pleiades,...]

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/batch/lane_use.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "device_banner.cuh"
#include "divergent_library.cuh"

namespace divergent_bench {

measurement lorenz_tsit5(const ensemble& e, const case_settings& s, int repeat) {
    return measure<cubie::catalogue::lorenz<float>, cubie::tsit5>(e, s, repeat);
}

}  // namespace divergent_bench

namespace {

using namespace divergent_bench;

constexpr double tolerance = 1e-5;

/// n trajectories from one initial state, the parameter `value(i)`.
template <class Value>
ensemble make_ensemble(std::size_t n, const std::vector<float>& initial, Value value) {
    ensemble e{n, std::vector<float>(initial.size() * n), std::vector<float>(n)};
    for (std::size_t v = 0; v < initial.size(); ++v)
        std::fill_n(e.y0.begin() + static_cast<std::ptrdiff_t>(v * n), n, initial[v]);
    for (std::size_t i = 0; i < n; ++i)
        e.params[i] = static_cast<float>(value(double(i) / double(n - 1)));
    return e;
}

/// The same parameters in a random order (a fixed seed).
ensemble shuffled(ensemble e) {
    std::mt19937_64 random(20261125);
    std::shuffle(e.params.begin(), e.params.end(), random);
    return e;
}

struct bench_case {
    std::string name;
    std::string description;
    measurement (*solve)(const ensemble&, const case_settings&, int);
    double t_end;
    ensemble (*inputs)(std::size_t n);
};

ensemble lorenz_sweep(std::size_t n) {
    return make_ensemble(n, {1, 0, 0}, [](double x) { return 200 * x; });
}
ensemble pleiades_sweep(std::size_t n) {
    return make_ensemble(n, {3, 3, -1, -3, 2, -2,    2,     3, -3, 2, 0,      0, -4, 4,
                             0, 0, 0,  0,  0, 1.75f, -1.5f, 0, 0,  0, -1.25f, 1, 0,  0},
                         [](double x) { return 0.5 + 1.5 * x; });
}
ensemble van_der_pol_sweep(std::size_t n) {
    return make_ensemble(n, {2, 0}, [](double x) { return 0.1 * std::pow(1e4, x); });
}

const std::vector<bench_case>& all_cases() {
    static const std::vector<bench_case> cases = {
        {"lorenz", "Lorenz, rho = linspace(0, 200), t in [0, 10], tsit5", lorenz_tsit5, 10,
         lorenz_sweep},
        {"lorenz_shuffled", "the same rho shuffled", lorenz_tsit5, 10,
         [](std::size_t n) { return shuffled(lorenz_sweep(n)); }},
        {"pleiades", "Pleiades, m1 = linspace(0.5, 2), t in [0, 3], tsit5", pleiades_tsit5, 3,
         pleiades_sweep},
        {"pleiades_shuffled", "the same m1 shuffled", pleiades_tsit5, 3,
         [](std::size_t n) { return shuffled(pleiades_sweep(n)); }},
        {"van_der_pol", "Van der Pol, mu = logspace(0.1, 1000), t in [0, 30], rosenbrock23",
         van_der_pol_rosenbrock23, 30, van_der_pol_sweep},
        {"van_der_pol_shuffled", "the same mu shuffled", van_der_pol_rosenbrock23, 30,
         [](std::size_t n) { return shuffled(van_der_pol_sweep(n)); }},
        {"uniform", "Lorenz, rho = 28 for all, t in [0, 1], tsit5", lorenz_tsit5, 1,
         [](std::size_t n) {
             return make_ensemble(n, {1, 0, 0}, [](double) { return 28.0; });
         }},
    };
    return cases;
}

void print_row(const bench_case& c, int log2n, const measurement& m) {
    std::vector<std::uint32_t> sorted = m.steps;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    double sum = 0;
    for (const std::uint32_t s : m.steps) sum += s;
    const double mean = sum / double(n);
    const std::vector<std::uint32_t> none(n, 0);
    const double lane_use = cubie::lane_use(cubie::warps_of(m.steps.data(), none.data(), n));
    const schedule_timing& fixed = m.timings[0];
    std::printf("%-21s 2^%-3d %8.1f %6u %6u %8zu %5.2f", c.name.c_str(), log2n, mean,
                sorted[std::min(n - 1, n * 99 / 100)], sorted[n - 1], m.failures, lane_use);
    for (std::size_t s = 0; s < n_schedules; ++s) {
        const schedule_timing& t = m.timings[s];
        std::printf(" %10.3f", t.kernel_ms);
        if (s > 0) std::printf(" %5.2fx", fixed.kernel_ms / t.kernel_ms);
    }
    const schedule_timing& automatic = m.timings[2];
    std::printf("  %-8s %5.2f %9.3f %9.3f  %-3s %3d/%3d", automatic.chosen.c_str(),
                automatic.lane_use, fixed.wall_ms, automatic.wall_ms, m.identical ? "yes" : "NO",
                fixed.registers, m.timings[1].registers);
    for (std::size_t s = 0; s < 2; ++s)
        std::printf("%s%zu x %d", s == 0 ? "  " : " / ", m.timings[s].blocks,
                    m.timings[s].block_size);
    std::printf("\n");
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> log2n = {20, 24};
    int repeat = 3;
    std::uint64_t max_steps = 1'000'000;
    std::vector<std::string> names;
    for (const bench_case& c : all_cases()) names.push_back(c.name);
    if (!bench::parse_flags(
            argc, argv,
            {{"--log2n", [&](const std::string& v) { log2n = bench::parse_list<int>(v); }},
             {"--repeat", [&](const std::string& v) { repeat = std::stoi(v); }},
             {"--max-steps", [&](const std::string& v) { max_steps = std::stoull(v); }},
             {"--cases", [&](const std::string& v) { names = bench::parse_names(v); }}},
            "usage: divergent_bench [--log2n 20,24] [--repeat 3] [--max-steps 1000000] "
            "[--cases lorenz,lorenz_shuffled,pleiades,...]"))
        return 2;
    try {
        bench::print_device_banner();
        std::printf(
            "float32, final states only, atol = rtol = %g, dt0 = t_end / 1024, PI "
            "controller, max_steps %llu; kernel ms, fastest of %d after a warm-up, schedules "
            "alternating; ratio = static / the schedule; automatic: what it chose after its "
            "first sample, and that sample's lane use (-1: too few waves to measure); wall: "
            "ms of the whole solve call, static and automatic\n",
            tolerance, static_cast<unsigned long long>(max_steps), repeat);
        for (const std::string& name : names) {
            const auto c = std::find_if(all_cases().begin(), all_cases().end(),
                                        [&](const bench_case& k) { return k.name == name; });
            if (c == all_cases().end()) {
                std::fprintf(stderr, "divergent_bench: no case %s\n", name.c_str());
                return 2;
            }
            std::printf("%s: %s\n", c->name.c_str(), c->description.c_str());
        }
        std::printf(
            "\n%-21s %-5s %8s %6s %6s %8s %5s %10s %10s %6s %10s %6s  %-8s %5s %9s %9s  %-3s "
            "%s\n",
            "case", "N", "mean", "p99", "max", "failures", "lanes", "static", "balanced", "ratio",
            "automatic", "ratio", "chose", "first", "wall st", "wall auto", "id",
            "regs  first launch's blocks x threads (static / balanced)");
        for (const std::string& name : names) {
            const bench_case& c =
                *std::find_if(all_cases().begin(), all_cases().end(),
                              [&](const bench_case& k) { return k.name == name; });
            for (const int k : log2n)
                print_row(c, k,
                          c.solve(c.inputs(std::size_t{1} << k), {c.t_end, tolerance, max_steps},
                                  repeat));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "divergent_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
