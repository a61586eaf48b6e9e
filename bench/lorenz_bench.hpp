#pragma once
// What the Lorenz benchmark's translation units share: the sweep, timings, and the
// contenders (a hand-written kernel, or one library configuration in its own translation
// unit), each timed one solve at a time so that the repeats of both sides interleave.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

namespace lorenz_bench {

inline constexpr double dt_fixed = 1.0 / 1024;

struct timing {
    double e2e_ms = std::numeric_limits<double>::infinity();
    double kernel_ms = std::numeric_limits<double>::infinity();
    void keep_best(double e2e, double kernel) {
        e2e_ms = std::min(e2e_ms, e2e);
        kernel_ms = std::min(kernel_ms, kernel);
    }
};

inline double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// The protocol's inputs for N trajectories, laid out [variable][trajectory].
struct sweep {
    std::size_t n;
    std::vector<float> y0, rho;
    std::vector<double> reference;  ///< float64 final states [state][trajectory]
};

/// The float64 reference: the library's vern9 in double at rtol = atol = 1e-12.
std::vector<double> reference_final_states(const sweep& s);

/// One side of a comparison on one sweep, its buffers set up once.
class contender {
public:
    virtual ~contender() = default;
    /// One complete solve, end to end (copy in, solve, copy out) and kernel alone.
    virtual void solve_once(timing& t) = 0;
    /// Of the last solve: final states [state][trajectory], attempted steps per trajectory.
    virtual std::vector<float> final_states() const = 0;
    virtual std::vector<unsigned> steps() const = 0;
};

/// The library's configurations: fixed classical RK4 and Tsitouras 5(4) at dt_fixed;
/// adaptive Tsit5, Dormand-Prince 5(4) and Cash-Karp 5(4) (PI controller) at `tolerance`.
std::unique_ptr<contender> library_classical_rk4(const sweep& s);
std::unique_ptr<contender> library_fixed_tsit5(const sweep& s);
std::unique_ptr<contender> library_tsit5(const sweep& s, double tolerance);
std::unique_ptr<contender> library_dormand_prince_54(const sweep& s, double tolerance);
std::unique_ptr<contender> library_cash_karp_54(const sweep& s, double tolerance);

}  // namespace lorenz_bench
