// DIRK steps with direct_lu taken by several lanes together (algorithms/on_lanes.hpp)
// against the one-thread step (support/lanes_against_one_thread.hpp): on the host bit for
// bit, Newton iterations included, with teams of 4 and 8 host threads on Pollution in float
// and double, adaptive (kvaerno5) and with fixed steps (sdirk3); on the device within the
// tolerance.

#include <doctest/doctest.h>

#include <type_traits>
#include <utility>

#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/dirk/sdirk3.hpp"
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "support/lanes_against_one_thread.hpp"

using namespace cubie;
using namespace cubie::testing;

namespace {
/// kvaerno5 whose one-lane step_with_error, constrained as dirk's is, returns double: the
/// type a call through on_lanes returns says whose step it took.
struct one_lane_says_so : kvaerno5 {
    template <class F, class State, int N, class T = typename F::value_type>
    requires(N > 0) static double step_with_error(const F&, T, T, const State&, const State&,
                                                  State&, State&, const tolerances<T, N>&,
                                                  implicit_step_report&);
};
}  // namespace

// on_lanes takes a cooperative method's steps itself, whatever their constraints: a base
// member brought in beside its own, with another constraint, won the call, and kvaerno5 on
// 8 lanes ran the one-lane step on every lane.
using says_so_on_lanes = on_lanes<one_lane_says_so, 8>;
static_assert(
    std::is_same_v<
        decltype(says_so_on_lanes::step_with_error(
            std::declval<const right_hand_side<pollution<float>>&>(), 0.f, 0.f,
            std::declval<const state_t<pollution<float>>&>(),
            std::declval<const state_t<pollution<float>>&>(),
            std::declval<state_t<pollution<float>>&>(), std::declval<state_t<pollution<float>>&>(),
            std::declval<const tolerances<float, 20>&>(), std::declval<implicit_step_report&>())),
        float>);

#if !defined(__CUDACC__)
TEST_CASE_TEMPLATE("kvaerno5 on 4 and 8 lanes, sdirk3 on 8: Newton iterations bit for bit", T,
                   float, double) {
    const auto s = pollution_settings<T, pi_controller>(sizeof(T) == 4 ? 1e-5 : 1e-8);
    for (const double k1 : {0.035, 3.5}) {
        CAPTURE(k1);
        const outcome<T> alone = integrate_pollution<kvaerno5, pi_controller>(s, T(k1));
        REQUIRE(alone.result == status::success);
        REQUIRE(alone.counters.newton_iterations > alone.counters.accepted);
        check_team_integration<kvaerno5, 4>(s, T(k1));
        check_team_integration<kvaerno5, 8>(s, T(k1));
    }
    auto fixed = pollution_settings<T, fixed_step>(0);
    fixed.dt = 60.0 / 128;
    check_team_integration<sdirk3, 8>(fixed, T(0.35));
}

#else
TEST_CASE("cuda: kvaerno5 on 4 and 8 lanes against one thread, within the tolerance") {
    using one_thread = on_lanes<kvaerno5, 1>;
    check_against_one_thread<float, on_lanes<kvaerno5, 4>, one_thread>(1e-5);
    check_against_one_thread<double, on_lanes<kvaerno5, 8>, one_thread>(1e-8);
}
#endif
