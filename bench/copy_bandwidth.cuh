#pragma once
// The device's copy bandwidths, measured in the run that compares against them: a large
// device-to-device copy (bytes read plus bytes written over its time), a fill (bytes
// written, the traffic of a kernel that only writes), and a device-to-host copy into
// page-locked memory. Fastest of `repeat` after a warm-up, timed with CUDA events.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <limits>

#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/pinned_buffer.hpp"

namespace bench {

struct copy_bandwidth {
    double device_to_device_gb_s = 0;  ///< (read + written) bytes / s, over 1e9
    double device_fill_gb_s = 0;       ///< written bytes / s (cudaMemset)
    double device_to_host_gb_s = 0;    ///< into page-locked memory
};

/// Milliseconds of the fastest of `repeat` runs of `work` (queued on the default stream)
/// after one warm-up.
template <class Work>
double fastest_ms(int repeat, Work&& work) {
    cubie::cuda_event start, stop;
    double best = std::numeric_limits<double>::infinity();
    for (int r = 0; r <= repeat; ++r) {
        start.record();
        work();
        stop.record();
        const double ms = stop.milliseconds_since(start);
        if (r > 0) best = std::min(best, ms);
    }
    return best;
}

/// Copies of `device_bytes` on the device and `host_bytes` to the host.
inline copy_bandwidth measure_copy_bandwidth(std::size_t device_bytes, std::size_t host_bytes,
                                             int repeat) {
    copy_bandwidth b;
    {
        cubie::device_buffer<char> from(device_bytes), to(device_bytes);
        CUBIE_CUDA_CHECK(cudaMemset(from.data(), 1, device_bytes));
        const double copy_ms = fastest_ms(repeat, [&] {
            CUBIE_CUDA_CHECK(
                cudaMemcpyAsync(to.data(), from.data(), device_bytes, cudaMemcpyDeviceToDevice));
        });
        b.device_to_device_gb_s = 2.0 * double(device_bytes) / (copy_ms * 1e6);
        const double fill_ms = fastest_ms(
            repeat, [&] { CUBIE_CUDA_CHECK(cudaMemsetAsync(to.data(), 2, device_bytes)); });
        b.device_fill_gb_s = double(device_bytes) / (fill_ms * 1e6);
    }
    cubie::device_buffer<char> from(host_bytes);
    cubie::pinned_buffer<char> to(host_bytes);
    CUBIE_CUDA_CHECK(cudaMemset(from.data(), 3, host_bytes));
    const double download_ms = fastest_ms(repeat, [&] {
        CUBIE_CUDA_CHECK(
            cudaMemcpyAsync(to.data(), from.data(), host_bytes, cudaMemcpyDeviceToHost));
    });
    b.device_to_host_gb_s = double(host_bytes) / (download_ms * 1e6);
    return b;
}

}  // namespace bench
