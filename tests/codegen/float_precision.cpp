// Every generated member instantiated in float. This translation unit is compiled with
// -Wdouble-promotion (host variant), so a literal or call that would compute in double
// inside a float kernel fails the build; at run time float results track double ones.

#include <doctest/doctest.h>

#include <cmath>

#include "cubie/catalogue/forced_duffing.hpp"
#include "cubie/catalogue/hodgkin_huxley.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/catalogue/lorenz96.hpp"
#include "cubie/catalogue/pleiades.hpp"
#include "cubie/catalogue/pollution.hpp"
#include "cubie/catalogue/ring_modulator.hpp"
#include "cubie/catalogue/robertson.hpp"
#include "cubie/catalogue/van_der_pol.hpp"

using namespace cubie;

namespace {

/// Calls every member in T at the default point (t = t0) and returns dy/dt.
template <class S>
state_t<S> exercise(typename S::value_type t0) {
    using T = typename S::value_type;
    const S sys{};
    const state_t<S>& y = S::default_state;
    const parameters_t<S>& p = S::default_parameters;
    drivers_t<S> d{};
    for (auto& value : d) value = T(0.5);
    state_t<S> f, jv, dfdt;
    sys.rhs(t0, y, p, d, f);
    sys.jvp(t0, y, p, d, y, jv);
    sys.time_derivative(t0, y, p, d, dfdt);
    if constexpr (has_jacobian<S>) {
        jacobian_t<S> J;
        sys.jacobian(t0, y, p, d, J);
    }
    if constexpr (has_observables<S>) {
        observables_t<S> out;
        sys.observables(t0, y, p, d, out);
    }
    if constexpr (S::n_drivers > 0) {
        vector<vector<T, S::n_drivers>, S::n_states> Jd;
        sys.driver_jacobian(t0, y, p, d, Jd);
    }
    return f;
}

template <template <class> class S>
void check_float_tracks_double(double t0 = 0.25, double tolerance = 1e-4) {
    const state_t<S<float>> single = exercise<S<float>>(float(t0));
    const state_t<S<double>> twice = exercise<S<double>>(t0);
    double scale = 0;
    for (double v : twice) scale = std::max(scale, std::abs(v));
    for (int i = 0; i < S<double>::n_states; ++i) {
        CAPTURE(i);
        CHECK(std::abs(double(single[i]) - twice[i]) <= tolerance * (scale + 1e-30));
    }
}

}  // namespace

TEST_CASE("float instantiations of every generated system track double") {
    check_float_tracks_double<catalogue::lorenz>();
    check_float_tracks_double<catalogue::lorenz96>();
    check_float_tracks_double<catalogue::pleiades>();
    check_float_tracks_double<catalogue::pollution>();
    check_float_tracks_double<catalogue::ring_modulator>(2.5e-5);
    check_float_tracks_double<catalogue::robertson>();
    check_float_tracks_double<catalogue::van_der_pol>();
    check_float_tracks_double<catalogue::hodgkin_huxley>();
    check_float_tracks_double<catalogue::forced_duffing>();
}
