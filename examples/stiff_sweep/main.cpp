// stiff_sweep: the Pollution problem (Verwer 1994; Bari POLLU: 20 species, 25 reactions,
// t in [0, 60]) for N values of the photolysis rate k1, log-spaced over [3.5e-2, 3.5] as in
// the benchmark protocol, with any stiff method, tolerance, backend and precision. Prints
// where and what it ran, the wall-clock and kernel times, failures by status, the mean steps
// and Newton and linear iterations per trajectory, and ozone at t = 60 across the sweep.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <numeric>
#include <string>

#include "stiff_sweep/methods.hpp"
#include "stiff_sweep/options.hpp"
#include "stiff_sweep/sweep_outcome.hpp"

namespace stiff_sweep {
#define DECLARE_RUNNERS(folder, name)                   \
    sweep_outcome run_##name##_float(const options& o); \
    sweep_outcome run_##name##_double(const options& o);
STIFF_SWEEP_METHODS(DECLARE_RUNNERS)
#undef DECLARE_RUNNERS

sweep_outcome run(const options& o) {
#define DISPATCH(folder, name) \
    if (o.method == #name)     \
        return o.prec == precision::single ? run_##name##_float(o) : run_##name##_double(o);
    STIFF_SWEEP_METHODS(DISPATCH)
#undef DISPATCH
    throw usage_error("unknown method '" + o.method + "'");
}

template <class Array>
double mean(const Array& a) {
    return a.empty() ? 0.0 : std::accumulate(a.begin(), a.end(), 0.0) / double(a.size());
}

void print_ozone(const sweep_outcome& out) {
    std::printf("ozone         O3 at t = 60:");
    const std::size_t n = out.k1.size();
    for (std::size_t i : {std::size_t{0}, n / 2, n - 1}) {
        if (out.statuses[i] == cubie::status::success)
            std::printf(" %.4g (k1 = %.3g)", out.ozone[i], out.k1[i]);
        else
            std::printf(" %s (k1 = %.3g)", cubie::to_string(out.statuses[i]), out.k1[i]);
        if (n == 1) break;
    }
    std::printf("\n");
}

void print_summary(const options& o, const sweep_outcome& out) {
    const char* commit = std::getenv("CUBIE_COMMIT");
    std::printf("device        %s\n", out.backend.c_str());
    std::printf("commit        %s\n", commit ? commit : "unknown (set CUBIE_COMMIT)");
    std::printf(
        "problem       pollution, 20 states, t in [0, 60], %zu trajectories, k1 "
        "log-spaced over [3.5e-2, 3.5]\n",
        o.n);
    std::printf("method        %s, pi controller, %s, rtol = %.3g, atol = %.3g, dt0 = 60/1024\n",
                o.method.c_str(), o.prec == precision::single ? "float" : "double", o.rtol, o.atol);
    std::printf("wall time     %.3f ms (fastest of %d; the first, start-up included: %.3f ms)\n",
                out.best_seconds * 1e3, o.repeat, out.first_seconds * 1e3);
    if (out.kernel_milliseconds)
        std::printf("kernel time   %.3f ms\n%s\n", *out.kernel_milliseconds, out.kernel.c_str());
    else
        std::printf("kernel time   none (host backend)\n");
    std::printf("steps         %.1f accepted, %.1f rejected per trajectory (mean)\n",
                mean(out.accepted_steps), mean(out.rejected_steps));
    if (!out.newton_iterations.empty())
        std::printf("iterations    %.1f Newton, %.1f linear per trajectory (mean)\n",
                    mean(out.newton_iterations), mean(out.linear_iterations));
    std::map<std::string, std::size_t> failures;
    std::size_t failed = 0;
    for (const cubie::status s : out.statuses)
        if (s != cubie::status::success) {
            ++failures[cubie::to_string(s)];
            ++failed;
        }
    std::printf("failures      %zu", failed);
    const char* separator = " (";
    for (const auto& [name, count] : failures) {
        std::printf("%s%s %zu", separator, name.c_str(), count);
        separator = ", ";
    }
    std::printf("%s\n", failed > 0 ? ")" : "");
    print_ozone(out);
}

}  // namespace stiff_sweep

int main(int argc, char** argv) {
    using namespace stiff_sweep;
    options o;
    try {
        o = parse_options(argc, argv);
    } catch (const usage_error& e) {
        if (*e.what() == '\0') {  // --help
            std::fputs(usage, stdout);
            return 0;
        }
        std::fprintf(stderr, "stiff_sweep: %s\n%s", e.what(), usage);
        return 2;
    }
    try {
        print_summary(o, run(o));
        return 0;
    } catch (const usage_error& e) {
        std::fprintf(stderr, "stiff_sweep: %s\n%s", e.what(), usage);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "stiff_sweep: %s\n", e.what());
        return 1;
    }
}
