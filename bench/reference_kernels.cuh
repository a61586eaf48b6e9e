#pragma once
// Hand-written Lorenz kernels, the practical speed of light the library is measured
// against: one thread per trajectory, state in registers, inputs [variable][trajectory],
// only the final state written. Plain CUDA: no library code.

#include <cstddef>

#include "reference_tsit5_tableau.cuh"

namespace reference {

constexpr float sigma = 10.0f;
constexpr float beta = 8.0f / 3.0f;

__device__ __forceinline__ void lorenz(float x, float y, float z, float rho, float& dx, float& dy,
                                       float& dz) {
    dx = sigma * (y - x);
    dy = x * (rho - z) - y;
    dz = x * y - beta * z;
}

/// One classical RK4 step of dt, with half = dt / 2 and sixth = dt / 6 computed by the caller
/// once.
__device__ __forceinline__ void rk4_step(float& x, float& y, float& z, float r, float dt,
                                         float half, float sixth) {
    float ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz;
    lorenz(x, y, z, r, ax, ay, az);
    lorenz(x + half * ax, y + half * ay, z + half * az, r, bx, by, bz);
    lorenz(x + half * bx, y + half * by, z + half * bz, r, cx, cy, cz);
    lorenz(x + dt * cx, y + dt * cy, z + dt * cz, r, dx, dy, dz);
    x += sixth * (ax + 2.0f * (bx + cx) + dx);
    y += sixth * (ay + 2.0f * (by + cy) + dy);
    z += sixth * (az + 2.0f * (bz + cz) + dz);
}

/// Classical RK4, `steps` steps of dt. The protocol's reference: its instructions are those
/// it was first measured with (written through a trajectory object, it ran 3% slower).
__global__ void rk4(const float* __restrict__ y0, const float* __restrict__ rho,
                    float* __restrict__ out, int n, float dt, int steps) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = y0[i], y = y0[n + i], z = y0[2 * n + i];
    const float r = rho[i];
    const float half = 0.5f * dt, sixth = dt / 6.0f;
    for (int s = 0; s < steps; ++s) rk4_step(x, y, z, r, dt, half, sixth);
    out[i] = x;
    out[n + i] = y;
    out[2 * n + i] = z;
}

/// The six stages of one Tsit5 step of h from (x, y, z) with first stage k1: the new state,
/// and the stage derivatives the error estimate weighs.
struct tsit5_stages {
    float xn, yn, zn;
    float k2x, k2y, k2z, k3x, k3y, k3z, k4x, k4y, k4z, k5x, k5y, k5z, k6x, k6y, k6z;

    __device__ __forceinline__ tsit5_stages(float x, float y, float z, float r, float h, float k1x,
                                            float k1y, float k1z) {
        using namespace tsit5_tableau;
        lorenz(x + h * a21 * k1x, y + h * a21 * k1y, z + h * a21 * k1z, r, k2x, k2y, k2z);
        lorenz(x + h * (a31 * k1x + a32 * k2x), y + h * (a31 * k1y + a32 * k2y),
               z + h * (a31 * k1z + a32 * k2z), r, k3x, k3y, k3z);
        lorenz(x + h * (a41 * k1x + a42 * k2x + a43 * k3x),
               y + h * (a41 * k1y + a42 * k2y + a43 * k3y),
               z + h * (a41 * k1z + a42 * k2z + a43 * k3z), r, k4x, k4y, k4z);
        lorenz(x + h * (a51 * k1x + a52 * k2x + a53 * k3x + a54 * k4x),
               y + h * (a51 * k1y + a52 * k2y + a53 * k3y + a54 * k4y),
               z + h * (a51 * k1z + a52 * k2z + a53 * k3z + a54 * k4z), r, k5x, k5y, k5z);
        lorenz(x + h * (a61 * k1x + a62 * k2x + a63 * k3x + a64 * k4x + a65 * k5x),
               y + h * (a61 * k1y + a62 * k2y + a63 * k3y + a64 * k4y + a65 * k5y),
               z + h * (a61 * k1z + a62 * k2z + a63 * k3z + a64 * k4z + a65 * k5z), r, k6x, k6y,
               k6z);
        xn = x + h * (b1 * k1x + b2 * k2x + b3 * k3x + b4 * k4x + b5 * k5x + b6 * k6x);
        yn = y + h * (b1 * k1y + b2 * k2y + b3 * k3y + b4 * k4y + b5 * k5y + b6 * k6y);
        zn = z + h * (b1 * k1z + b2 * k2z + b3 * k3z + b4 * k4z + b5 * k5z + b6 * k6z);
    }
};

