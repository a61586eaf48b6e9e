// Tableau properties, and the compile-time checks themselves: a tableau with a wrong
// coefficient must fail them. (Orders above 4 are beyond the checked trees; the
// convergence suites measure them.)

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>
#include <type_traits>

#include "cubie/cubie.hpp"

using namespace cubie;

namespace {

// Classical RK4 with one weight moved: still consistent (weights sum to 1), order 1 only.
struct rk4_with_wrong_weights : classical_rk4_tableau {
    static constexpr double b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 6, 1.0 / 3};
};
struct rk4_with_wrong_c : classical_rk4_tableau {
    static constexpr double c[4] = {0, 1.0 / 2, 1.0 / 3, 1};
};
struct rk4_implicit : classical_rk4_tableau {
    static constexpr double a[4][4] = {
        {0, 0, 0, 0}, {1.0 / 2, 0, 0, 0}, {0, 1.0 / 4, 1.0 / 4, 0}, {0, 0, 1, 0}};
};
// Dormand-Prince 5(4) with the embedded weights of another pair.
struct dp54_wrong_embedded : dormand_prince_54_tableau {
    static constexpr double b_hat[7] = {1, 0, 0, 0, 0, 0, 0};
};

template <class Method>
void check_method(int stages, int order, bool fsal, int error_order) {
    INFO(std::string(Method::name));
    CHECK(Method::stages == stages);
    CHECK(Method::order == order);
    CHECK(Method::fsal == fsal);
    CHECK(Method::has_error_estimate == (error_order > 0));
    CHECK(Method::error_estimate_order == error_order);
}

}  // namespace

TEST_CASE("the consistency checks reject broken tableaus") {
    static_assert(check_tableau<classical_rk4_tableau>());
    static_assert(!check_tableau<rk4_with_wrong_weights>());
    static_assert(!check_tableau<rk4_with_wrong_c>());
    static_assert(!check_tableau<rk4_implicit>());
    static_assert(!check_tableau<dp54_wrong_embedded>());
    CHECK(!is_fsal<classical_rk4_tableau>());
    CHECK(is_fsal<dormand_prince_54_tableau>());
}

TEST_CASE("stages, orders, FSAL and error-estimate orders of the explicit methods") {
    check_method<euler>(1, 1, false, 0);
    check_method<heun>(2, 2, false, 0);
    check_method<ralston>(2, 2, false, 0);
    check_method<bogacki_shampine_32>(4, 3, true, 2);
    check_method<classical_rk4>(4, 4, false, 0);
    check_method<dormand_prince_54>(7, 5, true, 4);
    check_method<tsit5>(7, 5, true, 4);
    check_method<cash_karp_54>(6, 5, false, 4);
    check_method<fehlberg_45>(6, 4, false, 4);
    check_method<dormand_prince_853>(12, 8, false, 7);
    check_method<vern7>(10, 7, false, 6);
    check_method<vern9>(16, 9, false, 8);
}

