#pragma once
// CUDA backend: one thread per trajectory. A batch goes through in chunks that fit the
// device's memory budget (one chunk when it fits): each chunk's inputs are copied to the
// device, one kernel integrates them, its outputs are copied back into their place in the
// result. Needs nvcc.

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
    /// Share of the device's free memory a solve may use; larger batches go in chunks.
    double memory_fraction = 0.8;

    /// The largest chunk, up to `wanted`, whose inputs and outputs fit the memory budget.
    std::size_t chunk_capacity(std::size_t wanted, double bytes_per_trajectory) const {
        if (!(memory_fraction > 0 && memory_fraction <= 1))
            throw std::invalid_argument(
                "backends::cuda::memory_fraction = " + std::to_string(memory_fraction) +
                " is invalid: must lie in (0, 1]");
        select_device();
        std::size_t free_bytes = 0, total_bytes = 0;
        CUBIE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        const double budget = memory_fraction * double(free_bytes);
        if (bytes_per_trajectory > budget)
            throw std::invalid_argument(
                "one trajectory's inputs and outputs need " +
                std::to_string(static_cast<std::size_t>(bytes_per_trajectory)) +
                " bytes of device memory; the budget is " +
                std::to_string(static_cast<std::size_t>(budget)) +
                " (memory_fraction of the free memory): save less often or summarise instead");
        return std::min(wanted, static_cast<std::size_t>(budget / bytes_per_trajectory));
    }

    /// Integrates the batch `chunk` trajectories at a time: each chunk's inputs are copied
    /// to the device, integrated and its outputs copied back into their place in the
    /// result. after_chunk(done) returns false to stop before the next chunk. Returns the
    /// trajectories done.
    template <class Task, class T, class AfterChunk>
    std::size_t run(Task task, const batch_inputs<T>& inputs, batch_result<T>& result,
                    std::size_t chunk, AfterChunk&& after_chunk) const {
        using Algorithm = typename Task::algorithm;
        using Controller = typename Task::controller;
        using System = typename Task::system_type;
        select_device();
        int current = 0;
        CUBIE_CUDA_CHECK(cudaGetDevice(&current));
        cudaDeviceProp properties{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&properties, current));
        result.backend = std::string("cuda:") + properties.name;

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

        // Rows of each [row][trajectory] array, and device buffers for one chunk of them.
        const std::size_t n = inputs.n_trajectories;
        const std::size_t states = System::n_states, parameters = System::n_parameters;
        const std::size_t saved_rows = result.saved.size() / n;
        const std::size_t counter_rows = result.saved_counters.size() / n;
        const std::size_t summary_rows = result.summaries.size() / n;
        device_buffer<T> d_initial(states * chunk), d_parameters(parameters * chunk),
            d_final(states * chunk), d_saved(saved_rows * chunk), d_summaries(summary_rows * chunk);
        device_buffer<status> d_statuses(chunk);
        device_buffer<std::uint32_t> d_accepted(chunk), d_rejected(chunk),
            d_counters(counter_rows * chunk);

        const int threads = threads_for(trajectory_kernel<Task>, chunk, properties);
        const std::string configuration = std::string(Algorithm::name) + ", " + Controller::name;
        result.kernel = describe_kernel(trajectory_kernel<Task>, configuration, threads,
                                        (chunk + threads - 1) / threads, properties);
        result.kernel->chunks = 0;
        for (std::size_t first = 0; first < n; first += chunk) {
            const std::size_t count = std::min(chunk, n - first);
            copy_rows(d_initial.data(), count, inputs.initial_states.data() + first, n, count,
                      states, cudaMemcpyHostToDevice);
            copy_rows(d_parameters.data(), count, inputs.parameters.data() + first, n, count,
                      parameters, cudaMemcpyHostToDevice);
            // All bits set where nothing gets recorded: NaN values, counters of 2^32 - 1.
            unrecorded(d_saved);
            unrecorded(d_counters);
            unrecorded(d_summaries);
            task.n_trajectories = count;
            task.bind({d_initial.data(),
                       d_parameters.data(),
                       d_final.data(),
                       d_statuses.data(),
                       d_accepted.data(),
                       d_rejected.data(),
                       {d_saved.data(), d_counters.data(), d_summaries.data()}},
                      count);
            cuda_event start, stop;
            start.record();
            trajectory_kernel<<<static_cast<unsigned>((count + threads - 1) / threads), threads>>>(
                task);
            stop.record();
            check_kernel(configuration);
            result.kernel->milliseconds += stop.milliseconds_since(start);
            ++result.kernel->chunks;

            copy_rows(result.final_states.data() + first, n, d_final.data(), count, count, states,
                      cudaMemcpyDeviceToHost);
            copy_rows(result.statuses.data() + first, n, d_statuses.data(), count, count, 1,
                      cudaMemcpyDeviceToHost);
            copy_rows(result.accepted_steps.data() + first, n, d_accepted.data(), count, count, 1,
                      cudaMemcpyDeviceToHost);
            copy_rows(result.rejected_steps.data() + first, n, d_rejected.data(), count, count, 1,
                      cudaMemcpyDeviceToHost);
            if (saved_rows > 0)
                copy_rows(result.saved.data() + first, n, d_saved.data(), count, count, saved_rows,
                          cudaMemcpyDeviceToHost);
            if (counter_rows > 0)
                copy_rows(result.saved_counters.data() + first, n, d_counters.data(), count, count,
                          counter_rows, cudaMemcpyDeviceToHost);
            if (summary_rows > 0)
                copy_rows(result.summaries.data() + first, n, d_summaries.data(), count, count,
                          summary_rows, cudaMemcpyDeviceToHost);
            if (!after_chunk(first + count)) {
                report(result);
                return first + count;
            }
        }
        report(result);
        return n;
    }

