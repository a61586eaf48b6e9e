// Step-size controllers on hand-checked cases: the factor each law gives for a known
// error history (values worked out by hand from the formulas in the headers, q = 4); and
// the approximate arithmetic they and the error norm use, on the test backend.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cubie/controllers/gustafsson_controller.hpp"
#include "cubie/controllers/i_controller.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/controllers/pid_controller.hpp"
#include "cubie/core/step_size_math.hpp"
#include "support/test_backend.hpp"

#if defined(__CUDACC__)
#include "cubie/core/device_buffer.hpp"
#endif

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

namespace {

/// step_size_divide(a, b), step_size_sqrt(b) and step_size_log2(b) for each pair, in float,
/// where the test backend runs: three results per pair.
#if defined(__CUDACC__)
__global__ void step_size_math_kernel(const float* a, const float* b, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[3 * i] = step_size_divide(a[i], b[i]);
    out[3 * i + 1] = step_size_sqrt(b[i]);
    out[3 * i + 2] = step_size_log2(b[i]);
}

std::vector<float> step_size_math(const std::vector<float>& a, const std::vector<float>& b) {
    const int n = static_cast<int>(a.size());
    const auto a_device = device_buffer<float>::copy_of(a);
    const auto b_device = device_buffer<float>::copy_of(b);
    device_buffer<float> out_device(3 * a.size());
    step_size_math_kernel<<<(n + 127) / 128, 128>>>(a_device.data(), b_device.data(),
                                                    out_device.data(), n);
    CUBIE_CUDA_CHECK(cudaGetLastError());
    std::vector<float> out(3 * a.size());
    out_device.copy_to(out);
    return out;
}
#else
std::vector<float> step_size_math(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> out;
    for (std::size_t i = 0; i < a.size(); ++i) {
        out.push_back(step_size_divide(a[i], b[i]));
        out.push_back(step_size_sqrt(b[i]));
        out.push_back(step_size_log2(b[i]));
    }
    return out;
}
#endif

}  // namespace

TEST_CASE("step-size arithmetic: within its stated bounds over the whole float range") {
    // b runs over every binade, subnormal to the largest, with mantissas across [1, 2).
    std::vector<float> a, b;
    for (const float numerator : {1.0f, -2.5f, 3e-20f, 1.7e30f, 3e38f})
        for (int e = -149; e <= 127; ++e)
            for (const float m : {1.0f, 1.1f, 1.5f, 1.9999999f}) {
                const float x = std::ldexp(m, e);
                if (!std::isfinite(x) || x == 0.0f) continue;
                a.push_back(numerator);
                b.push_back(x);
            }
    const std::vector<float> out = step_size_math(a, b);

    const double bound = std::ldexp(1.0, -21);
    int quotients = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        CAPTURE(a[i]);
        CAPTURE(b[i]);
        const double quotient = double(a[i]) / double(b[i]);
        const double magnitude = std::fabs(quotient);
        if (magnitude >= std::numeric_limits<float>::min() &&
            magnitude <= std::numeric_limits<float>::max()) {
            CHECK(std::fabs(out[3 * i] - quotient) <= bound * magnitude);
            ++quotients;
        }
        const double root = std::sqrt(double(b[i]));
        CHECK(std::fabs(out[3 * i + 1] - root) <= bound * root);
        // absolute near 1, relative (the float result's own rounding) far from it
        const double logarithm = std::log2(double(b[i]));
        CHECK(std::fabs(out[3 * i + 2] - logarithm) <= bound * std::max(1.0, std::fabs(logarithm)));
    }
    CHECK(quotients > 3000);  // huge divisors (above 2^126) among them
}

TEST_CASE("step-size arithmetic: zeros, infinities and NaN as the controllers need them") {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> a{1.0f, 0.0f, nan, 1.0f};
    const std::vector<float> b{0.0f, 0.0f, 1.0f, inf};
    const std::vector<float> out = step_size_math(a, b);
    CHECK(out[0] == inf);  // an error over a zero scale rejects the step
    CHECK(std::isnan(out[3]));
    CHECK(std::isnan(out[6]));
    CHECK(out[9] == 0.0f);
    CHECK(out[1] == 0.0f);  // a zero error norm
    CHECK(out[2] == -inf);
    CHECK(out[10] == inf);  // an infinite error norm stays infinite, so is rejected
    CHECK(out[11] == inf);

    const std::vector<float> out_nan = step_size_math({1.0f}, {nan});
    CHECK(std::isnan(out_nan[0]));
    CHECK(std::isnan(out_nan[1]));
    CHECK(std::isnan(out_nan[2]));
}
