// Dense output of the explicit Runge-Kutta methods, against the analytic Kepler orbit. One
// step of size h from an exact state: the interpolation error inside it falls like
// h^(dense_order + 1), the interpolant starts on y and ends on y_new, broken dense-output
// coefficients fail check_tableau, methods without an interpolant say so, and the same
// interpolant summed by powers of theta - 1/2 (as events take it) agrees. On the cuda
// backend the same interpolation also runs in a kernel.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "cubie/algorithms/explicit/bogacki_shampine_32.hpp"
#include "cubie/algorithms/explicit/cash_karp_54.hpp"
#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/dormand_prince_54.hpp"
#include "cubie/algorithms/explicit/dormand_prince_853.hpp"
#include "cubie/algorithms/explicit/euler.hpp"
#include "cubie/algorithms/explicit/fehlberg_45.hpp"
#include "cubie/algorithms/explicit/heun.hpp"
#include "cubie/algorithms/explicit/ralston.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/explicit/vern7.hpp"
#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/systems/right_hand_side.hpp"
#include "support/kepler.hpp"
#if defined(__CUDACC__)
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#endif

using namespace cubie;
using namespace cubie::testing;

namespace {

using orbit = kepler<double>;
using state = state_t<orbit>;

// A moderately eccentric orbit, so that every elementary differential takes part, entered
// away from periapsis.
constexpr double eccentricity = 0.2;
constexpr double t0 = 0.3;
constexpr double thetas[] = {0.2, 0.4, 0.5, 0.7, 0.9};
[[maybe_unused]] constexpr int theta_count = sizeof(thetas) / sizeof(thetas[0]);

/// One step of size h from y at t0, prepared for interpolation, in precision T.
template <class Method, class T = double>
struct interpolated_step {
    using system = kepler<T>;
    using state_type = state_t<system>;

    T h;
    state_type y, y_new;
    typename Method::template dense_stages_t<state_type> k;

    CUBIE_HD interpolated_step(const state_type& start, T step) : h(step), y(start) {
        const system orbit_system{};
        const parameters_t<system> parameters{};
        const driver_splines_t<system> drivers{};
        const right_hand_side<system> f{orbit_system, parameters, drivers};
        state_type dydt, dydt_new;
        f(T(t0), y, dydt);
        tolerances<T, system::n_states> tol{};  // the error norm is not looked at
        for (int i = 0; i < system::n_states; ++i) tol.atol[i] = tol.rtol[i] = 1;
        Method::step_with_error(f, T(t0), h, y, dydt, y_new, dydt_new, tol, k);
        Method::prepare_dense_output(f, T(t0), h, y, k);
    }

    CUBIE_HD state_type at(T theta) const {
        state_type out;
        Method::interpolate(h, y, k, theta, out);
        return out;
    }

