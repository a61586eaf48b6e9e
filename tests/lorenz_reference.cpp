// Lorenz rho-sweep (N = 1024, t in [0, 1]) against the SciPy reference committed in
// reference/ (DOP853 at rtol = atol = 1e-13; make_lorenz_reference.py rebuilds it).

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cubie/catalogue/lorenz.hpp"
#include "cubie/cubie.hpp"
#include "support/test_backend.hpp"

using namespace cubie;
using cubie::testing::test_backend;

namespace {

struct lorenz_reference {
    std::vector<double> rho, x, y, z;
};

lorenz_reference read_reference(const std::string& precision) {
    const std::string path =
        std::string(CUBIE_TEST_DATA_DIR) + "/lorenz_sweep_1024_" + precision + ".csv";
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), "cannot open " << path);
    lorenz_reference ref;
    std::string line;
    std::getline(in, line);
    REQUIRE(line == "trajectory,rho,x,y,z");
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::string cell[5];
        for (auto& c : cell) std::getline(row, c, ',');
        ref.rho.push_back(std::stod(cell[1]));
        ref.x.push_back(std::stod(cell[2]));
        ref.y.push_back(std::stod(cell[3]));
        ref.z.push_back(std::stod(cell[4]));
    }
    REQUIRE(ref.rho.size() == 1024);
    return ref;
}

/// Largest absolute error of the final states over the sweep.
template <class T, class Algorithm, class Controller>
double max_error(const solve_settings<Controller>& settings) {
    const auto ref = read_reference(sizeof(T) == 4 ? "float32" : "float64");
    const std::size_t n = ref.rho.size();
    std::vector<T> y0(3 * n, T(0));
    std::fill_n(y0.begin(), n, T(1));
    const std::vector<T> rho(ref.rho.begin(), ref.rho.end());  // exact: rounded already
    const auto result = solver<catalogue::lorenz<T>, Algorithm, Controller>{}.solve(
        {n, y0, rho}, settings, test_backend{});
    REQUIRE(result.failures() == 0);
    double err = 0;
    for (std::size_t i = 0; i < n; ++i) {
        err = std::fmax(err, std::abs(result.final_state(0, i) - ref.x[i]));
        err = std::fmax(err, std::abs(result.final_state(1, i) - ref.y[i]));
        err = std::fmax(err, std::abs(result.final_state(2, i) - ref.z[i]));
    }
    return err;
}

solve_settings<fixed_step> fixed(double dt) {
    solve_settings<fixed_step> s;
    s.dt = dt;
    return s;
}

solve_settings<pi_controller> adaptive(double tol) {
    solve_settings<pi_controller> s;
    s.dt = 1.0 / 1024;
    s.atol = {tol};
    s.rtol = {tol};
    return s;
}

}  // namespace

TEST_CASE("classical_rk4, dt = 2^-10: double to RK4's accuracy, float to rounding") {
    // RK4's accuracy: halving dt divides the error by 2^4 (within 20%).
    const double err64 = max_error<double, classical_rk4>(fixed(1.0 / 1024));
    const double err64_half = max_error<double, classical_rk4>(fixed(1.0 / 2048));
    MESSAGE("double: " << err64 << " at dt = 2^-10, " << err64_half << " at 2^-11");
    CHECK(err64 < 1e-8);
    CHECK(err64 / err64_half == doctest::Approx(16).epsilon(0.2));
    // Float: 1024 steps of rounding at |z| up to 15 (eps 6e-8) dominate RK4's error.
    const double err32 = max_error<float, classical_rk4>(fixed(1.0 / 1024));
    MESSAGE("float: " << err32);
    CHECK(err32 < 1e-4);
}

TEST_CASE("high-order adaptive methods reach the reference at tight tolerance") {
    const double dp853 = max_error<double, dormand_prince_853>(adaptive(1e-12));
    const double v9 = max_error<double, vern9>(adaptive(1e-12));
    const double v7 = max_error<double, vern7>(adaptive(1e-12));
    MESSAGE("dormand_prince_853 " << dp853 << ", vern9 " << v9 << ", vern7 " << v7);
    CHECK(dp853 < 1e-10);
    CHECK(v9 < 1e-10);
    CHECK(v7 < 1e-10);
}

TEST_CASE("tsit5 at the benchmark tolerance 1e-5, float and double") {
    const double err64 = max_error<double, tsit5>(adaptive(1e-5));
    const double err32 = max_error<float, tsit5>(adaptive(1e-5));
    MESSAGE("double " << err64 << ", float " << err32);
    CHECK(err64 < 1e-3);
    CHECK(err32 < 1e-3);
}
