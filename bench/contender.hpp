#pragma once
// What the benchmarks that compare the library with hand-written kernels share: an
// ensemble of trajectories with its float64 reference, the two sides as contenders (a
// hand-written kernel, or one library configuration in its own translation unit), and
// their comparison, where the solves of both sides alternate after a warm-up.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "wall_clock.hpp"

namespace bench {

/// Fastest end-to-end and kernel-only times seen.
struct timing {
    double e2e_ms = std::numeric_limits<double>::infinity();
    double kernel_ms = std::numeric_limits<double>::infinity();
    void keep_best(double e2e, double kernel) {
        e2e_ms = std::min(e2e_ms, e2e);
        kernel_ms = std::min(kernel_ms, kernel);
    }
};

/// The inputs of n trajectories, one parameter each, laid out [variable][trajectory], and
/// the float64 reference of their final states [state][trajectory], NaN for a trajectory
/// the reference could not solve (a close encounter of the Pleiades, say).
struct ensemble {
    std::size_t n;
    std::size_t n_states;
    std::vector<float> y0, params;
    std::vector<double> reference;
};

/// One side of a comparison on one ensemble, its buffers set up once.
class contender {
public:
    virtual ~contender() = default;
    /// One complete solve, end to end (copy in, solve, copy out) and kernel alone.
    virtual void solve_once(timing& t) = 0;
    /// Of the last solve: final states [state][trajectory], attempted steps per trajectory,
    /// the saved series [save][state][trajectory] (empty when nothing is saved), and which
    /// trajectories failed.
    virtual std::vector<float> final_states() const = 0;
    virtual std::vector<unsigned> steps() const = 0;
    virtual std::vector<float> saved() const { return {}; }
    virtual std::vector<bool> failed() const = 0;
};

/// The hand-written kernel (where there is one) against the library on one ensemble.
struct comparison {
    bool has_hand = false;
    timing hand, library;
    /// max |final state - reference| over the trajectories that both solved
    double hand_error = 0, library_error = 0;
    double hand_steps = 0, library_steps = 0;  ///< mean attempted steps per trajectory
    double saved_difference = 0;               ///< max |library - hand| over saved values
    std::size_t hand_failures = 0, library_failures = 0, reference_failures = 0;
    std::vector<float> library_final_states;
};

/// The largest error of the final states against the reference, over the trajectories
/// that neither the contender nor the reference failed.
inline double max_error(const std::vector<float>& final_states, const std::vector<bool>& failed,
                        const ensemble& s) {
    double e = 0;
    for (std::size_t k = 0; k < s.reference.size(); ++k)
        if (!failed[k % s.n] && !std::isnan(s.reference[k]))
            e = std::max(e, std::abs(static_cast<double>(final_states[k]) - s.reference[k]));
    return e;
}

inline std::size_t count(const std::vector<bool>& failed) {
    return static_cast<std::size_t>(std::count(failed.begin(), failed.end(), true));
}

inline double mean(const std::vector<unsigned>& v) {
    double sum = 0;
    for (unsigned x : v) sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

/// The warm-up of both sides, then `repeat` solves of each, alternating. `fixed_steps`:
/// the step count of a fixed-step method, or 0 for an adaptive one, whose steps are counted.
inline comparison compare(const ensemble& s, contender* hand, contender& library, int repeat,
                          unsigned fixed_steps) {
    comparison c;
    c.has_hand = hand != nullptr;
    timing warm_up;
    if (hand) hand->solve_once(warm_up);
    library.solve_once(warm_up);
    for (int k = 0; k < repeat; ++k) {
        if (hand) hand->solve_once(c.hand);
        library.solve_once(c.library);
    }
    for (std::size_t i = 0; i < s.n; ++i) c.reference_failures += std::isnan(s.reference[i]);
    c.library_final_states = library.final_states();
    const std::vector<bool> library_failed = library.failed();
    c.library_error = max_error(c.library_final_states, library_failed, s);
    c.library_failures = count(library_failed);
    c.library_steps = fixed_steps ? fixed_steps : mean(library.steps());
    if (hand) {
        const std::vector<bool> hand_failed = hand->failed();
        c.hand_error = max_error(hand->final_states(), hand_failed, s);
        c.hand_failures = count(hand_failed);
        c.hand_steps = fixed_steps ? fixed_steps : mean(hand->steps());
        const std::vector<float> a = library.saved(), b = hand->saved();
        if (a.size() != b.size()) c.saved_difference = std::numeric_limits<double>::quiet_NaN();
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
            c.saved_difference = std::max(c.saved_difference, std::abs(double(a[i]) - b[i]));
    }
    return c;
}

}  // namespace bench
