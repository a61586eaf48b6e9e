#pragma once
// A Lorenz rho sweep that records everything (saved states, counters, summaries) with one
// failing trajectory, and a bit-for-bit comparison of results: for tests that solve the
// same batch two ways (in chunks, from device memory, on several devices).

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/batch/result_fields.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"

namespace cubie::testing {

using recording_solver =
    solver<catalogue::lorenz<double>, tsit5, pi_controller, save_state, save_counters,
           summaries<metrics::mean, metrics::extrema, metrics::peaks<2>>>;

/// rho from 0 to 28 over n trajectories; trajectory `failing` has a NaN rho.
struct recording_sweep {
    std::size_t n;
    std::size_t failing;
    std::vector<double> y0, rho;

    explicit recording_sweep(std::size_t n_trajectories = 100, std::size_t failing_one = 37)
        : n(n_trajectories), failing(failing_one), y0(3 * n, 0.0), rho(n) {
        for (std::size_t i = 0; i < n; ++i) {
            y0[i] = 1;
            rho[i] = 28.0 * double(i) / double(n - 1);
        }
        rho[failing] = std::nan("");
    }
    batch_inputs<double> inputs() const { return {n, y0, rho}; }

    static solve_settings<pi_controller> settings() {
        solve_settings<pi_controller> s;
        s.t_end = 1;
        s.dt = 1e-3;
        s.atol = s.rtol = {1e-8};
        s.save_every = 0.1;
        s.summarise_every = 0.5;
        s.sample_summaries_every = 0.05;
        return s;
    }
};

/// Two arrays (std::vector, host_array) hold the same values, bit for bit.
template <class A, class B>
bool same_bits(const A& a, const B& b) {
    static_assert(std::is_same_v<typename A::value_type, typename B::value_type>);
    return a.size() == b.size() &&
           (a.empty() ||
            std::memcmp(a.data(), b.data(), a.size() * sizeof(typename A::value_type)) == 0);
}

/// Every array of two results (result_fields.hpp) holds the same bits.
template <class T>
bool same_results(const batch_result<T>& a, const batch_result<T>& b) {
    bool same = true;
    for_each_result_field(
        [&](const result_field&, const auto& x, const auto& y) { same = same && same_bits(x, y); },
        a, b);
    return same;
}

/// Trajectory i of a cancelled solve was never started: status cancelled, every final state,
/// saved value and summary NaN, every counter unrecorded (2^32 - 1), no steps.
inline void check_never_started(const batch_result<double>& r, std::size_t i) {
    INFO("trajectory " << i);
    CHECK(r.statuses[i] == status::cancelled);
    CHECK(r.status_message(i) == std::string("cancelled"));
    CHECK(r.accepted_steps[i] == 0);
    CHECK(r.rejected_steps[i] == 0);
    for (int state = 0; state < static_cast<int>(r.n_states); ++state)
        CHECK(std::isnan(r.final_state(state, i)));
    for (std::size_t save = 0; save < r.n_saves(); ++save) {
        for (std::size_t v = 0; v < r.n_saved_variables(); ++v)
            CHECK(std::isnan(r.saved_value(save, v, i)));
        for (std::size_t c = 0; c < r.counter_names.size(); ++c)
            CHECK(r.saved_counter(save, c, i) == std::numeric_limits<std::uint32_t>::max());
    }
    for (std::size_t window = 0; window < r.n_windows(); ++window)
        for (std::size_t row = 0; row < r.n_summary_rows(); ++row)
            CHECK(std::isnan(r.summary_value(window, row, i)));
}

}  // namespace cubie::testing