namespace {

/// y' = 1, recording the state at every evaluation: the stage points of one step.
struct recording_unit_slope {
    using value_type = float;
    float* points;  // room for every stage point
    int* count;
    CUBIE_HD void operator()(float, const vector<float, 1>& y, vector<float, 1>& dydt) const {
        points[(*count)++] = y[0];
        dydt[0] = 1.0f;
    }
};

/// One float step of y' = 1 from y = 1: every stage point is 1 + c_s dt and the new state
/// 1 + dt, each within an ulp of 1 (2^-23) when y is rounded once per point.
template <class Method>
void check_stage_points_round_y_once(float dt) {
    INFO(std::string(Method::name));
    INFO(dt);
    std::array<float, Method::stages> points{};
    int count = 0;
    const recording_unit_slope f{points.data(), &count};
    const vector<float, 1> y{1.0f}, dydt{1.0f};
    vector<float, 1> y_new{}, dydt_new{};
    Method::step(f, 0.0f, dt, y, dydt, y_new, dydt_new);
    REQUIRE(count == Method::stages - 1);
    const double ulp = std::ldexp(1.0, -23);
    for (int s = 1; s < Method::stages; ++s) {
        INFO("stage " << s);
        CHECK(std::fabs(points[s - 1] - (1.0 + Method::tableau::c[s] * double(dt))) <= ulp);
    }
    CHECK(std::fabs(y_new[0] - (1.0 + double(dt))) <= ulp);
}

/// Every row of weights, applied in float, sums to the row's c (1 for b) to within float's
/// rounding of one weight: the smallest after the first whose ratio to the first is not a
/// float; of c where there is none.
template <class Method>
void check_float_weights_sum_to_c() {
    INFO(std::string(Method::name));
    using tableau = typename Method::tableau;
    const auto check_row = [](auto row, double c, const double* weights, int count) {
        INFO("row " << decltype(row)::value);
        double first = 0, smallest = 0;
        for (int j = 0; j < count; ++j) {
            if (weights[j] == 0.0) continue;
            const double ratio = first == 0 ? 1 : weights[j] / first;
            if (first == 0)
                first = weights[j];
            else if (double(float(ratio)) != ratio &&
                     (smallest == 0 || std::fabs(weights[j]) < smallest))
                smallest = std::fabs(weights[j]);
        }
        if (smallest == 0) smallest = std::fabs(c);
        constexpr double sum = Method::template applied_weight_sum<decltype(row)::value, float>();
        CHECK(std::fabs(sum - c) <= std::ldexp(smallest, -24) + 1e-15);
    };
    static_for<Method::stages - 1>([&](auto s) {
        constexpr int row = s + 1;
        check_row(std::integral_constant<int, row>{}, tableau::c[row], tableau::a[row], row);
    });
    check_row(std::integral_constant<int, Method::stages>{}, 1.0, tableau::b, Method::stages);
}

}  // namespace

// Weights rounded to float one by one sum to c only to about |w| 2^-24, the same error in
// every step: a drift along the solution that a problem's dynamics can amplify (float Tsit5
// on Lorenz at 1e-6 had 3 times the mean error of a sum that happened to round closer).
TEST_CASE("explicit methods' weights, applied in float, sum to c") {
    check_float_weights_sum_to_c<euler>();
    check_float_weights_sum_to_c<heun>();
    check_float_weights_sum_to_c<ralston>();
    check_float_weights_sum_to_c<bogacki_shampine_32>();
    check_float_weights_sum_to_c<classical_rk4>();
    check_float_weights_sum_to_c<dormand_prince_54>();
    check_float_weights_sum_to_c<tsit5>();
    check_float_weights_sum_to_c<cash_karp_54>();
    check_float_weights_sum_to_c<fehlberg_45>();
    check_float_weights_sum_to_c<dormand_prince_853>();
    check_float_weights_sum_to_c<vern7>();
    check_float_weights_sum_to_c<vern9>();
}

// A stage point summed into y term by term rounds y once per term (a few ulps of noise in
// every stage point); it failed so 8 checks, in 6 of the 12 methods, at these step sizes.
TEST_CASE("explicit methods round y once per stage point and once for the new state") {
    for (const float dt : {0.01f, 3e-4f, 7.3e-6f}) {
        check_stage_points_round_y_once<euler>(dt);
        check_stage_points_round_y_once<heun>(dt);
        check_stage_points_round_y_once<ralston>(dt);
        check_stage_points_round_y_once<bogacki_shampine_32>(dt);
        check_stage_points_round_y_once<classical_rk4>(dt);
        check_stage_points_round_y_once<dormand_prince_54>(dt);
        check_stage_points_round_y_once<tsit5>(dt);
        check_stage_points_round_y_once<cash_karp_54>(dt);
        check_stage_points_round_y_once<fehlberg_45>(dt);
        check_stage_points_round_y_once<dormand_prince_853>(dt);
        check_stage_points_round_y_once<vern7>(dt);
        check_stage_points_round_y_once<vern9>(dt);
    }
}
