#pragma once
// A device's properties (cudaDeviceProp), queried once per process. cudaGetDeviceProperties
// reads every property, some of them from the device, and can take milliseconds: once per
// solve and device, a share to reckon with in a solve of millions of trajectories split
// over several devices (Lorenz at 2^24 trajectories with RK4 takes 25.5 ms of kernel time
// on one H100: bench/RESULTS.md).

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

/// The properties of device d, as cudaGetDeviceProperties gave them on the first call for
/// d; callable from several host threads at once.
inline const cudaDeviceProp& device_properties(int d) {
    static std::mutex mutex;
    static std::map<int, cudaDeviceProp> known;  // a map's elements never move
    const std::lock_guard<std::mutex> lock(mutex);
    auto found = known.find(d);
    if (found == known.end()) {
        cudaDeviceProp properties{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&properties, d));
        found = known.emplace(d, properties).first;
    }
    return found->second;
}

}  // namespace cubie
