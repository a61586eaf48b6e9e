// What events cost on the GPU (event_bench.hpp: a bouncing ball, and the Lorenz sweep ended
// where z rises through 2), at each batch size, four ways in one run:
//   library             the solve without its events
//   library + events    the same solve with them
//   hand + events       a hand-written kernel with the same event logic (the same
//                       detection at step ends, ITP on the Tsit5 interpolant to 2 float
//                       ulps of the step, the same actions, counts and records), plain CUDA
//   hand                that kernel without events
// Each: kernel ms (CUDA events, fastest of --repeat after a warm-up), e2e ms (inputs copied
// in, outputs, event records included, copied out), mean attempted steps and registers;
// then the ratios, the agreement of the two solves with events (event counts, times), and
// the device memory in use after the first and the last solve of the library at the
// largest size.
//
//   event_bench [--log2n 16,18,20,22,24] [--repeat 5]

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/pinned_buffer.hpp"
#include "device_banner.cuh"
#include "event_bench.hpp"
#include "reference_tsit5_tableau.cuh"
#include "wall_clock.hpp"

namespace hand {

using namespace reference::tsit5_tableau;

/// A Tsit5 step of h from y, k[0] = f(y): the stages k[1..5], y_new, k[6] = f(y_new) and the
/// RMS error norm scaled by atol + rtol max(|y|, |y_new|).
template <int N, class F>
__device__ __forceinline__ float tsit5_attempt(const F& f, const float (&y)[N], float h,
                                               float (&k)[7][N], float (&yn)[N], float tol) {
    float s[N];
#pragma unroll
    for (int i = 0; i < N; ++i) s[i] = y[i] + h * (a21 * k[0][i]);
    f(s, k[1]);
#pragma unroll
    for (int i = 0; i < N; ++i) s[i] = y[i] + h * (a31 * k[0][i] + a32 * k[1][i]);
    f(s, k[2]);
#pragma unroll
    for (int i = 0; i < N; ++i) s[i] = y[i] + h * (a41 * k[0][i] + a42 * k[1][i] + a43 * k[2][i]);
    f(s, k[3]);
#pragma unroll
    for (int i = 0; i < N; ++i)
        s[i] = y[i] + h * (a51 * k[0][i] + a52 * k[1][i] + a53 * k[2][i] + a54 * k[3][i]);
    f(s, k[4]);
#pragma unroll
    for (int i = 0; i < N; ++i)
        s[i] = y[i] +
               h * (a61 * k[0][i] + a62 * k[1][i] + a63 * k[2][i] + a64 * k[3][i] + a65 * k[4][i]);
    f(s, k[5]);
#pragma unroll
    for (int i = 0; i < N; ++i)
        yn[i] = y[i] + h * (b1 * k[0][i] + b2 * k[1][i] + b3 * k[2][i] + b4 * k[3][i] +
                            b5 * k[4][i] + b6 * k[5][i]);
    f(yn, k[6]);
    float sum = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) {
        const float e = h * (e1 * k[0][i] + e2 * k[1][i] + e3 * k[2][i] + e4 * k[3][i] +
                             e5 * k[4][i] + e6 * k[5][i] + e7 * k[6][i]);
        const float scaled = e / (tol + tol * fmaxf(fabsf(y[i]), fabsf(yn[i])));
        sum += scaled * scaled;
    }
    return sqrtf(sum / N);
}

/// Component c of the Tsit5 interpolant of the step at theta.
template <int N>
__device__ __forceinline__ float interpolate(const float (&y)[N], const float (&k)[7][N], float h,
                                             float theta, int c) {
    float w[7];
    dense_weights(theta, w);
    float sum = 0;
#pragma unroll
    for (int j = 0; j < 7; ++j) sum += w[j] * k[j][c];
    return y[c] + h * sum;
}