    /// The same interpolant summed by powers of theta - 1/2, as events take it.
    state_type by_powers(T theta) const {
        state_type out;
        Method::interpolate_by_powers(h, y, k, theta, out);
        return out;
    }
};

/// Largest error of the interpolant against the orbit, over the thetas and the components.
template <class Method>
double interpolation_error(double h) {
    const interpolated_step<Method> step(kepler_solution(eccentricity, t0), h);
    double error = 0;
    for (const double theta : thetas) {
        const state out = step.at(theta);
        const state exact = kepler_solution(eccentricity, t0 + theta * h);
        for (int i = 0; i < orbit::n_states; ++i)
            error = std::fmax(error, std::abs(out[i] - exact[i]));
    }
    return error;
}

/// Checks that the least-squares slope of log(error) over log(h), for h = h_max 2^(-j/2)
/// with j < points, lies in [low, high].
template <class Method>
void check_error_slope(double h_max, int points, double low, double high) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    std::ostringstream sweep;
    sweep.precision(3);
    for (int j = 0; j < points; ++j) {
        const double h = h_max * std::pow(2.0, -0.5 * j);
        const double error = interpolation_error<Method>(h);
        sweep << " h " << h << ": " << error << ";";
        const double x = std::log(h), y = std::log(error);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    const double slope = (points * sxy - sx * sy) / (points * sxx - sx * sx);
    INFO(std::string(Method::name) << ": error ~ h^" << slope << ", expected between " << low
                                   << " and " << high << ";" << sweep.str());
    CHECK(slope >= low);
    CHECK(slope <= high);
}

/// The local error of an interpolant of order q falls like h^(q + 1).
template <class Method>
void check_dense_order(double h_max, int points) {
    constexpr double slope = Method::dense_order + 1;
    check_error_slope<Method>(h_max, points, slope - 0.2, slope + 0.2);
}

/// theta = 0 gives y exactly (every weight vanishes); theta = 1 gives y_new to the rounding
/// of the weights at 1, whose terms reach 1e4 (Verner 9) before they cancel.
template <class Method>
void check_endpoints() {
    using tableau = typename Method::tableau;
    const interpolated_step<Method> step(kepler_solution(eccentricity, t0), 0.25);
    const state start = step.at(0), end = step.at(1);
    for (int i = 0; i < orbit::n_states; ++i) {
        double scale = std::abs(step.y_new[i]);
        for (int j = 0; j < tableau::dense_stages; ++j)
            for (int p = 0; p < tableau::dense_degree; ++p)
                scale += step.h * std::abs(tableau::b_dense[j][p] * step.k[j][i]);
        const double rounding = 16 * std::numeric_limits<double>::epsilon() * scale;
        INFO(std::string(Method::name) << ", component " << i);
        CHECK(start[i] == step.y[i]);
        CHECK(std::abs(end[i] - step.y_new[i]) <= rounding);
    }
}

/// In float the interpolant stays within float rounding of the double one, on the scale
/// |y| + h sum_j |k_j| of the terms it adds. Measured below 1 eps; weights evaluated from
/// their monomial coefficients rounded to float would reach 150 eps (Verner 9). ByPowers:
/// the float interpolant summed by powers of theta - 1/2.
template <class Method, bool ByPowers = false>
void check_float_interpolation() {
    const state exact_start = kepler_solution(eccentricity, t0);
    state_t<kepler<float>> start_in_float;
    state start;
    for (int i = 0; i < orbit::n_states; ++i) {
        start_in_float[i] = static_cast<float>(exact_start[i]);
        start[i] = start_in_float[i];
    }
    const double h = 0.1;
    const interpolated_step<Method, float> in_float(start_in_float, static_cast<float>(h));
    const interpolated_step<Method> in_double(start, h);
    for (const double theta : thetas) {
        const auto low = ByPowers ? in_float.by_powers(static_cast<float>(theta))
                                  : in_float.at(static_cast<float>(theta));
        const state high = in_double.at(theta);
        for (int i = 0; i < orbit::n_states; ++i) {
            double scale = std::abs(high[i]);
            for (const state& k : in_double.k) scale += h * std::abs(k[i]);
            INFO(std::string(Method::name) << ", theta " << theta << ", component " << i);
            CHECK(std::abs(low[i] - high[i]) <= 4 * std::numeric_limits<float>::epsilon() * scale);
        }
    }
}

/// The interpolant summed by powers of theta - 1/2 is the same polynomial: in double, as
/// near the orbit as the weights' sums (the interpolation error dominates rounding at this
/// step); in float, within float rounding of the double interpolant (as above); at theta =
/// 0, y exactly.
template <class Method>
void check_interpolation_by_powers() {
    const double h = 0.1;
    const state start = kepler_solution(eccentricity, t0);
    const interpolated_step<Method> step(start, h);
    for (const double theta : thetas) {
        const state powers = step.by_powers(theta), weights = step.at(theta);
        const state exact = kepler_solution(eccentricity, t0 + theta * h);
        for (int i = 0; i < orbit::n_states; ++i) {
            double scale = std::abs(weights[i]);
            for (const state& k : step.k) scale += h * std::abs(k[i]);
            INFO(std::string(Method::name) << ", theta " << theta << ", component " << i);
            CHECK(std::abs(powers[i] - exact[i]) <=
                  1.01 * std::abs(weights[i] - exact[i]) +
                      16 * std::numeric_limits<double>::epsilon() * scale);
        }
    }
    const state at_start = step.by_powers(0);
    for (int i = 0; i < orbit::n_states; ++i) CHECK(at_start[i] == start[i]);
    check_float_interpolation<Method, true>();
}

// Broken dense-output coefficients, each a copy of a method's with one change.
template <std::size_t Rows, std::size_t Columns>
using table = cuda::std::array<cuda::std::array<double, Columns>, Rows>;

/// m with delta added to m[row][column].
template <std::size_t Rows, std::size_t Columns>
constexpr table<Rows, Columns> changed(const double (&m)[Rows][Columns], std::size_t row,
                                       std::size_t column, double delta) {
    table<Rows, Columns> copy{};
    for (std::size_t i = 0; i < Rows; ++i)
        for (std::size_t j = 0; j < Columns; ++j) copy[i][j] = m[i][j];
    copy[row][column] += delta;
    return copy;
}

/// m with delta moved within a row, from m[row][from] to m[row][to]: the row's sum is kept.
template <std::size_t Rows, std::size_t Columns>
constexpr table<Rows, Columns> moved(const double (&m)[Rows][Columns], std::size_t row,
                                     std::size_t from, std::size_t to, double delta) {
    table<Rows, Columns> copy = changed(m, row, to, delta);
    copy[row][from] -= delta;
    return copy;
}

// A weight off in its theta^3 coefficient: b_4(1) != b_4.
struct tsit5_with_wrong_weight : tsit5_tableau {
    static constexpr auto b_dense = changed(tsit5_tableau::b_dense, 3, 2, 1e-6);
};
// Weight moved from theta^2 to theta^3: b(1) = b still, the continuous conditions fail.
struct dp54_with_weight_moved : dormand_prince_54_tableau {
    static constexpr auto b_dense = moved(dormand_prince_54_tableau::b_dense, 2, 1, 2, 1e-3);
};
// An extra stage's row that no longer sums to its node.
struct dop853_with_wrong_extra_row : dormand_prince_853_tableau {
    static constexpr auto a_dense = changed(dormand_prince_853_tableau::a_dense, 2, 5, 1e-3);
};
// An extra stage that uses a later one (its row sum kept).
struct dop853_with_implicit_extra_row : dormand_prince_853_tableau {
    static constexpr auto a_dense = moved(dormand_prince_853_tableau::a_dense, 1, 0, 14, 0.1);
};
// An extra stage's row sum kept but its order-3 condition broken.
struct vern7_with_wrong_extra_row : vern7_tableau {
    static constexpr auto a_dense = moved(vern7_tableau::a_dense, 2, 4, 3, 1e-3);
};
// A wrong node of an extra stage.
struct vern9_with_wrong_extra_node : vern9_tableau {
    static constexpr double c_dense[10] = {1,     0.74, 0.888, 0.696, 0.487,
                                           0.025, 0.15, 0.32,  0.78,  0.96};
};
// The cubic Hermite interpolant claimed to be of order 4.
struct bs32_with_overstated_order : bogacki_shampine_32_tableau {
    static constexpr int dense_order = 4;
    static constexpr int dense_degree = 4;
    static constexpr double b_dense[4][4] = {
        {1, -4.0 / 3, 5.0 / 9, 0},
        {0, 1, -2.0 / 3, 0},
        {0, 4.0 / 3, -8.0 / 9, 0},
        {0, -1, 1, 0},
    };
};

template <class Method>
void check_has_dense_output(int order, int dense_stages) {
    INFO(std::string(Method::name));
    CHECK(Method::has_dense_output);
    CHECK(Method::dense_order == order);
    CHECK(cuda::std::tuple_size<typename Method::template dense_stages_t<state>>::value ==
          static_cast<std::size_t>(dense_stages));
}

template <class Method>
void check_has_no_dense_output() {
    INFO(std::string(Method::name));
    CHECK(!Method::has_dense_output);
    CHECK(Method::dense_order == 0);
}

}  // namespace

