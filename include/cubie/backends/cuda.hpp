#pragma once
// CUDA backend: one thread per trajectory. Inputs are copied to the device, one kernel
// integrates the batch, outputs are copied back. Needs nvcc.

#if !defined(__CUDACC__)
#error "cubie/backends/cuda.hpp holds kernels: compile this translation unit with nvcc"
#endif

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/trajectory_task.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/device_buffer.hpp"

namespace cubie::backends {

template <class Task>
__global__ void trajectory_kernel(Task task) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < task.n_trajectories) task(i);
}

/// True when the CUDA runtime sees at least one device.
inline bool cuda_device_available() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

struct cuda {
    int device = -1;       ///< device ordinal; -1: the current device
    int block_size = 0;    ///< threads per block; 0: chosen by the occupancy API
    bool verbose = false;  ///< print the kernel report (registers, occupancy) to stderr

    template <class Task, class T>
    void run(Task task, const batch_inputs<T>& inputs, batch_result<T>& result) const {
        using Algorithm = typename Task::algorithm;
        using Controller = typename Task::controller;
        if (device >= 0) CUBIE_CUDA_CHECK(cudaSetDevice(device));
        int current = 0;
        CUBIE_CUDA_CHECK(cudaGetDevice(&current));
        cudaDeviceProp properties{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&properties, current));
        check_device_memory(inputs, result, properties);

        std::vector<device_buffer<T>> driver_data;  // knots and coefficients, per driver
        for (std::size_t k = 0; k < inputs.drivers.size(); ++k) {
            const cubic_spline<T>& spline = inputs.drivers[k];
            driver_data.push_back(device_buffer<T>::copy_of(spline.knots()));
            driver_data.push_back(device_buffer<T>::copy_of(spline.coefficients()));
            cubic_spline_view<T> view = spline.view();
            view.knots = driver_data[2 * k].data();
            view.coefficients = driver_data[2 * k + 1].data();
            task.settings.drivers[k] = view;
        }
        const auto initial_states = device_buffer<T>::copy_of(inputs.initial_states);
        const auto parameters = device_buffer<T>::copy_of(inputs.parameters);
        device_buffer<T> final_states(result.final_states.size());
        device_buffer<status> statuses(result.statuses.size());
        device_buffer<std::uint32_t> accepted(result.accepted_steps.size());
        device_buffer<std::uint32_t> rejected(result.rejected_steps.size());
        // All bits set where nothing gets recorded: NaN values, counters of 2^32 - 1.
        device_buffer<T> saved = unrecorded<T>(result.saved.size());
        device_buffer<std::uint32_t> saved_counters =
            unrecorded<std::uint32_t>(result.saved_counters.size());
        device_buffer<T> summaries = unrecorded<T>(result.summaries.size());
        task.bind({initial_states.data(),
                   parameters.data(),
                   final_states.data(),
                   statuses.data(),
                   accepted.data(),
                   rejected.data(),
                   {saved.data(), saved_counters.data(), summaries.data()}});

        using task_type = Task;
        int threads = block_size;
        if (threads <= 0) {
            // The occupancy API's block size, but no larger than the share of each
            // multiprocessor: a small batch still spreads over the whole device.
            int min_grid = 0, largest = 0;
            CUBIE_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &largest,
                                                                trajectory_kernel<task_type>));
            const std::size_t share = (task.n_trajectories + properties.multiProcessorCount - 1) /
                                      properties.multiProcessorCount;
            const std::size_t warps = (share + properties.warpSize - 1) / properties.warpSize;
            threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(largest),
                                                             warps * properties.warpSize));
        }
        const std::size_t blocks = (task.n_trajectories + threads - 1) / threads;
        const std::string configuration = std::string(Algorithm::name) + ", " + Controller::name;
        result.kernel = describe_kernel(trajectory_kernel<task_type>, configuration, threads,
                                        blocks, properties);
        cuda_event start, stop;
        start.record();
        trajectory_kernel<<<static_cast<unsigned>(blocks), threads>>>(task);
        stop.record();
        check_kernel(configuration);
        result.kernel->milliseconds = stop.milliseconds_since(start);
        if (verbose) std::fprintf(stderr, "cubie: %s\n", result.kernel->to_string().c_str());

        final_states.copy_to(result.final_states);
        statuses.copy_to(result.statuses);
        accepted.copy_to(result.accepted_steps);
        rejected.copy_to(result.rejected_steps);
        saved.copy_to(result.saved);
        saved_counters.copy_to(result.saved_counters);
        summaries.copy_to(result.summaries);
        result.backend = std::string("cuda:") + properties.name;
    }

private:
    template <class U>
    static device_buffer<U> unrecorded(std::size_t n) {
        device_buffer<U> b(n);
        if (n > 0) CUBIE_CUDA_CHECK(cudaMemset(b.data(), 0xFF, b.bytes()));
        return b;
    }

    /// Everything the solve puts on the device must fit in its free memory: say so before
    /// allocating, rather than fail half way.
    template <class T>
    static void check_device_memory(const batch_inputs<T>& in, const batch_result<T>& r,
                                    const cudaDeviceProp& properties) {
        const std::size_t needed =
            (in.initial_states.size() + in.parameters.size() + r.final_states.size() +
             r.saved.size() + r.summaries.size()) *
                sizeof(T) +
            r.statuses.size() * sizeof(status) +
            (r.accepted_steps.size() + r.rejected_steps.size() + r.saved_counters.size()) *
                sizeof(std::uint32_t);
        std::size_t free_bytes = 0, total_bytes = 0;
        CUBIE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        if (needed > free_bytes)
            throw std::invalid_argument(
                "the solve needs " + std::to_string(needed) + " bytes of device memory and " +
                properties.name + " has " + std::to_string(free_bytes) +
                " free: save less often, summarise instead of saving, or solve fewer "
                "trajectories at a time");
    }

    template <class Kernel>
    static kernel_report describe_kernel(Kernel kernel, const std::string& configuration,
                                         int threads, std::size_t blocks,
                                         const cudaDeviceProp& properties) {
        cudaFuncAttributes attributes{};
        CUBIE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
        int resident = 0;
        CUBIE_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, threads, 0));
        kernel_report r;
        r.configuration = configuration;
        r.registers = attributes.numRegs;
        r.local_bytes = attributes.localSizeBytes;
        r.block_size = threads;
        r.blocks = blocks;
        r.blocks_per_multiprocessor = resident;
        r.occupancy =
            static_cast<double>(resident * threads) / properties.maxThreadsPerMultiProcessor;
        return r;
    }

    // Launch errors and faults during the kernel, named after the method and controller.
    static void check_kernel(const std::string& method) {
        for (cudaError_t code : {cudaGetLastError(), cudaDeviceSynchronize()}) {
            if (code != cudaSuccess)
                throw cuda_error(code, "batch kernel (" + method + ") failed: " + describe(code));
        }
    }
};

}  // namespace cubie::backends
