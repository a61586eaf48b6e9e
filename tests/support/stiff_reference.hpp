#pragma once
// Adaptive solves of one stiff trajectory checked against the references of
// reference/stiff_reference.csv (SciPy's, and the Bari test set's for the ring modulator;
// written by reference/make_stiff_reference.py).

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cubie/catalogue/pollution.hpp"
#include "cubie/catalogue/ring_modulator.hpp"
#include "cubie/catalogue/robertson.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/test_backend.hpp"

namespace cubie::testing {

/// Final states of reference/stiff_reference.csv by problem and t_end.
inline std::vector<double> reference_state(const std::string& problem, double t_end) {
    const std::string path = std::string(CUBIE_TEST_DATA_DIR) + "/stiff_reference.csv";
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), "cannot open " << path);
    std::string line;
    std::getline(in, line);
    REQUIRE(line == "problem,t_end,index,value");
    std::vector<double> state;
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::string cell[4];
        for (auto& c : cell) std::getline(row, c, ',');
        if (cell[0] == problem && std::stod(cell[1]) == t_end) state.push_back(std::stod(cell[3]));
    }
    REQUIRE_MESSAGE(!state.empty(), "no reference for " << problem << " at t = " << t_end);
    return state;
}

/// The largest error of trajectory 0's final state against `reference`, in units of
/// atol + rtol |y_ref| (the scale the controller holds the local error to).
template <class T>
double worst_error_in_tolerances(const batch_result<T>& result,
                                 const std::vector<double>& reference, double rtol, double atol) {
    double worst = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const double y = result.final_state(static_cast<int>(i), 0);
        worst =
            std::fmax(worst, std::abs(y - reference[i]) / (atol + rtol * std::abs(reference[i])));
    }
    return worst;
}

/// The error of a final state, in units of atol + rtol |y_ref| (the scale the controller
/// holds the local error to), and the solve it came from in words.
struct reference_error {
    double tolerances;
    std::string solve;
};

/// Solves one trajectory adaptively and measures the error of its final state.
template <class System, class Algorithm, class Controller = pi_controller>
reference_error error_against_reference(const std::string& problem, const std::vector<double>& y0,
                                        const std::vector<double>& parameters, double t_end,
                                        double rtol, double atol) {
    solve_settings<Controller> settings;
    settings.t_end = t_end;
    settings.dt = 1e-6;
    settings.rtol = {rtol};
    settings.atol = {atol};
    const auto result = solver<System, Algorithm, Controller>{}.solve({1, y0, parameters}, settings,
                                                                      test_backend{});
    REQUIRE(result.statuses[0] == status::success);
    const double worst =
        worst_error_in_tolerances(result, reference_state(problem, t_end), rtol, atol);
    std::ostringstream solve;
    solve << Algorithm::name << " (" << Controller::name << ") " << problem << " t = " << t_end
          << " rtol " << rtol << ": " << result.accepted_steps[0] << " accepted, "
          << result.rejected_steps[0] << " rejected; error " << worst << " x tolerance";
    return {worst, solve.str()};
}

/// The same, checked against bound.
template <class System, class Algorithm, class Controller = pi_controller>
void check_against_reference(const std::string& problem, const std::vector<double>& y0,
                             const std::vector<double>& parameters, double t_end, double rtol,
                             double atol, double bound) {
    const reference_error e = error_against_reference<System, Algorithm, Controller>(
        problem, y0, parameters, t_end, rtol, atol);
    INFO(e.solve);
    CHECK(e.tolerances < bound);
}

/// Robertson to t = 1e5 and 1e11 and Van der Pol (mu = 1000) to t = 2000, at rtol 1e-6 and
/// 1e-8, within twice the tolerance of the reference: the controller holds each step's local
/// error within the tolerance, and on these dissipative problems the global error at t_end
/// stays below it too. The controller is pi_controller unless given.
template <class Algorithm, class Controller = pi_controller>
void check_stiff_references() {
    for (const double rtol : {1e-6, 1e-8}) {
        for (const double t_end : {1e5, 1e11})
            check_against_reference<catalogue::robertson<double>, Algorithm, Controller>(
                "robertson", {1, 0, 0}, {}, t_end, rtol, 1e-14, 2);
        check_against_reference<catalogue::van_der_pol<double>, Algorithm, Controller>(
            "van_der_pol", {2, 0}, {1000}, 2000, rtol, 1e-8, 2);
    }
}

/// The default state of a generated system, as a batch's [state][trajectory] input of one.
template <class System>
std::vector<double> default_initial_state() {
    return {System::default_state.begin(), System::default_state.end()};
}

/// Pollution (Bari POLLU, k1 = 0.35) to t = 60 at rtol 1e-6 and 1e-8 with atol = 1e-4 rtol,
/// within twice the tolerance of the reference, as check_stiff_references: the chemistry is
/// dissipative too.
template <class Algorithm, class Controller = pi_controller>
void check_pollution_reference() {
    using pollution = catalogue::pollution<double>;
    for (const double rtol : {1e-6, 1e-8})
        check_against_reference<pollution, Algorithm, Controller>(
            "pollution", default_initial_state<pollution>(), {0.35}, 60, rtol, 1e-4 * rtol, 2);
}

/// The ring modulator (Bari RINGMOD, cs = 2e-12) to t = 1e-3 at rtol 1e-7 and 1e-8 with
/// atol = 1e-4 rtol (the inductor currents are 1e-3 to 1e-8), within ten times the tolerance
/// of the Bari reference. Not dissipative: u3 + u4 + u5 + u6 and i3 - i4 + i5 - i6 form an LC
/// circuit through ls2 = ls3 and cs (5 MHz, quality factor about 900, damped by rg2 = rg3 over
/// 6e-5 s and by the diodes D3, D4 while they conduct), in which the local errors of some
/// 10^4 steps add up: the global error at t_end exceeds the local tolerance for every method,
/// and SciPy's Radau at rtol = atol = 1e-8 ends 5.6 tolerances from the Bari values.
template <class Algorithm, class Controller = pi_controller>
void check_ring_modulator_reference() {
    using ring_modulator = catalogue::ring_modulator<double>;
    for (const double rtol : {1e-7, 1e-8})
        check_against_reference<ring_modulator, Algorithm, Controller>(
            "ring_modulator", default_initial_state<ring_modulator>(), {2e-12}, 1e-3, rtol,
            1e-4 * rtol, 10);
}

}  // namespace cubie::testing