/// ITP on [0, 1] for g(0) = fa < 0 <= g(1) = fb: the end of the last bracket where g >= 0
/// (kappa1 = 0.2, kappa2 = 2, n0 = 1, eps = 2 ulps of 1).
template <class G>
__device__ __forceinline__ float itp(const G& g, float fa, float fb) {
    constexpr float eps = 2 * 1.1920929e-7f;
    if (!(fa < 0)) return 0;
    float a = 0, b = 1;
    const int bisections = static_cast<int>(ceilf(log2f(1 / (2 * eps))));
    float reach = ldexpf(eps, bisections + 1);
    for (int j = 0; j <= bisections + 1 && b - a > 2 * eps; ++j) {
        const float width = b - a, middle = a + width / 2;
        if (!(middle > a && middle < b)) break;
        const float falsi = (fb * a - fa * b) / (fb - fa), delta = 0.2f * width * width;
        const float toward = middle - falsi;
        const float sign = toward > 0 ? 1.0f : (toward < 0 ? -1.0f : 0.0f);
        const float truncated = delta <= fabsf(toward) ? falsi + sign * delta : middle;
        const float radius = reach - width / 2;
        float x = fabsf(truncated - middle) <= radius ? truncated : middle - sign * radius;
        if (!(x > a && x < b)) x = middle;
        const float fx = g(x);
        if (fx == 0) return x;
        if (fx > 0) {
            b = x;
            fb = fx;
        } else {
            a = x;
            fa = fx;
        }
        reach *= 0.5f;
    }
    return b;
}

/// The library's PI controller (PI34 for an error estimate of order 4: exponents 0.14 and
/// -0.08; safety 0.9, factors in [0.2, 10], no growth right after a rejection).
struct pi_control {
    float log2_previous = 0;
    bool after_rejection = false;
    __device__ __forceinline__ float factor(float err, bool& accept) {
        accept = err <= 1.0f;
        if (!accept) {
            after_rejection = true;
            const float f = isfinite(err) ? 0.9f * exp2f(-0.2f * __log2f(err)) : 0.2f;
            return fminf(1.0f, fmaxf(0.2f, f));
        }
        const float log2_err = __log2f(fmaxf(err, 1e-6f));
        const float f = 0.9f * exp2f(-0.14f * log2_err + 0.08f * log2_previous);
        log2_previous = log2_err;
        const float upper = after_rejection ? 1.0f : 10.0f;
        after_rejection = false;
        return fminf(upper, fmaxf(0.2f, f));
    }
};

/// One attempted step from (t, y) of the step h proposes, landing on t_end from within 1%
/// of it: its length hh, whether it was the last, whether it is accepted, and the step
/// the controller proposes next.
struct attempt {
    float hh, next;
    bool last, accept;
};
template <int N, class F>
__device__ __forceinline__ attempt attempt_step(const F& f, const float (&y)[N], float t, float h,
                                                float t_end, float (&k)[7][N], float (&yn)[N],
                                                float tol, pi_control& control) {
    attempt a;
    a.last = t + 1.01f * h >= t_end;
    a.hh = a.last ? t_end - t : (t + h) - t;
    const float err = tsit5_attempt(f, y, a.hh, k, yn, tol);
    a.next = control.factor(err, a.accept) * a.hh;
    return a;
}

__device__ __forceinline__ signed char side_of(float g, signed char before) {
    return g > 0 ? 1 : (g < 0 ? -1 : before);
}
__device__ __forceinline__ bool falls(signed char side, float g) {
    return (side > 0 && g <= 0) || (side == 0 && g < 0);
}

struct ball_rhs {
    __device__ void operator()(const float (&y)[2], float (&d)[2]) const {
        d[0] = y[1];
        d[1] = -9.81f;
    }
};

constexpr int ball_capacity = 16;  // of each event, as the catalogue's