/// Tsit5 with `steps` fixed steps of dt (the seventh stage is the next step's first).
__global__ void fixed_tsit5(const float* __restrict__ y0, const float* __restrict__ rho,
                            float* __restrict__ out, int n, float dt, int steps) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = y0[i], y = y0[n + i], z = y0[2 * n + i];
    const float r = rho[i];
    float k1x, k1y, k1z;
    lorenz(x, y, z, r, k1x, k1y, k1z);
    for (int s = 0; s < steps; ++s) {
        const tsit5_stages st(x, y, z, r, dt, k1x, k1y, k1z);
        x = st.xn, y = st.yn, z = st.zn;
        lorenz(x, y, z, r, k1x, k1y, k1z);
    }
    out[i] = x;
    out[n + i] = y;
    out[2 * n + i] = z;
}

/// Tsit5 with a PI controller (exponents 0.14 and 0.08, safety 0.9, factor in [0.2, 10])
/// and the RMS error norm scaled by atol + rtol max(|y|, |y_new|), over [0, 1].
__global__ void tsit5(const float* __restrict__ y0, const float* __restrict__ rho,
                      float* __restrict__ out, unsigned* __restrict__ steps_taken, int n, float dt0,
                      float tol) {
    using namespace tsit5_tableau;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = y0[i], y = y0[n + i], z = y0[2 * n + i];
    const float r = rho[i];
    float t = 0, h = dt0, err_old = 1.0f;
    unsigned steps = 0;
    float k1x, k1y, k1z;
    lorenz(x, y, z, r, k1x, k1y, k1z);
    while (t < 1.0f) {
        const bool last = t + 1.01f * h >= 1.0f;
        if (last) h = 1.0f - t;
        const tsit5_stages st(x, y, z, r, h, k1x, k1y, k1z);
        float k7x, k7y, k7z;
        lorenz(st.xn, st.yn, st.zn, r, k7x, k7y, k7z);
        const float ex = h * (e1 * k1x + e2 * st.k2x + e3 * st.k3x + e4 * st.k4x + e5 * st.k5x +
                              e6 * st.k6x + e7 * k7x);
        const float ey = h * (e1 * k1y + e2 * st.k2y + e3 * st.k3y + e4 * st.k4y + e5 * st.k5y +
                              e6 * st.k6y + e7 * k7y);
        const float ez = h * (e1 * k1z + e2 * st.k2z + e3 * st.k3z + e4 * st.k4z + e5 * st.k5z +
                              e6 * st.k6z + e7 * k7z);
        const float sx = ex / (tol + tol * fmaxf(fabsf(x), fabsf(st.xn)));
        const float sy = ey / (tol + tol * fmaxf(fabsf(y), fabsf(st.yn)));
        const float sz = ez / (tol + tol * fmaxf(fabsf(z), fabsf(st.zn)));
        const float err = sqrtf((sx * sx + sy * sy + sz * sz) / 3.0f);
        ++steps;
        float factor;
        if (err <= 1.0f) {
            t = last ? 1.0f : t + h;
            x = st.xn, y = st.yn, z = st.zn;
            k1x = k7x, k1y = k7y, k1z = k7z;
            const float e = fmaxf(err, 1e-6f);
            factor = 0.9f * powf(e, -0.14f) * powf(err_old, 0.08f);
            err_old = e;
            if (last) break;
        } else {
            factor = 0.9f * powf(err, -0.2f);
        }
        h *= fminf(10.0f, fmaxf(0.2f, factor));
    }
    out[i] = x;
    out[n + i] = y;
    out[2 * n + i] = z;
    steps_taken[i] = steps;
}

}  // namespace reference
