#pragma once
// What the cuda backend launched: the kernel's resources as the runtime reports them
// (cudaFuncGetAttributes) and the occupancy they allow on the device that ran it.

#include <cstddef>
#include <cstdio>
#include <string>

namespace cubie {

struct kernel_report {
    std::string configuration;     ///< "method, controller"
    std::string scheduling;        ///< how threads took trajectories (batch/scheduling.hpp)
    int registers = 0;             ///< per thread
    std::size_t local_bytes = 0;   ///< per thread; non-zero means arrays spilled to memory
    std::size_t shared_bytes = 0;  ///< per block, static and dynamic
    int block_size = 0;
    int lanes_per_trajectory = 1;  ///< threads that integrate one trajectory together
    std::size_t blocks = 0;
    int blocks_per_multiprocessor = 0;
    double occupancy = 0;  ///< resident threads over the multiprocessor's maximum
    /// The kernels, between CUDA events around each chunk's: the time at least one of them
    /// ran (copies beside kernels included, waits for copies between them not; over
    /// several devices, the device that took longest).
    float milliseconds = 0;
    std::size_t chunks = 1;  ///< launches: one per chunk of the batch, on every device
    int devices = 1;         ///< devices the batch was split over
    /// Automatic scheduling on the GPU: the lane use (batch/lane_use.hpp) of the first
    /// sample (a block on every multiprocessor), integrated one trajectory per thread, that
    /// chose `scheduling` for the rest (whose kernel the registers, blocks and occupancy
    /// describe); -1 where none was measured.
    /// Over several devices, each chooses for its share, and the report gives the first's.
    double lane_use = -1;

    std::string to_string() const {
        char chosen[64] = "";
        if (lane_use >= 0)
            std::snprintf(chosen, sizeof chosen, " after a first sample of lane use %.2f",
                          lane_use);
        char text[448];
        std::snprintf(text, sizeof text,
                      "kernel (%s; %s scheduling%s): %d lane%s per trajectory, %d registers, %zu "
                      "bytes local memory, %zu bytes shared memory a block, %d threads x %zu "
                      "blocks, %d blocks per multiprocessor, occupancy %.0f%%, %.3f ms in %zu "
                      "chunk%s on %d device%s",
                      configuration.c_str(), scheduling.c_str(), chosen, lanes_per_trajectory,
                      lanes_per_trajectory == 1 ? "" : "s", registers, local_bytes, shared_bytes,
                      block_size, blocks, blocks_per_multiprocessor, occupancy * 100, milliseconds,
                      chunks, chunks == 1 ? "" : "s", devices, devices == 1 ? "" : "s");
        return text;
    }
};

}  // namespace cubie