// Each sweep starts where the terms beyond h^(q+1) have faded (the local slope settles) and
// ends before errors near 1e-13, where the weights' rounding takes over: an error floor
// proportional to h, 4e-13 h for Verner 9, whose monomial coefficients reach 1e4.
TEST_CASE("bogacki_shampine_32: interpolation error ~ h^4") {
    check_dense_order<bogacki_shampine_32>(1.0 / 16, 9);
}
TEST_CASE("dormand_prince_54: interpolation error ~ h^5") {
    check_dense_order<dormand_prince_54>(1.0 / 16, 7);
}
TEST_CASE("tsit5: interpolation error ~ h^5") {
    check_dense_order<tsit5>(1.0 / 32, 6);
}
TEST_CASE("dormand_prince_853: interpolation error ~ h^8") {
    check_dense_order<dormand_prince_853>(0.25, 4);
}
// Verner's 7(6) interpolant misses order 7 by twelve trees with residuals up to 1e-4 (see
// vern7.hpp): its h^7 term overtakes h^8 only below h ~ 1e-3, far under double rounding.
TEST_CASE("vern7: interpolation error ~ h^8 in double precision") {
    check_error_slope<vern7>(0.25, 4, 7.8, 8.2);
}
// Verner 9 meets that floor before its h^11 term has faded: over the usable range, h = 0.5 to
// 0.18 with errors from 5e-8 to 9e-13, the measured slope lies between 10 and 11.
TEST_CASE("vern9: interpolation error ~ h^10 to h^11 above double rounding") {
    check_error_slope<vern9>(0.5, 4, 9.8, 11.2);
}

