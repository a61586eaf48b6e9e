#pragma once
// A batch_result filled by hand, for the result file tests: 3 trajectories of 2 states, the
// last of which failed (nonfinite_state), with their inputs (initial states and 2
// parameters), Newton and linear iteration counts, 4 saves of 3 variables and 2 counters,
// 2 windows of 3 summary rows, and 2 events: "hit" keeping 2 occurrences and "turn" 1, counted
// {3, 1, 0} and {0, 2, 4000000000} times. Values are computed in double and rounded to T once;
// the failed trajectory's values from save 2 and window 1 on are NaN, and so are the event
// records a trajectory did not fill.
// tests/reference/check_result_files.py expects the same values: change both together.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "cubie/batch/batch_result.hpp"
#include "cubie/core/status.hpp"

namespace cubie::testing {

template <class T>
batch_result<T> example_result() {
    const T nan = std::numeric_limits<T>::quiet_NaN();
    constexpr std::size_t n = 3, failed = 2, saves = 4, counters = 2, windows = 2;
    batch_result<T> r;
    r.n_trajectories = n;
    r.n_states = 2;
    r.state_names = {"x", "θ"};
    r.backend = "host";
    r.statuses = {status::success, status::success, status::nonfinite_state};
    r.accepted_steps = {100, 4000000000u, 7};
    r.rejected_steps = {0, 3, 12};
    r.newton_iterations = {250, 4100000000u, 0};
    r.linear_iterations = {500, 17, 1};
    for (std::size_t s = 0; s < 2; ++s)
        for (std::size_t i = 0; i < n; ++i)
            r.final_states.push_back(i == failed ? nan : static_cast<T>((s + 1) / 10.0 + i));
    std::vector<T> initial_states, parameters;
    for (std::size_t s = 0; s < 2; ++s)
        for (std::size_t i = 0; i < n; ++i) initial_states.push_back(static_cast<T>(s + i / 3.0));
    for (std::size_t p = 0; p < 2; ++p)
        for (std::size_t i = 0; i < n; ++i)
            parameters.push_back(static_cast<T>((p + 1) * 1.5 - i / 7.0));
    r.keep_inputs({n, initial_states, parameters}, {"k", "ω"});

    r.saved_variables = {"x", "θ", "energy"};
    r.counter_names = {"accepted_steps", "rejected_steps"};
    for (std::size_t k = 0; k < saves; ++k) {
        r.save_times.push_back(static_cast<T>(k / 4.0));
        for (std::size_t v = 0; v < r.saved_variables.size(); ++v)
            for (std::size_t i = 0; i < n; ++i)
                r.saved.push_back(i == failed && k >= 2 ? nan
                                                        : static_cast<T>(k + v / 10.0 + i / 100.0));
        for (std::size_t c = 0; c < counters; ++c)
            for (std::size_t i = 0; i < n; ++i)
                r.saved_counters.push_back(static_cast<std::uint32_t>(10 * k + c + 1000 * i));
    }

    r.summary_legend = {"x.mean", "x.max", "θ.rms"};
    for (std::size_t w = 0; w < windows; ++w) {
        r.window_ends.push_back(static_cast<T>((w + 1) / 2.0));
        for (std::size_t row = 0; row < r.summary_legend.size(); ++row)
            for (std::size_t i = 0; i < n; ++i)
                r.summaries.push_back(
                    i == failed && w >= 1 ? nan : static_cast<T>(w - row / 3.0 + i / 7.0));
    }

    r.event_names = {"hit", "turn"};
    r.event_record_names = {"hit.0", "hit.1", "turn.0"};
    const std::size_t channel_of[] = {0, 0, 1}, occurrence_of[] = {0, 1, 0};
    const std::uint32_t counts[2][n] = {{3, 1, 0}, {0, 2, 4000000000u}};
    for (std::size_t c = 0; c < 2; ++c)
        for (std::size_t i = 0; i < n; ++i) r.event_counts.push_back(counts[c][i]);
    for (std::size_t record = 0; record < 3; ++record) {
        const std::size_t c = channel_of[record], k = occurrence_of[record];
        const auto kept = [&](std::size_t i) { return k < counts[c][i]; };
        for (std::size_t i = 0; i < n; ++i)
            r.event_times.push_back(kept(i) ? static_cast<T>(c + k / 4.0 + i / 8.0) : nan);
        for (std::size_t s = 0; s < 2; ++s)
            for (std::size_t i = 0; i < n; ++i)
                r.event_states.push_back(kept(i) ? static_cast<T>(k / 2.0 + i / 16.0 - (s + 1.0))
                                                 : nan);
    }
    return r;
}

}  // namespace cubie::testing
