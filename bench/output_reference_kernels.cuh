#pragma once
// Hand-written Lorenz RK4 kernels that record outputs, the practical speed of light for the
// library's saved series and summaries: one thread per trajectory, state in registers,
// outputs laid out as the library lays them out, [row][trajectory], so that a warp's
// stores coalesce. Plain CUDA: no library code.

#include <cmath>
#include <cstddef>

#include "reference_kernels.cuh"

namespace reference {

/// One classical RK4 step of dt.
__device__ __forceinline__ void rk4_step(float& x, float& y, float& z, float r, float dt) {
    const float half = 0.5f * dt, sixth = dt / 6.0f;
    float ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz;
    lorenz(x, y, z, r, ax, ay, az);
    lorenz(x + half * ax, y + half * ay, z + half * az, r, bx, by, bz);
    lorenz(x + half * bx, y + half * by, z + half * bz, r, cx, cy, cz);
    lorenz(x + dt * cx, y + dt * cy, z + dt * cz, r, dx, dy, dz);
    x += sixth * (ax + 2.0f * (bx + cx) + dx);
    y += sixth * (ay + 2.0f * (by + cy) + dy);
    z += sixth * (az + 2.0f * (bz + cz) + dz);
}

/// `steps` steps of dt, saving the state after every Every steps into saved,
/// [save][state][trajectory] (steps / Every saves), and the final state into out.
template <int Every>
__global__ void rk4_saving(const float* __restrict__ y0, const float* __restrict__ rho,
                           float* __restrict__ out, float* __restrict__ saved, int n, float dt,
                           int steps) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = y0[i], y = y0[n + i], z = y0[2 * n + i];
    const float r = rho[i];
    const int saves = steps / Every;
    const std::size_t row = static_cast<std::size_t>(n);
    float* at = saved + i;
    for (int k = 0; k < saves; ++k) {
#pragma unroll
        for (int s = 0; s < Every; ++s) rk4_step(x, y, z, r, dt);
        at[0] = x;
        at[row] = y;
        at[2 * row] = z;
        at += 3 * row;
    }
    for (int s = saves * Every; s < steps; ++s) rk4_step(x, y, z, r, dt);
    out[i] = x;
    out[n + i] = y;
    out[2 * n + i] = z;
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
    float x = y0[i], y = y0[n + i], z = y0[2 * n + i];
    const float r = rho[i];
    const int windows = steps / Window;
    const std::size_t row = static_cast<std::size_t>(n);
    float* at = summaries + i;
    for (int w = 0; w < windows; ++w) {
        float sx = 0, sy = 0, sz = 0;
        float hx = -INFINITY, hy = -INFINITY, hz = -INFINITY;
        float lx = INFINITY, ly = INFINITY, lz = INFINITY;
#pragma unroll 8
        for (int s = 0; s < Window; ++s) {
            rk4_step(x, y, z, r, dt);
            sx += x, sy += y, sz += z;
            hx = fmaxf(hx, x), hy = fmaxf(hy, y), hz = fmaxf(hz, z);
            lx = fminf(lx, x), ly = fminf(ly, y), lz = fminf(lz, z);
        }
        const float mean = 1.0f / Window;
        const float values[9] = {sx * mean, sy * mean, sz * mean, hx, hy, hz, lx, ly, lz};
#pragma unroll
        for (int v = 0; v < 9; ++v) at[v * row] = values[v];
        at += 9 * row;
    }
    for (int s = windows * Window; s < steps; ++s) rk4_step(x, y, z, r, dt);
    out[i] = x;
    out[n + i] = y;
    out[2 * n + i] = z;
}

}  // namespace reference