/// The bouncing ball, Tsit5 with dt_max; with Events, ground (x falls through 0: v = -e v)
/// and apex (v falls through 0: recorded), counts [2][n], times [32][n], states [32][2][n].
template <bool Events>
__global__ void ball(const float* __restrict__ y0, const float* __restrict__ restitution,
                     float* __restrict__ out, unsigned* __restrict__ steps_taken,
                     unsigned* __restrict__ counts, float* __restrict__ times,
                     float* __restrict__ states, int n, float t_end, float dt0, float dt_max,
                     float tol) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const ball_rhs f;
    float y[2] = {y0[i], y0[n + i]};
    const float e = restitution[i];
    float k[7][2], yn[2];
    f(y, k[0]);
    float t = 0, h = fminf(dt0, dt_max);
    pi_control control;
    unsigned steps = 0, count[2] = {0, 0};
    signed char side[2] = {side_of(y[0], 0), side_of(y[1], 0)};
    const auto keep = [&](int channel, float time, float x, float v) {
        if (count[channel] < ball_capacity) {
            const int row = channel * ball_capacity + static_cast<int>(count[channel]);
            times[static_cast<std::size_t>(row) * n + i] = time;
            states[(2 * static_cast<std::size_t>(row)) * n + i] = x;
            states[(2 * static_cast<std::size_t>(row) + 1) * n + i] = v;
        }
        ++count[channel];
    };
    while (t < t_end && steps < 1000000u) {
        const auto [hh, proposed, last, accept] =
            attempt_step(f, y, t, h, t_end, k, yn, tol, control);
        float next = proposed;
        ++steps;
        if (accept) {
            const bool ground = Events && falls(side[0], yn[0]);
            const bool apex = Events && falls(side[1], yn[1]);
            float theta_ground = 2, theta_apex = 2;
            if (apex)
                theta_apex =
                    itp([&](float s) { return -interpolate(y, k, hh, s, 1); }, -y[1], -yn[1]);
            if (ground)
                theta_ground =
                    itp([&](float s) { return -interpolate(y, k, hh, s, 0); }, -y[0], -yn[0]);
            const float stop = ground ? theta_ground : 1.0f;
            if (apex && theta_apex <= stop) {
                const float x = theta_apex == 1 ? yn[0] : interpolate(y, k, hh, theta_apex, 0);
                const float v = theta_apex == 1 ? yn[1] : interpolate(y, k, hh, theta_apex, 1);
                keep(1, theta_apex >= 1 ? (last ? t_end : t + hh) : t + theta_apex * hh, x, v);
            }
            if (ground) {
                float x = yn[0], v = yn[1];
                if (stop < 1) {
                    x = interpolate(y, k, hh, stop, 0);
                    v = interpolate(y, k, hh, stop, 1);
                }
                const float when = stop >= 1 ? (last ? t_end : t + hh) : t + stop * hh;
                keep(0, when, x, v);
                y[0] = x;
                y[1] = -e * v;
                t = when;
                side[0] = side_of(y[0], -1);
                side[1] = apex && theta_apex <= stop ? side_of(y[1], -1) : side_of(y[1], side[1]);
                f(y, k[0]);
                control = pi_control{};
            } else {
                if (apex)
                    side[1] = side_of(yn[1], -1);
                else
                    side[1] = side_of(yn[1], side[1]);
                side[0] = side_of(yn[0], side[0]);
                t = last ? t_end : t + hh;
                y[0] = yn[0];
                y[1] = yn[1];
                k[0][0] = k[6][0];
                k[0][1] = k[6][1];
            }
            if (t >= t_end) break;
            if (last) next = fmaxf(next, h);
        }
        h = fminf(next, dt_max);
    }
    out[i] = y[0];
    out[n + i] = y[1];
    steps_taken[i] = steps;
    if (Events) {
        counts[i] = count[0];
        counts[n + i] = count[1];
    }
}

struct lorenz_rhs {
    float rho;
    __device__ void operator()(const float (&y)[3], float (&d)[3]) const {
        d[0] = 10.0f * (y[1] - y[0]);
        d[1] = y[0] * (rho - y[2]) - y[1];
        d[2] = y[0] * y[1] - (8.0f / 3.0f) * y[2];
    }
};