private:
    void select_device() const {
        if (device >= 0) CUBIE_CUDA_CHECK(cudaSetDevice(device));
    }

    template <class T>
    void report(const batch_result<T>& result) const {
        if (verbose) std::fprintf(stderr, "cubie: %s\n", result.kernel->to_string().c_str());
    }

    template <class U>
    static void unrecorded(device_buffer<U>& b) {
        if (b.size() > 0) CUBIE_CUDA_CHECK(cudaMemset(b.data(), 0xFF, b.bytes()));
    }

    /// Copies `rows` rows of `count` values between arrays whose rows are `to_stride` and
    /// `from_stride` elements apart.
    template <class U>
    static void copy_rows(U* to, std::size_t to_stride, const U* from, std::size_t from_stride,
                          std::size_t count, std::size_t rows, cudaMemcpyKind kind) {
        if (rows == 0 || count == 0) return;
        if (to_stride == count && from_stride == count)
            CUBIE_CUDA_CHECK(cudaMemcpy(to, from, rows * count * sizeof(U), kind));
        else
            CUBIE_CUDA_CHECK(cudaMemcpy2D(to, to_stride * sizeof(U), from, from_stride * sizeof(U),
                                          count * sizeof(U), rows, kind));
    }

    /// The occupancy API's block size, but no larger than each multiprocessor's share of
    /// the chunk: a small batch still spreads over the whole device.
    template <class Kernel>
    int threads_for(Kernel kernel, std::size_t chunk, const cudaDeviceProp& properties) const {
        if (block_size > 0) return block_size;
        int min_grid = 0, largest = 0;
        CUBIE_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &largest, kernel));
        const std::size_t share =
            (chunk + properties.multiProcessorCount - 1) / properties.multiProcessorCount;
        const std::size_t warps = (share + properties.warpSize - 1) / properties.warpSize;
        return static_cast<int>(
            std::min<std::size_t>(static_cast<std::size_t>(largest), warps * properties.warpSize));
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
