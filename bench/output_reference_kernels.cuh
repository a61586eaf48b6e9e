#pragma once
// Hand-written Lorenz RK4 kernels that record outputs, the practical speed of light for the
// library's saved series and summaries: one thread per trajectory, state in registers,
// outputs laid out as the library lays them out, [row][trajectory], so that a warp's
// stores coalesce. Plain CUDA: no library code.

#include <cmath>
#include <cstddef>

#include "reference_kernels.cuh"

namespace reference {

/// One trajectory of the sweep stepped by classical RK4 of dt: its state, rho and the
/// step's fractions in registers, read from and written to [variable][trajectory] arrays.
struct lorenz_trajectory {
    float x, y, z, r;
    float dt, half, sixth;

    __device__ __forceinline__ lorenz_trajectory(const float* __restrict__ y0,
                                                 const float* __restrict__ rho, int n, int i,
                                                 float step)
        : x(y0[i]),
          y(y0[n + i]),
          z(y0[2 * n + i]),
          r(rho[i]),
          dt(step),
          half(0.5f * step),
          sixth(step / 6.0f) {}

    __device__ __forceinline__ void step() { rk4_step(x, y, z, r, dt, half, sixth); }

    /// The state into three rows `row` apart, from `at` on.
    __device__ __forceinline__ void store(float* __restrict__ at, std::size_t row) const {
        at[0] = x;
        at[row] = y;
        at[2 * row] = z;
    }
};

/// `steps` steps of dt, saving the state after every Every steps into saved,
/// [save][state][trajectory] (steps / Every saves), and the final state into out.
template <int Every>
__global__ void rk4_saving(const float* __restrict__ y0, const float* __restrict__ rho,
                           float* __restrict__ out, float* __restrict__ saved, int n, float dt,
                           int steps) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    lorenz_trajectory t(y0, rho, n, i, dt);
    const auto row = static_cast<std::size_t>(n);
    const int saves = steps / Every;
    for (int k = 0; k < saves; ++k) {
#pragma unroll
        for (int s = 0; s < Every; ++s) t.step();
        t.store(saved + 3 * k * row + i, row);
    }
    for (int s = saves * Every; s < steps; ++s) t.step();
    t.store(out + i, row);
}

/// `steps` steps of dt, sampling the state after every step; over each window of Window
/// samples, the mean, largest and smallest value of every state go to summaries,
/// [window][row][trajectory] with rows mean x, y, z, max x, y, z, min x, y, z (steps /
/// Window windows). The final state goes to out.
template <int Window>
__global__ void rk4_summarising(const float* __restrict__ y0, const float* __restrict__ rho,
                                float* __restrict__ out, float* __restrict__ summaries, int n,
                                float dt, int steps) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    lorenz_trajectory t(y0, rho, n, i, dt);
    const auto row = static_cast<std::size_t>(n);
    const int windows = steps / Window;
    for (int w = 0; w < windows; ++w) {
        float sx = 0, sy = 0, sz = 0;
        float hx = -INFINITY, hy = -INFINITY, hz = -INFINITY;
        float lx = INFINITY, ly = INFINITY, lz = INFINITY;
#pragma unroll 8
        for (int s = 0; s < Window; ++s) {
            t.step();
            sx += t.x, sy += t.y, sz += t.z;
            hx = fmaxf(hx, t.x), hy = fmaxf(hy, t.y), hz = fmaxf(hz, t.z);
            lx = fminf(lx, t.x), ly = fminf(ly, t.y), lz = fminf(lz, t.z);
        }
        const float mean = 1.0f / Window;
        const float values[9] = {sx * mean, sy * mean, sz * mean, hx, hy, hz, lx, ly, lz};
#pragma unroll
        for (int v = 0; v < 9; ++v) summaries[(9 * std::size_t(w) + v) * row + i] = values[v];
    }
    for (int s = windows * Window; s < steps; ++s) t.step();
    t.store(out + i, row);
}

}  // namespace reference
