#pragma once
// Tsitouras 5(4)'s coefficients in float, for the hand-written kernels (plain CUDA: no
// library code): the tableau, the error weights, and the weights of its interpolant.

namespace reference {

/// The stage times c are left out: the benchmark problems are autonomous.
namespace tsit5_tableau {
constexpr float a21 = 0.161f;
constexpr float a31 = -8.48065549235698854443e-3f, a32 = 0.335480655492356988544f;
constexpr float a41 = 2.89715305710549343213f, a42 = -6.35944848997507484315f,
                a43 = 4.36229543286958141102f;
constexpr float a51 = 5.32586482843925660443f, a52 = -11.7488835640628278777f,
                a53 = 7.4955393428898362083f, a54 = -0.0924950663617552492565f;
constexpr float a61 = 5.86145544294642002866f, a62 = -12.9209693178471092917f,
                a63 = 8.15936789857615864318f, a64 = -0.0715849732814009972245f,
                a65 = -0.028269050394068382909f;
constexpr float b1 = 0.0964607668180652295182f, b2 = 0.01f, b3 = 0.479889650414499574775f,
                b4 = 1.37900857410374189319f, b5 = -3.2900695154360806799f,
                b6 = 2.32471052409977398242f;
// b - b_hat
constexpr float e1 = 0.0964607668180652295182f - 0.0946807557658394580748f,
                e2 = 0.01f - 9.18356554034325309678e-3f,
                e3 = 0.479889650414499574775f - 0.487770528424761570786f,
                e4 = 1.37900857410374189319f - 1.23429756693047898566f,
                e5 = -3.2900695154360806799f + 2.70771234998352545488f,
                e6 = 2.32471052409977398242f - 1.86662841817058703575f, e7 = -1.0f / 66;

/// The interpolant's weights at theta in [0, 1] (Tsitouras 2011, the expanded polynomials
/// of OrdinaryDiffEq.jl's Tsit5Interp): y(t + theta h) = y + h sum_j w_j k_j.
__device__ __forceinline__ void dense_weights(float theta, float (&w)[7]) {
    constexpr float d[7][4] = {
        {1.0f, -2.76370619727482591134f, 2.91325546182191274375f, -1.0530884977290216f},
        {0.0f, 0.1317f, -0.2234f, 0.1017f},
        {0.0f, 3.93029623689475152851f, -5.94103387213150473470f, 2.490627285651252793f},
        {0.0f, -12.4110771669336769837f, 30.3381886302823215982f, -16.54810288924490272f},
        {0.0f, 37.5093134165110391950f, -88.1789048947664011014f, 47.37952196281928122f},
        {0.0f, -27.8965262891972878059f, 65.0918946747936715263f, -34.87065786149660974f},
        {0.0f, 1.5f, -4.0f, 2.5f}};
#pragma unroll
    for (int j = 0; j < 7; ++j)
        w[j] = theta * (d[j][0] + theta * (d[j][1] + theta * (d[j][2] + theta * d[j][3])));
}
}  // namespace tsit5_tableau

}  // namespace reference
