// integrate() inside a kernel of one's own: each thread integrates a Van der Pol
// oscillator for its own mu and keeps only what this study needs, the largest |x| seen
// at the end of each of 20 intervals, reduced on the device. No batch machinery: the
// loop is a plain __host__ __device__ function.

#include <cstdio>
#include <vector>

#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/batch/solve_settings.hpp"
#include "cubie/catalogue/van_der_pol.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/loop/integrate.hpp"

using system_type = cubie::catalogue::van_der_pol<double>;
using method = cubie::tsit5;
using controller = cubie::pi_controller;
using settings_type = cubie::integration_settings<method, controller, system_type>;

constexpr int intervals = 20;

__global__ void amplitude_kernel(settings_type settings, const double* mu, double* amplitude,
                                 cubie::status* statuses, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    cubie::state_t<system_type> y{2.0, 0.0};
    const cubie::parameters_t<system_type> p{mu[i]};
    const double interval = (settings.t_end - settings.t0) / intervals;
    double largest = 0;
    cubie::status s = cubie::status::success;
    for (int k = 0; k < intervals && s == cubie::status::success; ++k) {
        // integrate() runs from t0 to t_end: one interval at a time.
        const double from = settings.t0 + k * interval;
        const settings_type piece = settings.over(from, from + interval);
        cubie::step_counters counters{};
        s = cubie::integrate<method, controller>(system_type{}, piece, y, p, counters);
        largest = fmax(largest, fabs(y[0]));
    }
    amplitude[i] = largest;
    statuses[i] = s;
}

int main() {
    constexpr int n = 8;
    std::vector<double> mu(n);
    for (int i = 0; i < n; ++i) mu[i] = 0.5 * i;

    cubie::solve_settings<controller> user;
    user.t_end = 40;
    user.dt = 1e-3;
    user.atol = {1e-8};
    user.rtol = {1e-8};
    // Validation and conversion happen once, on the host, before the launch.
    const auto settings = cubie::make_integration_settings<method, controller, system_type>(user);

    const auto d_mu = cubie::device_buffer<double>::copy_of(mu);
    cubie::device_buffer<double> d_amplitude(n);
    cubie::device_buffer<cubie::status> d_status(n);
    amplitude_kernel<<<1, 32>>>(settings, d_mu.data(), d_amplitude.data(), d_status.data(), n);
    CUBIE_CUDA_CHECK(cudaGetLastError());
    CUBIE_CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<double> amplitude(n);
    std::vector<cubie::status> statuses(n);
    d_amplitude.copy_to(amplitude);
    d_status.copy_to(statuses);
    std::puts("mu     largest |x| at interval ends   status");
    for (int i = 0; i < n; ++i)
        std::printf("%-6.2f %-30.6f %s\n", mu[i], amplitude[i], cubie::to_string(statuses[i]));
    return 0;
}
