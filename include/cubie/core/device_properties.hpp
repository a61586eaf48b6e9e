#pragma once
// A device's properties (cudaDeviceProp) and clock rate, queried once per process: both
// are slow to ask for. cudaGetDeviceProperties reads every property, some of them from the
// device, and can take milliseconds; the multiprocessor count and clock rate (which CUDA
// 13's cudaDeviceProp no longer holds) from cudaDeviceGetAttribute took 2.1 ms for 4 H200s,
// asked for on every solve. That was a quarter of a 9 ms solve of Lorenz at 2^24
// trajectories over those 4 devices (bench/RESULTS.md).

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>

#include "cubie/core/cuda_check.hpp"

namespace cubie {

namespace detail {
/// query(d), made on the first call for device d from each call site (a lambda's type is
/// its own); callable from several host threads at once.
template <class Value, class Query>
const Value& once_per_device(int d, Query&& query) {
    static std::mutex mutex;
    static std::map<int, Value> known;  // a map's elements never move
    const std::lock_guard<std::mutex> lock(mutex);
    auto found = known.find(d);
    if (found == known.end()) found = known.emplace(d, query(d)).first;
    return found->second;
}
}  // namespace detail

/// The properties of device d, as cudaGetDeviceProperties gave them on the first call for d.
inline const cudaDeviceProp& device_properties(int d) {
    return detail::once_per_device<cudaDeviceProp>(d, [](int device) {
        cudaDeviceProp properties{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
        return properties;
    });
}

/// The peak clock rate of device d's multiprocessors in kHz, as on the first call for d.
inline int device_clock_khz(int d) {
    return detail::once_per_device<int>(d, [](int device) {
        int khz = 0;
        CUBIE_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
        return khz;
    });
}

}  // namespace cubie
