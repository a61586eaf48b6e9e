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
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/backends/chunk_slot.hpp"
#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/trajectory_task.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/invalid_setting.hpp"

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
            invalid_setting("backends::cuda::memory_fraction", memory_fraction,
                            "must lie in (0, 1]");
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

        const std::size_t n = inputs.n_trajectories;
        const int threads = threads_for(trajectory_kernel<Task>, chunk, properties);
        const std::string configuration = std::string(Algorithm::name) + ", " + Controller::name;
        result.kernel = describe_kernel(trajectory_kernel<Task>, configuration, threads,
                                        (chunk + threads - 1) / threads, properties);
        result.kernel->chunks = 0;
        result.kernel->milliseconds = 0;

        // Several chunks: two slots, so that one chunk's copies run beside the other's
        // kernel, through page-locked staging. One chunk: copies straight to the device.
        const bool staged = chunk < n;
        std::vector<std::unique_ptr<chunk_slot<T>>> slots;
        for (int k = 0; k < (staged ? 2 : 1); ++k)
            slots.push_back(std::make_unique<chunk_slot<T>>(
                chunk, staged, System::n_states, System::n_parameters, result.saved.size() / n,
                result.saved_counters.size() / n, result.summaries.size() / n));

        std::size_t done = 0;
        bool go_on = true;
        auto finish = [&](chunk_slot<T>& slot) {
            const cudaStream_t stream = slot.stream.get();
            check_kernel(configuration, cudaStreamSynchronize(stream));
            result.kernel->milliseconds += slot.kernel_stop.milliseconds_since(slot.kernel_start);
            const std::size_t at = slot.first;
            slot.final_states.finish_download(result.final_states.data() + at, n, slot.count,
                                              stream);
            slot.statuses.finish_download(result.statuses.data() + at, n, slot.count, stream);
            slot.accepted_steps.finish_download(result.accepted_steps.data() + at, n, slot.count,
                                                stream);
            slot.rejected_steps.finish_download(result.rejected_steps.data() + at, n, slot.count,
                                                stream);
            slot.saved.finish_download(offset(result.saved.data(), at), n, slot.count, stream);
            slot.saved_counters.finish_download(offset(result.saved_counters.data(), at), n,
                                                slot.count, stream);
            slot.summaries.finish_download(offset(result.summaries.data(), at), n, slot.count,
                                           stream);
            slot.busy = false;
            done = slot.first + slot.count;
            if (go_on) go_on = after_chunk(done);
        };
        auto issue = [&](chunk_slot<T>& slot, std::size_t first, std::size_t count) {
            const cudaStream_t stream = slot.stream.get();
            slot.first = first;
            slot.count = count;
            slot.busy = true;
            slot.initial_states.upload(inputs.initial_states.data() + first, n, count, stream);
            slot.parameters.upload(offset(inputs.parameters.data(), first), n, count, stream);
            slot.saved.mark_unrecorded(count, stream);
            slot.saved_counters.mark_unrecorded(count, stream);
            slot.summaries.mark_unrecorded(count, stream);
            task.n_trajectories = count;
            task.bind(
                {slot.initial_states.device(),
                 slot.parameters.device(),
                 slot.final_states.device(),
                 slot.statuses.device(),
                 slot.accepted_steps.device(),
                 slot.rejected_steps.device(),
                 {slot.saved.device(), slot.saved_counters.device(), slot.summaries.device()}},
                count);
            slot.kernel_start.record(stream);
            trajectory_kernel<<<static_cast<unsigned>((count + threads - 1) / threads), threads, 0,
                                stream>>>(task);
            slot.kernel_stop.record(stream);
            check_kernel(configuration, cudaGetLastError());
            ++result.kernel->chunks;
            slot.final_states.start_download(count, stream);
            slot.statuses.start_download(count, stream);
            slot.accepted_steps.start_download(count, stream);
            slot.rejected_steps.start_download(count, stream);
            slot.saved.start_download(count, stream);
            slot.saved_counters.start_download(count, stream);
            slot.summaries.start_download(count, stream);
        };

        std::size_t next = 0;  // the slot the next chunk goes to: the one idle longest
        for (std::size_t first = 0; first < n && go_on; first += chunk) {
            chunk_slot<T>& slot = *slots[next];
            if (slot.busy) finish(slot);
            if (!go_on) break;
            issue(slot, first, std::min(chunk, n - first));
            next = (next + 1) % slots.size();
        }
        // Chunks still in flight, oldest first; a cancelled solve keeps what they finished.
        for (std::size_t k = 0; k < slots.size(); ++k, next = (next + 1) % slots.size())
            if (slots[next]->busy) finish(*slots[next]);
        if (verbose) std::fprintf(stderr, "cubie: %s\n", result.kernel->to_string().c_str());
        return done;
    }

private:
    void select_device() const {
        if (device >= 0) CUBIE_CUDA_CHECK(cudaSetDevice(device));
    }

    /// The chunk's first trajectory in a [row][trajectory] array (none: null).
    template <class U>
    static U* offset(U* data, std::size_t first) {
        return data ? data + first : nullptr;
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
    static void check_kernel(const std::string& method, cudaError_t code) {
        if (code != cudaSuccess)
            throw cuda_error(code, "batch kernel (" + method + ") failed: " + describe(code));
    }
};

}  // namespace cubie::backends
