#pragma once
// Stiff methods in float on Pollution, whose I - h gamma J has rows 1e15 apart in scale (rate
// constants from 1e-3 to 4.4e11): the checks of tests/stiff_single_precision_*.cpp, one
// translation unit per family so that their heavy instantiations build in parallel.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cubie/catalogue/pollution.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/stiff_reference.hpp"

namespace cubie::testing {

/// One trajectory of Pollution in T, with rate constant k1, to t = 60 from dt = 60 / 1024.
template <class T, class Algorithm, class Controller>
batch_result<T> solve_pollution(double k1, double rtol, double atol) {
    using pollution = catalogue::pollution<T>;
    solve_settings<Controller> settings;
    settings.t_end = 60;
    settings.dt = 60.0 / 1024;
    settings.rtol = {rtol};
    settings.atol = {atol};
    const std::vector<T> y0(pollution::default_state.begin(), pollution::default_state.end());
    return solver<pollution, Algorithm, Controller>{}.solve({1, y0, std::vector<T>{T(k1)}},
                                                            settings, test_backend{});
}

template <class Algorithm, class Controller = pi_controller>
void check_float_pollution() {
    constexpr double rtol = 1e-4, atol = 1e-8;
    const auto result = solve_pollution<float, Algorithm, Controller>(0.35, rtol, atol);
    INFO(std::string(Algorithm::name)
         << ": " << std::string(result.status_message(0)) << ", " << result.accepted_steps[0]
         << " accepted, " << result.rejected_steps[0] << " rejected");
    REQUIRE(result.statuses[0] == status::success);
    const double worst =
        worst_error_in_tolerances(result, reference_state("pollution", 60), rtol, atol);
    INFO("error " << worst << " x tolerance");
    CHECK(worst < 2);
}

/// Accepted plus rejected steps on Pollution at atol = rtol = 1e-5 with rate constant k1.
template <class T, class Algorithm, class Controller>
int pollution_steps(double k1) {
    const auto result = solve_pollution<T, Algorithm, Controller>(k1, 1e-5, 1e-5);
    REQUIRE(result.statuses[0] == status::success);
    return static_cast<int>(result.accepted_steps[0] + result.rejected_steps[0]);
}

template <class Algorithm, class Controller = pi_controller>
void check_float_steps_as_double() {
    for (const double k1 : {0.035, 0.35, 3.5}) {
        const int in_float = pollution_steps<float, Algorithm, Controller>(k1);
        const int in_double = pollution_steps<double, Algorithm, Controller>(k1);
        INFO(std::string(Algorithm::name) << ", k1 = " << k1 << ": " << in_float
                                          << " steps in float, " << in_double << " in double");
        CHECK(in_float <= 2 * in_double);
    }
}

}  // namespace cubie::testing