/// The Lorenz sweep, Tsit5; with Events, ended where z rises through the threshold: its
/// time and state kept (times [1][n], states [1][3][n]), counts [n], ended [n].
template <bool Events>
__global__ void lorenz(const float* __restrict__ y0, const float* __restrict__ rho,
                       float* __restrict__ out, unsigned* __restrict__ steps_taken,
                       unsigned* __restrict__ counts, float* __restrict__ times,
                       float* __restrict__ states, unsigned char* __restrict__ ended, int n,
                       float t_end, float dt0, float tol, float threshold) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const lorenz_rhs f{rho[i]};
    float y[3] = {y0[i], y0[n + i], y0[2 * n + i]};
    float k[7][3], yn[3];
    f(y, k[0]);
    float t = 0, h = dt0;
    pi_control control;
    unsigned steps = 0, count = 0;
    signed char side = side_of(y[2] - threshold, 0);
    bool stopped = false;
    while (t < t_end && steps < 1000000u) {
        const auto [hh, proposed, last, accept] =
            attempt_step(f, y, t, h, t_end, k, yn, tol, control);
        float next = proposed;
        ++steps;
        if (accept) {
            const float g = yn[2] - threshold;
            if (Events && ((side < 0 && g >= 0) || (side == 0 && g > 0))) {
                const float theta =
                    itp([&](float s) { return interpolate(y, k, hh, s, 2) - threshold; },
                        y[2] - threshold, g);
                float at[3] = {yn[0], yn[1], yn[2]};
                if (theta < 1)
                    for (int c = 0; c < 3; ++c) at[c] = interpolate(y, k, hh, theta, c);
                times[i] = theta >= 1 ? (last ? t_end : t + hh) : t + theta * hh;
                for (int c = 0; c < 3; ++c) {
                    states[static_cast<std::size_t>(c) * n + i] = at[c];
                    y[c] = at[c];
                }
                count = 1;
                stopped = true;
                break;
            }
            side = side_of(g, side);
            t = last ? t_end : t + hh;
            for (int c = 0; c < 3; ++c) {
                y[c] = yn[c];
                k[0][c] = k[6][c];
            }
            if (t >= t_end) break;
            if (last) next = fmaxf(next, h);
        }
        h = next;
    }
    for (int c = 0; c < 3; ++c) out[static_cast<std::size_t>(c) * n + i] = y[c];
    steps_taken[i] = steps;
    if (Events) {
        counts[i] = count;
        ended[i] = stopped;
    }
}

}  // namespace hand

