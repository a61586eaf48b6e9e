#pragma once
// The line every GPU benchmark starts with: the device, its clock and the commit measured
// (CUBIE_COMMIT in the environment).

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

#include "cubie/core/cuda_check.hpp"

namespace bench {

struct device_banner {
    cudaDeviceProp properties{};
    int clock_mhz = 0;
    const char* commit = "unknown";
};

/// Prints the banner of device 0 and returns what it printed.
inline device_banner print_device_banner() {
    device_banner b;
    CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&b.properties, 0));
    int clock_khz = 0;
    CUBIE_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    b.clock_mhz = clock_khz / 1000;
    if (const char* commit = std::getenv("CUBIE_COMMIT")) b.commit = commit;
    std::printf("device %s, %d SMs, max SM clock %d MHz; commit %s\n", b.properties.name,
                b.properties.multiProcessorCount, b.clock_mhz, b.commit);
    return b;
}

}  // namespace bench
