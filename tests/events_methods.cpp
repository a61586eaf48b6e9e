// Events with every adaptive explicit method, a Rosenbrock, a DIRK and a Radau method, and
// with fixed steps: crossings located on the method's interpolant where it has one, else
// on the step's Hermite interpolant, against the bouncing ball's and the neuron's analytic
// times; and a Poincare section of the Lorenz system against SciPy's solve_ivp events
// (reference/make_poincare_reference.py), recorded without changing a step.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/explicit/bogacki_shampine_32.hpp"
#include "cubie/algorithms/explicit/cash_karp_54.hpp"
#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/dormand_prince_54.hpp"
#include "cubie/algorithms/explicit/dormand_prince_853.hpp"
#include "cubie/algorithms/explicit/fehlberg_45.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/explicit/vern7.hpp"
#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/solver/solver.hpp"
#include "support/event_systems.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

using ball = testing::falling_ball<double>;
using neuron = testing::leaky_neuron<double>;

template <class... Methods>
struct method_list {};

solve_settings<pi_controller> adaptive(double t_end, double tol, double dt_max) {
    return testing::event_settings(t_end, tol, dt_max, 1e-4);
}

/// The ball's six bounces over [0, 3] (its states are quadratic in t between them: every
/// method and interpolant here is exact for them, to rounding), and the neuron's spikes.
template <class Method, class Controller>
void check_bounces_and_spikes(const solve_settings<Controller>& ball_settings,
                              const solve_settings<Controller>& neuron_settings,
                              double spike_bound) {
    INFO(std::string(Method::name));
    const std::vector<double> y0 = {1, 0}, p = {0.8, -1};
    const auto r = solver<ball, Method, Controller, events<ball::ground, ball::apex>>{}.solve(
        {1, y0, p}, ball_settings, test_backend{});
    CHECK(r.statuses[0] == status::success);
    const testing::bounce_analytic exact{1.0, 0.8};
    REQUIRE(r.event_count("ground", 0) == 6);
    REQUIRE(r.event_count("apex", 0) == 7);  // t0, then after each bounce
    for (int k = 0; k < 6; ++k) {
        CHECK(std::abs(r.event_time("ground", k, 0) - exact.time(k)) < 1e-9);
        CHECK(std::abs(r.event_state("ground", k, 1, 0) + exact.speed(k)) < 1e-8);
        CHECK(std::abs(r.event_time("apex", k + 1, 0) - exact.apex_time(k)) < 1e-9);
    }

    const std::vector<double> v0 = {0, 0}, drive = {1.5, 3};
    const auto spikes = solver<neuron, Method, Controller, events<neuron::spike>>{}.solve(
        {2, v0, drive}, neuron_settings, test_backend{});
    for (std::size_t i = 0; i < 2; ++i) {
        const double period = neuron::period(drive[i]);
        const auto count = static_cast<std::uint32_t>(std::floor(0.1 / period));
        REQUIRE(spikes.event_count("spike", i) == count);
        double err = 0;
        for (std::uint32_t k = 0; k < count; ++k)
            err = std::fmax(err, std::abs(spikes.event_time("spike", k, i) - (k + 1) * period));
        MESSAGE(std::string(Method::name)
                << ", drive " << drive[i] << ": spike times within " << err);
        CHECK(err < spike_bound);
    }
}

template <class... Methods>
void check_adaptive(method_list<Methods...>, double spike_bound) {
    (check_bounces_and_spikes<Methods>(adaptive(3, 1e-10, 0.05), adaptive(0.1, 1e-10, 1e-3),
                                       spike_bound),
     ...);
}

struct poincare_crossing {
    std::size_t trajectory;
    double rho, t, x, y, z;
};

std::vector<poincare_crossing> read_poincare_reference() {
    std::ifstream in(std::string(CUBIE_TEST_DATA_DIR) + "/poincare_reference.csv");
    REQUIRE(in.good());
    std::vector<poincare_crossing> rows;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::string cell[7];
        for (auto& c : cell) std::getline(row, c, ',');
        rows.push_back({std::stoul(cell[0]), std::stod(cell[1]), std::stod(cell[3]),
                        std::stod(cell[4]), std::stod(cell[5]), std::stod(cell[6])});
    }
    REQUIRE(rows.size() > 10);
    return rows;
}

