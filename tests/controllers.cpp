// Step-size controllers on hand-checked cases: the factor each law gives for a known
// error history (values worked out by hand from the formulas in the headers, q = 4).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cubie/controllers/digital_filter_controller.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "support/test_backend.hpp"

using namespace cubie;

namespace {

constexpr int q = 4;  // error estimate order: exponents 1/(q+1) = 0.2

template <class C, class T = double>
auto default_parameters() {
    return typename C::settings{}.template make_parameters<T>(q);
}

}  // namespace

TEST_CASE("i_controller: accepts below 1, rejects above, clamps both ways") {
    const auto p = default_parameters<i_controller>();
    i_controller::state<double> s{};

    auto d = i_controller::decide(p, s, 0.1, 0.5);  // 0.9 * 0.5^-0.2
    CHECK(d.accept);
    CHECK(d.factor == doctest::Approx(1.0338285194973316).epsilon(1e-14));

    d = i_controller::decide(p, s, 0.1, 2.0);  // 0.9 * 2^-0.2
    CHECK_FALSE(d.accept);
    CHECK(d.factor == doctest::Approx(0.7834955069665117).epsilon(1e-14));

    d = i_controller::decide(p, s, 0.1, 1e-3);  // 0.9 * 1e-3^-0.2 = 3.58, but no growth
    CHECK(d.accept);                            // right after a rejection
    CHECK(d.factor == 1.0);

    d = i_controller::decide(p, s, 0.1, 0.0);  // error floored, growth clamped at 10
    CHECK(d.accept);
    CHECK(d.factor == 10.0);

    d = i_controller::decide(p, s, 0.1, 1e9);  // 0.9 * 1e9^-0.2 = 0.014, clamped at 0.2
    CHECK_FALSE(d.accept);
    CHECK(d.factor == 0.2);

    d = i_controller::decide(p, s, 0.1, 1.0);  // exactly the tolerance is accepted
    CHECK(d.accept);
}

TEST_CASE("pi_controller: uses the previous accepted error") {
    const auto p = default_parameters<pi_controller>();
    CHECK(p.exponents[0] == doctest::Approx(0.14));  // OrdinaryDiffEq's Tsit5 defaults
    CHECK(p.exponents[1] == doctest::Approx(-0.08));
    pi_controller::state<double> s{};

    auto d = pi_controller::decide(p, s, 0.1, 0.5);  // 0.9 * 0.5^-0.14 * 1^0.08
    CHECK(d.accept);
    CHECK(d.factor == doctest::Approx(0.9917146042889496).epsilon(1e-14));

    d = pi_controller::decide(p, s, 0.1, 0.1);  // 0.9 * 0.1^-0.14 * 0.5^0.08
    CHECK(d.accept);
    CHECK(d.factor == doctest::Approx(1.1753307800525226).epsilon(1e-14));

    d = pi_controller::decide(p, s, 0.1, 2.0);  // rejection: the I law, 0.9 * 2^-0.2
    CHECK_FALSE(d.accept);
    CHECK(d.factor == doctest::Approx(0.7834955069665117).epsilon(1e-14));
    CHECK(s.log2_errors[0] == std::log2(0.1));  // a rejection leaves the history alone
}

TEST_CASE("pid_controller in float: factors within a few ulps of the powers taken in double") {
    // The filter works in log space (one log2 and one exp2 per step); its factors must
    // still be the product of powers to the precision of the working type.
    const auto p = default_parameters<pid_controller, float>();
    const auto pd = default_parameters<pid_controller>();
    pid_controller::state<float> s{};
    std::vector<double> history{1.0, 1.0, 1.0};
    for (const double err : {0.5, 1e-6, 3e-7, 0.9, 0.02, 1.0, 0.3, 0.7}) {
        const auto d = pid_controller::decide(p, s, 0.1f, float(err));
        history = {std::max(double(float(err)), 1e-6), history[0], history[1]};
        double expected = 0.9;
        for (int i = 0; i < 3; ++i) expected *= std::pow(history[i], -double(pd.exponents[i]));
        expected = std::clamp(expected, 0.2, 10.0);
        CHECK(d.accept);
        CHECK(double(d.factor) == doctest::Approx(expected).epsilon(4 * 0x1p-23));
    }
    const auto rejected = pid_controller::decide(p, s, 0.1f, 1.7f);
    CHECK_FALSE(rejected.accept);
    CHECK(double(rejected.factor) ==
          doctest::Approx(0.9 * std::pow(double(1.7f), -0.2)).epsilon(4 * 0x1p-23));
}

TEST_CASE("pid_controller: three-error history with H312PID gains") {
    const auto p = default_parameters<pid_controller>();
    pid_controller::state<double> s{};
    pid_controller::decide(p, s, 0.1, 0.5);
    pid_controller::decide(p, s, 0.1, 0.25);
    // 0.9 * 0.1^-(1/90) * 0.25^-(1/45) * 0.5^-(1/90)
    const auto d = pid_controller::decide(p, s, 0.1, 0.1);
    CHECK(d.accept);
    CHECK(d.factor == doctest::Approx(0.9595718724899809).epsilon(1e-14));
}

TEST_CASE("gustafsson_controller: the prediction caps growth when the error grows") {
    const auto p = default_parameters<gustafsson_controller>();
    gustafsson_controller::state<double> s{};

    auto d = gustafsson_controller::decide(p, s, 0.1, 0.5);  // first step: 0.9 * 0.5^-0.2
    CHECK(d.factor == doctest::Approx(1.0338285194973316).epsilon(1e-14));

    // elementary 0.9 * 0.25^-0.2 = 1.1876; predicted 0.9 * (0.5 / 0.0625)^0.2 = 1.3641
    d = gustafsson_controller::decide(p, s, 0.1, 0.25);
    CHECK(d.factor == doctest::Approx(1.1875571196956047).epsilon(1e-14));

    // elementary 0.9 * 0.5^-0.2 = 1.0338; predicted 0.9 * (0.25 / 0.25)^0.2 = 0.9
    d = gustafsson_controller::decide(p, s, 0.1, 0.5);
    CHECK(d.accept);
    CHECK(d.factor == doctest::Approx(0.9).epsilon(1e-14));
}

TEST_CASE("every adaptive controller rejects a NaN error with the smallest factor") {
    auto check = [](auto controller) {
        using C = decltype(controller);
        const auto p = default_parameters<C>();
        typename C::template state<double> s{};
        const auto d = C::decide(p, s, 0.1, std::nan(""));
        CHECK_FALSE(d.accept);
        CHECK(d.factor == 0.2);
    };
    check(i_controller{});
    check(pi_controller{});
    check(pid_controller{});
    check(gustafsson_controller{});
}
