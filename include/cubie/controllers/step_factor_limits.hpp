#pragma once
// Safety factor and bounds on the step-size ratio, shared by every adaptive controller.

#include <cuda/std/cmath>

#include "cubie/core/config.hpp"
#include "cubie/core/invalid_setting.hpp"

namespace cubie {

struct step_factor_limits {
    double safety = 0.9;      ///< in (0, 1]: aim below the tolerance
    double min_factor = 0.2;  ///< in (0, 1): largest shrink per step
    double max_factor = 10;   ///< > 1: largest growth per step

    void validate() const {
        if (!(safety > 0 && safety <= 1))
            invalid_setting("controller.limits.safety", safety, "must lie in (0, 1]");
        if (!(min_factor > 0 && min_factor < 1))
            invalid_setting("controller.limits.min_factor", min_factor, "must lie in (0, 1)");
        if (!(max_factor > 1 && max_factor < 1e6))
            invalid_setting("controller.limits.max_factor", max_factor, "must lie in (1, 1e6)");
    }
};

/// Device copy of the limits in the working precision.
template <class T>
struct factor_bounds {
    T safety, min_factor, max_factor;

    static factor_bounds from(const step_factor_limits& l) {
        return {T(l.safety), T(l.min_factor), T(l.max_factor)};
    }

    /// Clamps a proposed factor; no growth right after a rejection (Hairer & Wanner).
    CUBIE_HD T clamp(T factor, bool after_rejection) const {
        const T upper = after_rejection ? T(1) : max_factor;
        return cuda::std::fmin(upper, cuda::std::fmax(min_factor, factor));
    }
};

/// Errors are floored before they enter a power: a zero error would give an infinite
/// factor (clamped anyway) and poison the products of PI/PID histories.
template <class T>
CUBIE_HD T floored_error(T err) {
    return cuda::std::fmax(err, T(1e-6));
}

}  // namespace cubie
