#pragma once
// Adaptive solves of one stiff trajectory checked against the SciPy references of
// reference/stiff_reference.csv (written by reference/make_stiff_reference.py).

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cubie/batch/solver.hpp"
#include "cubie/catalogue/robertson.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/controllers/digital_filter_controller.hpp"
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

/// Solves one trajectory adaptively and checks the error of its final state, in units of
/// atol + rtol |y_ref| (the scale the controller holds the local error to), against bound.
template <class System, class Algorithm>
void check_against_reference(const std::string& problem, const std::vector<double>& y0,
                             const std::vector<double>& parameters, double t_end, double rtol,
                             double atol, double bound) {
    solve_settings<pi_controller> settings;
    settings.t_end = t_end;
    settings.dt = 1e-6;
    settings.rtol = {rtol};
    settings.atol = {atol};
    const auto result = solver<System, Algorithm, pi_controller>{}.solve({1, y0, parameters},
                                                                         settings, test_backend{});
    REQUIRE(result.statuses[0] == status::success);
    const auto reference = reference_state(problem, t_end);
    double worst = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const double y = result.final_state(static_cast<int>(i), 0);
        worst =
            std::fmax(worst, std::abs(y - reference[i]) / (atol + rtol * std::abs(reference[i])));
    }
    INFO(std::string(Algorithm::name)
         << " " << problem << " t = " << t_end << " rtol " << rtol << ": "
         << result.accepted_steps[0] << " accepted, " << result.rejected_steps[0]
         << " rejected; error " << worst << " x tolerance");
    CHECK(worst < bound);
}

/// Robertson to t = 1e5 and 1e11 and Van der Pol (mu = 1000) to t = 2000, at rtol 1e-6 and
/// 1e-8, within twice the tolerance of the reference: the controller holds each step's local
/// error within the tolerance, and on these dissipative problems the global error at t_end
/// stays below it too.
template <class Algorithm>
void check_stiff_references() {
    for (const double rtol : {1e-6, 1e-8}) {
        for (const double t_end : {1e5, 1e11})
            check_against_reference<catalogue::robertson<double>, Algorithm>(
                "robertson", {1, 0, 0}, {}, t_end, rtol, 1e-14, 2);
        check_against_reference<catalogue::van_der_pol<double>, Algorithm>(
            "van_der_pol", {2, 0}, {1000}, 2000, rtol, 1e-8, 2);
    }
}

}  // namespace cubie::testing
