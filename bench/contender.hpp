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
/// the float64 reference of their final states [state][trajectory].
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
    /// and the saved series [save][state][trajectory] (empty when nothing is saved).
    virtual std::vector<float> final_states() const = 0;
    virtual std::vector<unsigned> steps() const = 0;
    virtual std::vector<float> saved() const { return {}; }
};

/// The hand-written kernel (where there is one) against the library on one ensemble.
struct comparison {
    bool has_hand = false;
    timing hand, library;
    double hand_error = 0, library_error = 0;  ///< max |final state - reference|
    double hand_steps = 0, library_steps = 0;  ///< mean attempted steps per trajectory
    double saved_difference = 0;               ///< max |library - hand| over saved values
    std::vector<float> library_final_states;
};

inline double max_error(const std::vector<float>& final_states,
                        const std::vector<double>& reference) {
    double e = 0;
    for (std::size_t i = 0; i < reference.size(); ++i)
        e = std::max(e, std::abs(static_cast<double>(final_states[i]) - reference[i]));
    return e;
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
    c.library_final_states = library.final_states();
    c.library_error = max_error(c.library_final_states, s.reference);
    c.library_steps = fixed_steps ? fixed_steps : mean(library.steps());
    if (hand) {
        c.hand_error = max_error(hand->final_states(), s.reference);
        c.hand_steps = fixed_steps ? fixed_steps : mean(hand->steps());
        const std::vector<float> a = library.saved(), b = hand->saved();
        if (a.size() != b.size()) c.saved_difference = std::numeric_limits<double>::quiet_NaN();
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
            c.saved_difference = std::max(c.saved_difference, std::abs(double(a[i]) - b[i]));
    }
    return c;
}

}  // namespace bench
