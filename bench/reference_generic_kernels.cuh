#pragma once
// Hand-written classical RK4 and adaptive Tsit5 kernels over any right-hand side written
// as plain CUDA (no library code): the practical speed of light for systems other than the
// three-state Lorenz of reference_kernels.cuh, and for saving on the way. One thread per
// trajectory, the state in an array (in registers while it fits), one parameter per
// trajectory, inputs and final states [variable][trajectory], saved series
// [save][state][trajectory].
//
// A Problem has `static constexpr int n` states and
//   __device__ static void rhs(const float (&y)[n], float p, float (&dydt)[n]);

#include "reference_tsit5_tableau.cuh"

namespace reference {

/// y_out = y + h sum_j w_j k_j over the first `Stages` of Tsit5's seven stages k.
template <int Stages, int N>
__device__ __forceinline__ void combine(const float (&y)[N], float h, const float (&w)[Stages],
                                        const float (&k)[7][N], float (&y_out)[N]) {
#pragma unroll
    for (int i = 0; i < N; ++i) {
        float sum = 0.0f;
#pragma unroll
        for (int j = 0; j < Stages; ++j) sum += w[j] * k[j][i];
        y_out[i] = y[i] + h * sum;
    }
}

template <int N>
__device__ __forceinline__ void store(const float (&y)[N], float* __restrict__ out, int n_traj,
                                      int i) {
#pragma unroll
    for (int j = 0; j < N; ++j) out[j * n_traj + i] = y[j];
}

/// Classical RK4: `steps` steps of dt; with Saves, the state after every
/// `save_every_steps`-th step.
template <class Problem, bool Saves = false>
__global__ void generic_rk4(const float* __restrict__ y0, const float* __restrict__ params,
                            float* __restrict__ out, float* __restrict__ saved, int n_traj,
                            float dt, int steps, int save_every_steps) {
    constexpr int n = Problem::n;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_traj) return;
    float y[n];
#pragma unroll
    for (int j = 0; j < n; ++j) y[j] = y0[j * n_traj + i];
    const float p = params[i];
    const float half = 0.5f * dt, sixth = dt / 6.0f;
    int next_save = save_every_steps, save = 0;
    for (int s = 1; s <= steps; ++s) {
        float k1[n], k2[n], k3[n], k4[n], stage[n];
        Problem::rhs(y, p, k1);
#pragma unroll
        for (int j = 0; j < n; ++j) stage[j] = y[j] + half * k1[j];
        Problem::rhs(stage, p, k2);
#pragma unroll
        for (int j = 0; j < n; ++j) stage[j] = y[j] + half * k2[j];
        Problem::rhs(stage, p, k3);
#pragma unroll
        for (int j = 0; j < n; ++j) stage[j] = y[j] + dt * k3[j];
        Problem::rhs(stage, p, k4);
#pragma unroll
        for (int j = 0; j < n; ++j) y[j] += sixth * (k1[j] + 2.0f * (k2[j] + k3[j]) + k4[j]);
        if constexpr (Saves)
            if (s == next_save) {
                store(y, saved + std::size_t(save) * n * n_traj, n_traj, i);
                ++save;
                next_save += save_every_steps;
            }
    }
    store(y, out, n_traj, i);
}

/// Tsit5 over [0, t_end] with a PI controller (exponents 0.14 and 0.08, safety 0.9, factor
/// in [0.2, 10]) and the RMS error norm scaled by tol + tol max(|y|, |y_new|). A trajectory
/// fails, with a NaN final state, when its step no longer advances t or after a million
/// attempted steps. With Saves, the state at k save_every (k = 1 .. n_saves, at most t_end)
/// from the interpolant of the step that passes it.
template <class Problem, bool Saves = false>
__global__ void generic_tsit5(const float* __restrict__ y0, const float* __restrict__ params,
                              float* __restrict__ out, float* __restrict__ saved,
                              unsigned* __restrict__ steps_taken, int n_traj, float dt0, float tol,
                              float t_end, float save_every, int n_saves) {
    using namespace tsit5_tableau;
    constexpr int n = Problem::n;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_traj) return;
    float y[n], y_new[n], k[7][n];
#pragma unroll
    for (int j = 0; j < n; ++j) y[j] = y0[j * n_traj + i];
    const float p = params[i];
    float t = 0, h = dt0, err_old = 1.0f;
    unsigned steps = 0;
    int save = 0;
    const auto save_time = [&] { return fminf(float(save + 1) * save_every, t_end); };
    Problem::rhs(y, p, k[0]);
    while (t < t_end && steps < 1000000u) {
        const bool last = t + 1.01f * h >= t_end;
        if (last) h = t_end - t;
        float stage[n];
        combine<1>(y, h, {a21}, k, stage);
        Problem::rhs(stage, p, k[1]);
        combine<2>(y, h, {a31, a32}, k, stage);
        Problem::rhs(stage, p, k[2]);
        combine<3>(y, h, {a41, a42, a43}, k, stage);
        Problem::rhs(stage, p, k[3]);
        combine<4>(y, h, {a51, a52, a53, a54}, k, stage);
        Problem::rhs(stage, p, k[4]);
        combine<5>(y, h, {a61, a62, a63, a64, a65}, k, stage);
        Problem::rhs(stage, p, k[5]);
        combine<6>(y, h, {b1, b2, b3, b4, b5, b6}, k, y_new);
        Problem::rhs(y_new, p, k[6]);
        float sum = 0.0f;
#pragma unroll
        for (int j = 0; j < n; ++j) {
            const float e = h * (e1 * k[0][j] + e2 * k[1][j] + e3 * k[2][j] + e4 * k[3][j] +
                                 e5 * k[4][j] + e6 * k[5][j] + e7 * k[6][j]);
            const float r = e / (tol + tol * fmaxf(fabsf(y[j]), fabsf(y_new[j])));
            sum += r * r;
        }
        const float err = sqrtf(sum / float(n));
        ++steps;
        float factor;
        if (err <= 1.0f) {
            const float t_new = last ? t_end : t + h;
            if constexpr (Saves)
                for (; save < n_saves && save_time() < t_new; ++save) {
                    float w[7], y_out[n];
                    dense_weights((save_time() - t) / h, w);
                    combine<7>(y, h, w, k, y_out);
                    store(y_out, saved + std::size_t(save) * n * n_traj, n_traj, i);
                }
            t = t_new;
#pragma unroll
            for (int j = 0; j < n; ++j) {
                y[j] = y_new[j];
                k[0][j] = k[6][j];
            }
            if constexpr (Saves)
                for (; save < n_saves && save_time() <= t; ++save)
                    store(y, saved + std::size_t(save) * n * n_traj, n_traj, i);
            const float e = fmaxf(err, 1e-6f);
            factor = 0.9f * powf(e, -0.14f) * powf(err_old, 0.08f);
            err_old = e;
            if (last) break;
        } else {
            factor = 0.9f * powf(err, -0.2f);
        }
        h *= fminf(10.0f, fmaxf(0.2f, factor));
        if (t + h == t) break;
    }
    if (t < t_end)
#pragma unroll
        for (int j = 0; j < n; ++j) y[j] = __int_as_float(0x7fc00000);
    store(y, out, n_traj, i);
    steps_taken[i] = steps;
}

}  // namespace reference