namespace {

using event_bench::batch;
using event_bench::run;

/// A hand-written kernel's solves: page-locked host arrays, one copy in, the records marked
/// NaN (as the library marks them), one launch, the outputs copied out.
template <class Launch>
run hand_run(const batch& b, std::size_t states, std::size_t channels, std::size_t records,
             int repeat, Launch launch) {
    const std::size_t n = b.n;
    cubie::pinned_buffer<float> in(b.y0.size() + b.params.size()), out(states * n),
        times(records * n), record_states(records * states * n);
    cubie::pinned_buffer<unsigned> steps(n), counts(channels * n);
    cubie::pinned_buffer<unsigned char> ended(n);
    std::copy(b.y0.begin(), b.y0.end(), in.data());
    std::copy(b.params.begin(), b.params.end(), in.data() + b.y0.size());
    cubie::device_buffer<float> d_in(in.size()), d_out(out.size()), d_times(times.size()),
        d_states(record_states.size());
    cubie::device_buffer<unsigned> d_steps(n), d_counts(counts.size());
    cubie::device_buffer<unsigned char> d_ended(n);
    cubie::cuda_event start, stop;
    run r;
    for (int k = 0; k <= repeat; ++k) {
        const double t0 = bench::now_ms();
        CUBIE_CUDA_CHECK(
            cudaMemcpy(d_in.data(), in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
        if (records > 0) {
            CUBIE_CUDA_CHECK(cudaMemset(d_times.data(), 0xFF, d_times.bytes()));
            CUBIE_CUDA_CHECK(cudaMemset(d_states.data(), 0xFF, d_states.bytes()));
        }
        start.record();
        launch(d_in.data(), d_in.data() + b.y0.size(), d_out.data(), d_steps.data(),
               d_counts.data(), d_times.data(), d_states.data(), d_ended.data());
        stop.record();
        CUBIE_CUDA_CHECK(cudaGetLastError());
        CUBIE_CUDA_CHECK(
            cudaMemcpy(out.data(), d_out.data(), d_out.bytes(), cudaMemcpyDeviceToHost));
        CUBIE_CUDA_CHECK(
            cudaMemcpy(steps.data(), d_steps.data(), d_steps.bytes(), cudaMemcpyDeviceToHost));
        if (channels > 0) {
            CUBIE_CUDA_CHECK(cudaMemcpy(counts.data(), d_counts.data(), d_counts.bytes(),
                                        cudaMemcpyDeviceToHost));
            CUBIE_CUDA_CHECK(
                cudaMemcpy(times.data(), d_times.data(), d_times.bytes(), cudaMemcpyDeviceToHost));
            CUBIE_CUDA_CHECK(cudaMemcpy(record_states.data(), d_states.data(), d_states.bytes(),
                                        cudaMemcpyDeviceToHost));
            CUBIE_CUDA_CHECK(
                cudaMemcpy(ended.data(), d_ended.data(), d_ended.bytes(), cudaMemcpyDeviceToHost));
        }
        const double e2e = bench::now_ms() - t0;
        if (k == 0) continue;
        r.e2e_ms = std::min(r.e2e_ms, e2e);
        r.kernel_ms = std::min(r.kernel_ms, double(stop.milliseconds_since(start)));
    }
    double total = 0;
    for (std::size_t i = 0; i < n; ++i) total += steps.data()[i];
    r.mean_steps = total / double(n);
    r.counts.assign(counts.data(), counts.data() + counts.size());
    r.times.assign(times.data(), times.data() + times.size());
    r.final_states.assign(out.data(), out.data() + out.size());
    if (channels > 0)
        for (std::size_t i = 0; i < n; ++i) r.terminated += ended.data()[i];
    return r;
}

template <class Kernel>
void describe(Kernel kernel, run& r) {
    cudaFuncAttributes a{};
    CUBIE_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
    r.registers = a.numRegs;
    r.local_bytes = a.localSizeBytes;
}

constexpr int threads = 256;
unsigned blocks(std::size_t n) {
    return static_cast<unsigned>((n + threads - 1) / threads);
}

run hand_ball(const batch& b, bool events, int repeat) {
    const std::size_t records = events ? 2 * hand::ball_capacity : 0;
    const auto kernel = events ? hand::ball<true> : hand::ball<false>;
    run r = hand_run(b, 2, events ? 2 : 0, records, repeat,
                     [&](const float* y0, const float* e, float* out, unsigned* steps,
                         unsigned* counts, float* times, float* states, unsigned char*) {
                         kernel<<<blocks(b.n), threads>>>(
                             y0, e, out, steps, counts, times, states, int(b.n),
                             float(event_bench::ball_t_end), float(event_bench::first_step),
                             float(event_bench::ball_dt_max), float(event_bench::tolerance));
                     });
    describe(kernel, r);
    return r;
}

run hand_lorenz(const batch& b, bool events, int repeat) {
    const auto kernel = events ? hand::lorenz<true> : hand::lorenz<false>;
    run r = hand_run(b, 3, events ? 1 : 0, events ? 1 : 0, repeat,
                     [&](const float* y0, const float* rho, float* out, unsigned* steps,
                         unsigned* counts, float* times, float* states, unsigned char* ended) {
                         kernel<<<blocks(b.n), threads>>>(
                             y0, rho, out, steps, counts, times, states, ended, int(b.n),
                             float(event_bench::lorenz_t_end), float(event_bench::first_step),
                             float(event_bench::tolerance), event_bench::lorenz_threshold);
                     });
    describe(kernel, r);
    return r;
}

/// How the two solves with events agree: the share of trajectories whose counts are equal,
/// and the largest difference of a time both kept.
struct agreement {
    double same_counts = 0;
    double time_difference = 0;
};

agreement compare(const run& library, const run& hand, std::size_t n) {
    agreement a;
    const std::size_t channels = library.counts.size() / n;
    std::size_t same = 0;
    for (std::size_t i = 0; i < n; ++i) {
        bool equal = true;
        for (std::size_t c = 0; c < channels; ++c)
            equal = equal && library.counts[c * n + i] == hand.counts[c * n + i];
        same += equal;
    }
    a.same_counts = double(same) / double(n);
    for (std::size_t k = 0; k < library.times.size() && k < hand.times.size(); ++k)
        if (std::isfinite(library.times[k]) && std::isfinite(hand.times[k]))
            a.time_difference =
                std::max(a.time_difference, std::abs(double(library.times[k]) - hand.times[k]));
    return a;
}

void print_run(const char* name, const run& r, std::size_t n) {
    std::printf("  %-18s %10.3f %10.3f %8.1f %6d %6zu", name, r.kernel_ms, r.e2e_ms, r.mean_steps,
                r.registers, r.local_bytes);
    if (!r.counts.empty()) {
        double events = 0;
        for (const unsigned c : r.counts) events += c;
        std::printf("   %.2f events per trajectory, %zu ended by one", events / double(n),
                    r.terminated);
    }
    std::printf("\n");
}

std::vector<int> parse_sizes(const std::string& text) {
    std::vector<int> sizes;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) sizes.push_back(std::stoi(item));
    return sizes;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes = {16, 18, 20, 22, 24};
    int repeat = 5;
    for (int i = 1; i < argc; i += 2) {
        const std::string flag = argv[i];
        if (i + 1 < argc && flag == "--log2n") {
            sizes = parse_sizes(argv[i + 1]);
        } else if (i + 1 < argc && flag == "--repeat") {
            repeat = std::stoi(argv[i + 1]);
        } else {
            std::fprintf(stderr, "usage: event_bench [--log2n 16,18,20,22,24] [--repeat 5]\n");
            return 2;
        }
    }
    try {
        bench::print_device_banner();
        std::printf(
            "float32, Tsit5 + PI at atol = rtol = %g, first step 2^-10; fastest of %d after a "
            "warm-up\n"
            "ball: bouncing_ball dropped from 1, e = linspace(0.8, 0.95, N), t in [0, %g], dt_max "
            "= %g, events ground (affect) and apex (record), 16 kept each\n"
            "lorenz: rho = linspace(0, 21, N), x0 = (1, 0, 0), t in [0, %g], ended where z rises "
            "through %g\n\n",
            event_bench::tolerance, repeat, event_bench::ball_t_end, event_bench::ball_dt_max,
            event_bench::lorenz_t_end, double(event_bench::lorenz_threshold));
        run last_library;
        for (const char* problem : {"ball", "lorenz"}) {
            const bool ball = std::string(problem) == "ball";
            for (const int log2n : sizes) {
                const std::size_t n = std::size_t{1} << log2n;
                batch b{n, {}, {}};
                if (ball) {
                    b.y0.assign(2 * n, 0.0f);
                    std::fill_n(b.y0.begin(), n, 1.0f);
                    for (std::size_t i = 0; i < n; ++i)
                        b.params.push_back(float(0.8 + 0.15 * double(i) / double(n - 1)));
                } else {
                    b.y0.assign(3 * n, 0.0f);
                    std::fill_n(b.y0.begin(), n, 1.0f);
                    for (std::size_t i = 0; i < n; ++i)
                        b.params.push_back(float(21.0 * double(i) / double(n - 1)));
                }
                const auto library = ball ? event_bench::library_ball : event_bench::library_lorenz;
                const auto written = ball ? hand_ball : hand_lorenz;
                const run plain = library(b, false, repeat);
                const run with = library(b, true, repeat);
                const run hand_with = written(b, true, repeat);
                const run hand_plain = written(b, false, repeat);
                std::printf("%s, N = 2^%d%21s %10s %8s %6s %6s\n", problem, log2n, "kernel ms",
                            "e2e ms", "steps", "regs", "local");
                print_run("library", plain, n);
                print_run("library + events", with, n);
                print_run("hand + events", hand_with, n);
                print_run("hand", hand_plain, n);
                const agreement a = compare(with, hand_with, n);
                std::printf(
                    "  events cost: library %.3f (kernel) %.3f (e2e), hand %.3f (kernel); "
                    "library / hand with events: %.3f (kernel) %.3f (e2e)\n"
                    "  agreement: event counts equal in %.4f%% of trajectories, kept times within "
                    "%.3g\n\n",
                    with.kernel_ms / plain.kernel_ms, with.e2e_ms / plain.e2e_ms,
                    hand_with.kernel_ms / hand_plain.kernel_ms,
                    with.kernel_ms / hand_with.kernel_ms, with.e2e_ms / hand_with.e2e_ms,
                    100 * a.same_counts, a.time_difference);
                std::fflush(stdout);
                last_library = with;
            }
            std::printf(
                "%s at the largest size: device memory in use %.0f MiB after the warm-up, %.0f "
                "MiB after the last solve (library + events)\n\n",
                problem, last_library.memory_first_mib, last_library.memory_last_mib);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "event_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