TEST_CASE("the interpolant starts on y and ends on y_new") {
    check_endpoints<bogacki_shampine_32>();
    check_endpoints<dormand_prince_54>();
    check_endpoints<tsit5>();
    check_endpoints<vern7>();
    check_endpoints<vern9>();
    check_endpoints<dormand_prince_853>();
}

TEST_CASE("in float the interpolant keeps float accuracy") {
    check_float_interpolation<bogacki_shampine_32>();
    check_float_interpolation<dormand_prince_54>();
    check_float_interpolation<tsit5>();
    check_float_interpolation<vern7>();
    check_float_interpolation<vern9>();
    check_float_interpolation<dormand_prince_853>();
}

TEST_CASE("the interpolant summed by powers, as events take it, is the same polynomial") {
    check_interpolation_by_powers<bogacki_shampine_32>();
    check_interpolation_by_powers<dormand_prince_54>();
    check_interpolation_by_powers<tsit5>();
    check_interpolation_by_powers<vern7>();
    check_interpolation_by_powers<vern9>();
    check_interpolation_by_powers<dormand_prince_853>();
}

TEST_CASE("the consistency checks reject broken dense-output coefficients") {
    static_assert(dense_output_tableau<tsit5_with_wrong_weight>);
    static_assert(!check_tableau<tsit5_with_wrong_weight>());
    // These two keep b(1) = b and the row sums: the continuous order conditions reject them.
    static_assert(detail::interpolant_ends_on_solution<dp54_with_weight_moved>());
    static_assert(detail::extra_rows_are_consistent<vern7_with_wrong_extra_row>());
    static_assert(!check_tableau<dp54_with_weight_moved>());
    static_assert(!check_tableau<dop853_with_wrong_extra_row>());
    static_assert(!check_tableau<dop853_with_implicit_extra_row>());
    static_assert(!check_tableau<vern7_with_wrong_extra_row>());
    static_assert(!check_tableau<vern9_with_wrong_extra_node>());
    static_assert(!check_tableau<bs32_with_overstated_order>());
    CHECK(check_tableau<bogacki_shampine_32_tableau>());
}

TEST_CASE("which methods have dense output, of which order, over how many stages") {
    check_has_dense_output<bogacki_shampine_32>(3, 4);
    check_has_dense_output<dormand_prince_54>(4, 7);
    check_has_dense_output<tsit5>(4, 7);
    check_has_dense_output<vern7>(6, 16);
    check_has_dense_output<vern9>(9, 26);
    check_has_dense_output<dormand_prince_853>(7, 16);
    check_has_no_dense_output<euler>();
    check_has_no_dense_output<heun>();
    check_has_no_dense_output<ralston>();
    check_has_no_dense_output<classical_rk4>();
    check_has_no_dense_output<cash_karp_54>();
    check_has_no_dense_output<fehlberg_45>();
}

#if defined(__CUDACC__)
namespace {

template <class Method>
__global__ void interpolate_kernel(state start, double h, const double* theta, int n, state* out) {
    const interpolated_step<Method> step(start, h);
    for (int i = 0; i < n; ++i) out[i] = step.at(theta[i]);
}

/// The kernel's interpolation agrees with the host's (contractions into fused multiply-adds
/// differ, amplified by Verner 9's large weight coefficients).
template <class Method>
void check_interpolation_on_device() {
    const double h = 0.25;
    const state start = kepler_solution(eccentricity, t0);
    const std::vector<double> theta(thetas, thetas + theta_count);
    const auto device_theta = device_buffer<double>::copy_of(theta);
    device_buffer<state> device_out(theta.size());
    interpolate_kernel<Method>
        <<<1, 1>>>(start, h, device_theta.data(), theta_count, device_out.data());
    CUBIE_CUDA_CHECK(cudaGetLastError());
    std::vector<state> out(theta.size());
    device_out.copy_to(out);
    const interpolated_step<Method> host(start, h);
    for (int j = 0; j < theta_count; ++j) {
        const state expected = host.at(theta[j]);
        for (int i = 0; i < orbit::n_states; ++i) {
            INFO(std::string(Method::name) << ", theta " << theta[j] << ", component " << i);
            CHECK(std::abs(out[j][i] - expected[i]) <= 1e-12);
        }
    }
}

}  // namespace

TEST_CASE("interpolation in a kernel matches the host") {
    check_interpolation_on_device<bogacki_shampine_32>();
    check_interpolation_on_device<dormand_prince_54>();
    check_interpolation_on_device<tsit5>();
    check_interpolation_on_device<vern7>();
    check_interpolation_on_device<vern9>();
    check_interpolation_on_device<dormand_prince_853>();
}
#endif
