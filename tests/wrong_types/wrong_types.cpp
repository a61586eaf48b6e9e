// A solver or integrate() named with a type that is not what its place asks for: compiled
// by check_diagnostic.cmake with one WRONG_* defined, each expected to fail with a first
// error that names the unsatisfied concept.

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"

using lorenz = cubie::catalogue::lorenz<float>;

/// Looks like a method but its step takes the wrong arguments.
struct not_a_stepper {
    static constexpr const char* name = "not_a_stepper";
    static constexpr int order = 4;
    static constexpr bool fsal = false;
    static constexpr bool has_error_estimate = false;
    static void step(float t, float h);
};

int main() {
#if defined(WRONG_STEPPER)
    cubie::solver<lorenz, not_a_stepper, cubie::pi_controller> s;
#elif defined(WRONG_CONTROLLER)
    cubie::solver<lorenz, cubie::tsit5, int> s;
#elif defined(WRONG_SYSTEM)
    cubie::solver<double, cubie::tsit5, cubie::pi_controller> s;
#elif defined(WRONG_OUTPUT)
    cubie::solver<lorenz, cubie::tsit5, cubie::pi_controller, double> s;
#elif defined(WRONG_BACKEND)
    cubie::solver<lorenz, cubie::tsit5, cubie::pi_controller> s;
    cubie::solve_settings<cubie::pi_controller> settings;
    (void)s.solve({0, {}, {}}, settings, 42);
#endif
    return 0;
}
