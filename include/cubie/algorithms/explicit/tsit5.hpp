#pragma once
// Tsitouras 5(4) (Ch. Tsitouras, 2011): seven stages, FSAL, fifth-order solution with a
// fourth-order embedded error estimate. Coefficients are the values of OrdinaryDiffEq.jl's
// Tsit5 tableau, rounded to 21 significant digits.

#include "cubie/algorithms/explicit/butcher_tableau.hpp"
#include "cubie/algorithms/explicit/explicit_runge_kutta.hpp"

namespace cubie {

struct tsit5_tableau {
    static constexpr const char* name = "tsit5";
    static constexpr int stages = 7;
    static constexpr int order = 5;
    static constexpr int embedded_order = 4;
    static constexpr double a[7][7] = {
        {0, 0, 0, 0, 0, 0, 0},
        {161.0 / 1000, 0, 0, 0, 0, 0, 0},
        {-8.48065549235698854443e-3, 0.335480655492356988544, 0, 0, 0, 0, 0},
        {2.89715305710549343213, -6.35944848997507484315, 4.36229543286958141102, 0, 0, 0, 0},
        {5.32586482843925660443, -11.7488835640628278777, 7.4955393428898362083,
         -0.0924950663617552492565, 0, 0, 0},
        {5.86145544294642002866, -12.9209693178471092917, 8.15936789857615864318,
         -0.0715849732814009972245, -0.028269050394068382909, 0, 0},
        {0.0964607668180652295182, 1.0 / 100, 0.479889650414499574775, 1.37900857410374189319,
         -3.2900695154360806799, 2.32471052409977398242, 0},
    };
    static constexpr double b[7] = {0.0964607668180652295182,
                                    1.0 / 100,
                                    0.479889650414499574775,
                                    1.37900857410374189319,
                                    -3.2900695154360806799,
                                    2.32471052409977398242,
                                    0};
    static constexpr double b_hat[7] = {0.0946807557658394580748,
                                        9.18356554034325309678e-3,
                                        0.487770528424761570786,
                                        1.23429756693047898566,
                                        -2.70771234998352545488,
                                        1.86662841817058703575,
                                        1.0 / 66};
    static constexpr double c[7] = {
        0, 161.0 / 1000, 327.0 / 1000, 9.0 / 10, 0.98002554090450968573, 1, 1};
    // Dense output: Tsitouras' interpolant of order 4 over the seven stages, the expanded
    // polynomial weights of OrdinaryDiffEq.jl's Tsit5Interp (its high-precision values).
    // Checked for every rooted tree up to its order by
    // tests/reference/check_dense_output_conditions.py.
    static constexpr int dense_stages = 7;
    static constexpr int dense_order = 4;
    static constexpr int dense_degree = 4;
    static constexpr double b_dense[7][4] = {
        {1, -2.76370619727482591134, 2.91325546182191274375, -1.0530884977290216},
        {0, 0.1317, -0.2234, 0.1017},
        {0, 3.93029623689475152851, -5.94103387213150473470, 2.490627285651252793},
        {0, -12.4110771669336769837, 30.3381886302823215982, -16.54810288924490272},
        {0, 37.5093134165110391950, -88.1789048947664011014, 47.37952196281928122},
        {0, -27.8965262891972878059, 65.0918946747936715263, -34.87065786149660974},
        {0, 1.5, -4, 2.5},
    };
};
static_assert(check_tableau<tsit5_tableau>());
static_assert(is_fsal<tsit5_tableau>());

using tsit5 = explicit_runge_kutta<tsit5_tableau>;

}  // namespace cubie
