// lorenz_sweep: the Lorenz rho-sweep of the benchmark protocol (x0 = (1, 0, 0),
// rho = linspace(0, 21, N), t in [0, 1]) with any explicit method, controller, backend
// and precision, optionally saving series and summaries. Prints a summary and a table of
// final values across the sweep; --out writes the result as CSV tables, NPY arrays or an
// HDF5 file.

#include <cstdio>
#include <exception>
#include <numeric>
#include <string>

#include "lorenz_sweep/methods.hpp"
#include "lorenz_sweep/options.hpp"
#include "lorenz_sweep/sweep_outcome.hpp"

namespace lorenz_sweep {
#define DECLARE_RUNNERS(folder, name)                   \
    sweep_outcome run_##name##_float(const options& o); \
    sweep_outcome run_##name##_double(const options& o);
LORENZ_SWEEP_METHODS(DECLARE_RUNNERS)
#undef DECLARE_RUNNERS

sweep_outcome run(const options& o) {
#define DISPATCH(folder, name) \
    if (o.method == #name)     \
        return o.prec == precision::single ? run_##name##_float(o) : run_##name##_double(o);
    LORENZ_SWEEP_METHODS(DISPATCH)
#undef DISPATCH
    throw usage_error("unknown method '" + o.method + "'");
}

void print_summary(const options& o, const sweep_outcome& out) {
    std::size_t failures = 0;
    for (auto s : out.statuses) failures += s != cubie::status::success;
    const double accepted =
        std::accumulate(out.accepted_steps.begin(), out.accepted_steps.end(), 0.0);
    const double rejected =
        std::accumulate(out.rejected_steps.begin(), out.rejected_steps.end(), 0.0);
    const double n = static_cast<double>(o.n > 0 ? o.n : 1);
    std::printf("backend       %s\n", out.backend.c_str());
    if (!out.kernel.empty()) std::printf("%s\n", out.kernel.c_str());
    std::printf("trajectories  %zu\n", o.n);
    std::printf("method        %s, controller %s, %s\n", o.method.c_str(), o.controller.c_str(),
                o.prec == precision::single ? "float" : "double");
    if (o.dt)
        std::printf("step          dt = %.17g\n", *o.dt);
    else
        std::printf("tolerance     atol = rtol = %.3g\n", *o.tol);
    std::printf("steps         %.1f accepted, %.1f rejected per trajectory (mean)\n", accepted / n,
                rejected / n);
    std::printf("time          %.3f ms (first solve %.3f ms, %d solves)\n", out.best_seconds * 1e3,
                out.first_seconds * 1e3, o.repeat);
    if (out.saves > 0) std::printf("saved         %zu times\n", out.saves);
    if (out.windows > 0)
        std::printf("summaries     %zu windows x %zu rows\n", out.windows, out.summary_rows);
    std::printf("failures      %zu\n", failures);
    std::printf("\nfinal values at t = 1, from x0 = (1, 0, 0):\n");
    std::printf("%12s %10s %12s %12s %12s  %s\n", "trajectory", "rho", "x", "y", "z", "status");
    for (const final_row& row : out.table)
        std::printf("%12zu %10.4g %12.6g %12.6g %12.6g  %s\n", row.trajectory, row.rho, row.x,
                    row.y, row.z, cubie::to_string(row.status));
}

}  // namespace lorenz_sweep

int main(int argc, char** argv) {
    using namespace lorenz_sweep;
    options o;
    try {
        o = parse_options(argc, argv);
    } catch (const usage_error& e) {
        if (*e.what() == '\0') {  // --help
            std::fputs(usage, stdout);
            return 0;
        }
        std::fprintf(stderr, "lorenz_sweep: %s\n%s", e.what(), usage);
        return 2;
    }
    try {
        const sweep_outcome out = run(o);
        print_summary(o, out);
        if (o.out) std::printf("written       %s (%s)\n", o.out->c_str(), o.format.c_str());
        return 0;
    } catch (const usage_error& e) {
        std::fprintf(stderr, "lorenz_sweep: %s\n%s", e.what(), usage);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lorenz_sweep: %s\n", e.what());
        return 1;
    }
}
