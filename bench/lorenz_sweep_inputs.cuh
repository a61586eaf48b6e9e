#pragma once
// The protocol's Lorenz sweep in float, for the output benchmarks: x0 = (1, 0, 0) and
// rho = linspace(0, 21, N), laid out [variable][trajectory], on the host and on the device.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "cubie/batch/batch_inputs.hpp"
#include "cubie/core/device_buffer.hpp"

namespace bench {

struct lorenz_sweep_inputs {
    explicit lorenz_sweep_inputs(std::size_t trajectories)
        : n(trajectories), y0(3 * trajectories, 0.0f), rho(trajectories) {
        std::fill_n(y0.begin(), n, 1.0f);
        for (std::size_t i = 0; i < n; ++i) rho[i] = float(21.0 * double(i) / double(n - 1));
        device_y0 = cubie::device_buffer<float>::copy_of(y0);
        device_rho = cubie::device_buffer<float>::copy_of(rho);
    }

    cubie::batch_inputs<float> on_host() const { return {n, y0, rho}; }
    cubie::batch_inputs<float> on_device() const {
        return {n, {device_y0.data(), device_y0.size()}, {device_rho.data(), device_rho.size()}};
    }

    std::size_t n;
    std::vector<float> y0, rho;
    cubie::device_buffer<float> device_y0, device_rho;
};

}  // namespace bench