/// z falling through rho - 1: a section of each trajectory's attractor, recorded only.
template <class T>
struct lorenz_section {
    using lorenz = catalogue::lorenz<T>;
    static constexpr const char* name = "section";
    static constexpr crossing direction = crossing::falling;
    static constexpr event_action action = event_action::record;
    static constexpr int capacity = 12;
    CUBIE_HD T condition(T, const state_t<lorenz>& y, const parameters_t<lorenz>& p,
                         const drivers_t<lorenz>&) const {
        return y[2] - (p[0] - 1);
    }
};

}  // namespace

TEST_CASE("events with every adaptive explicit method") {
    check_adaptive(method_list<bogacki_shampine_32, dormand_prince_54, tsit5, cash_karp_54,
                               fehlberg_45, dormand_prince_853, vern7, vern9>{},
                   1e-8);
}

TEST_CASE("events with a Rosenbrock, a DIRK and a Radau method") {
    check_adaptive(method_list<rodas5p, kvaerno5, radau_iia_5>{}, 1e-7);
}

TEST_CASE("fixed steps: crossings on the step's Hermite interpolant, then the grid resumes") {
    solve_settings<fixed_step> ball_settings, neuron_settings;
    ball_settings.t_end = 3;
    ball_settings.dt = 1.0 / 64;
    neuron_settings.t_end = 0.1;
    neuron_settings.dt = 1e-4;
    check_bounces_and_spikes<classical_rk4>(ball_settings, neuron_settings, 1e-9);
    // Six bounces, each a step shortened to the bounce and one from it to the grid.
    const std::vector<double> y0 = {1, 0}, p = {0.8, -1};
    const auto r = solver<ball, classical_rk4, fixed_step, events<ball::ground>>{}.solve(
        {1, y0, p}, ball_settings, test_backend{});
    CHECK(r.accepted_steps[0] == 3 * 64 + 6);
}

TEST_CASE("a Poincare section of the Lorenz system, as SciPy's solve_ivp locates it") {
    const auto reference = read_poincare_reference();
    const std::vector<double> rho = {28, 32, 40};
    std::vector<double> y0(9, 0.0);
    for (std::size_t i = 0; i < 3; ++i) y0[i] = 1;
    using lorenz = catalogue::lorenz<double>;
    auto s = adaptive(5, 1e-13, 0.02);
    s.dt = 1e-3;
    const auto r =
        solver<lorenz, dormand_prince_853, pi_controller, events<lorenz_section<double>>>{}.solve(
            {3, y0, rho}, s, test_backend{});
    std::vector<std::uint32_t> seen(3, 0);
    double time_error = 0, state_error = 0;
    for (const poincare_crossing& c : reference) {
        const std::uint32_t k = seen[c.trajectory]++;
        REQUIRE(r.event_count("section", c.trajectory) > k);
        time_error =
            std::fmax(time_error, std::abs(r.event_time("section", k, c.trajectory) - c.t));
        const double expected[3] = {c.x, c.y, c.z};
        for (int v = 0; v < 3; ++v)
            state_error = std::fmax(
                state_error, std::abs(r.event_state("section", k, v, c.trajectory) - expected[v]));
    }
    for (std::size_t i = 0; i < 3; ++i) CHECK(r.event_count("section", i) == seen[i]);
    MESSAGE("section: times within " << time_error << ", states within " << state_error);
    CHECK(time_error < 1e-9);
    CHECK(state_error < 1e-7);

    // Recorded only: the steps, and so the final states, are those of the same solve
    // without the section (bit for bit on the host; nvcc may contract the two kernels'
    // arithmetic differently).
    const auto plain =
        solver<lorenz, dormand_prince_853, pi_controller>{}.solve({3, y0, rho}, s, test_backend{});
#if defined(__CUDACC__)
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(std::abs(double(r.accepted_steps[i]) - double(plain.accepted_steps[i])) <= 1);
        for (int v = 0; v < 3; ++v)
            CHECK(r.final_state(v, i) == doctest::Approx(plain.final_state(v, i)).epsilon(1e-9));
    }
#else
    CHECK(r.accepted_steps == plain.accepted_steps);
    CHECK(r.rejected_steps == plain.rejected_steps);
    CHECK(r.final_states == plain.final_states);
#endif
}
