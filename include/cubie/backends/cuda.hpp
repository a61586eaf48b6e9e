#pragma once
// CUDA backend: one thread per trajectory (or a tile of lanes of a warp: the method's
// mapping, algorithms/on_lanes.hpp), on one device or several. A batch goes through
// in chunks that fit each device's memory budget (one chunk when it fits): each chunk's
// inputs are copied to the device (or read in place when they are in device memory), one
// kernel integrates them, and its outputs are copied back into their place in the result
// (or written in place into a device_result). Needs nvcc.

#if !defined(__CUDACC__)
#error "cubie/backends/cuda.hpp holds kernels: compile this translation unit with nvcc"
#endif

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cubie/backends/chunk_slot.hpp"
#include "cubie/backends/kernel_intervals.hpp"
#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/device_result.hpp"
#include "cubie/batch/lane_use.hpp"
#include "cubie/batch/scheduling.hpp"
#include "cubie/batch/trajectory_task.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/device_properties.hpp"
#include "cubie/core/invalid_setting.hpp"
#include "cubie/core/kept_threads.hpp"
#include "cubie/core/memory_location.hpp"
#include "cubie/core/scoped_device.hpp"
#include "cubie/core/thread_shared.hpp"

namespace cubie::backends {

/// Task::lanes consecutive threads per trajectory: a tile of a warp, whole in every block
/// (block sizes are multiples of the lanes), all of its lanes in or out together.
template <class Task>
__global__ void trajectory_kernel(Task task) {
    const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t i = thread / Task::lanes;
    if (i < task.n_trajectories) task(i);
}

/// Dynamic shared memory of a block of a Task's kernels: the values of thread_shared_block
/// threads (core/thread_shared.hpp), whatever the block's size; 0 where its steps keep none.
template <class Task>
inline constexpr std::size_t thread_shared_memory =
    std::size_t(Task::thread_shared_bytes) * std::size_t(thread_shared_block);

/// Values of shared memory from one tile's whole state to the next's in dealt_out_kernel:
/// for tiles narrower than a warp, an odd number of tile widths (lanes), Task::shared_values
/// or one width more. The tiles of
/// a warp then start in different banks, and their lanes, reading the same components of
/// their own states, read apart; an even number of widths apart (Lorenz 96 at 64 sites on 8
/// lanes: 64 words) their reads of one component would fall in one bank and be served in
/// turn. A tile of 32 lanes is a warp of its own: nothing to keep apart.
template <class Task>
inline constexpr int tile_stride = Task::lanes == 32 || (Task::shared_values / Task::lanes) % 2 == 1
                                       ? Task::shared_values
                                       : Task::shared_values + Task::lanes;

/// The most threads a block of dealt_out_kernel holds: 256, or fewer where the tiles'
/// shared memory would pass 48 KB (the most a kernel declares statically).
template <class Task>
inline constexpr int dealt_out_block_limit = [] {
    constexpr int tile_bytes = tile_stride<Task> * int(sizeof(typename Task::T));
    static_assert(tile_bytes <= 48 * 1024,
                  "the whole state of one trajectory passes 48 KB of shared memory: too large "
                  "to deal out over lanes");
    const int tiles = 48 * 1024 / tile_bytes;
    return tiles * Task::lanes < 256 ? tiles * Task::lanes : 256;
}();

/// Task::lanes consecutive threads per trajectory whose method deals the state out over
/// them (loop/lane_system.hpp): each tile gathers its whole state in its share of the
/// block's shared memory.
template <class Task>
__global__ void __launch_bounds__(dealt_out_block_limit<Task>) dealt_out_kernel(Task task) {
    __shared__ typename Task::T whole[dealt_out_block_limit<Task> / Task::lanes][tile_stride<Task>];
    const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t i = thread / Task::lanes;
    if (i < task.n_trajectories) task.on_lanes(i, whole[threadIdx.x / Task::lanes]);
}

namespace detail {
/// The next trajectory of a chunk for the calling thread, from the chunk's work counter
/// `claimed` (0 at launch): the lanes of a warp that ask together take consecutive ones,
/// in lane order, with one atomic.
__device__ inline unsigned claim_trajectory(unsigned* claimed) {
    const cooperative_groups::coalesced_group asking = cooperative_groups::coalesced_threads();
    unsigned first = 0;
    if (asking.thread_rank() == 0) first = atomicAdd(claimed, asking.size());
    return asking.shfl(first, 0) + asking.thread_rank();
}

/// Adds the steps of the warps `of` describes, one a thread, into *total. A kernel of its
/// own rather than cub's device reduction, which costs every solver's translation unit
/// seconds of compile time for a sum of a few thousand warps.
template <class Steps>
__global__ void sum_warp_steps(Steps of, warp_steps* total) {
    namespace cg = cooperative_groups;
    const std::size_t w = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const warp_steps mine = w < of.warps() ? of(w) : warp_steps{};
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    const auto attempted = cg::reduce(warp, mine.attempted, cg::plus<unsigned long long>());
    const auto held = cg::reduce(warp, mine.held, cg::plus<unsigned long long>());
    if (warp.thread_rank() == 0) {
        atomicAdd(&total->attempted, attempted);
        atomicAdd(&total->held, held);
    }
}

/// The lanes of the calling thread's warp that the (one-dimensional) block holds: all 32
/// but in a last warp cut short by a block size that is no multiple of 32.
__device__ inline unsigned warp_lanes() {
    const unsigned after_first = blockDim.x - (threadIdx.x & ~31u);
    return after_first >= 32 ? ~0u : (1u << after_first) - 1;
}
}  // namespace detail

/// The systems, by their number of states, whose balanced blocks take their passes
/// together (balanced_kernel). A barrier a pass costs a small step more than its code
/// fetches: on an H100 (bench/RESULTS.md, divergent_bench at 2^20, before the warps' vote),
/// shuffled Pleiades (28 states, Tsit5) went from 80.7 to 54.7 ms with it, shuffled Lorenz
/// (3 states, Tsit5) from 7.07 to 8.13 and shuffled Van der Pol (2, Rosenbrock23) from
/// 6.27 to 7.37.
inline constexpr int balanced_lockstep_states = 8;

/// Balanced scheduling (batch/scheduling.hpp) of adaptive trajectories: a persistent grid
/// whose threads claim trajectories from the chunk's work counter `claimed` (0 at launch)
/// one at a time, where their last one ended, between two steps of their warp's other
/// lanes: a lane waits for its neighbours one step at most, not a whole trajectory. The
/// counter passes the chunk's size by one claim per thread at most (within 32 bits: the
/// backend's chunks of balanced solves hold at most 2^31 trajectories).
/// Every pass, the lanes of a warp meet (a vote), so that they step together: a lane that
/// claimed, or the branches of a step, left them apart otherwise, each lane stepping on
/// its own (Rosenbrock23 on a shuffled Van der Pol sweep took 18 times as long). Where
/// `lockstep`, the warps of a block meet too (a barrier), so that they run the same stretch
/// of a step's code at once: warps left to drift apart fetched the code of a long step
/// (Tsit5 on Pleiades) from beyond the instruction cache, and stalled on it most of the
/// time. The loop ends when no thread that meets has work left; while every one has, the
/// passes go on without a claim.
template <class Task, bool lockstep>
__global__ void balanced_kernel(Task task, unsigned* claimed) {
    task.run_passes([claimed] { return detail::claim_trajectory(claimed); },
                    [lanes = detail::warp_lanes()](bool working) {
                        if constexpr (lockstep)
                            return __syncthreads_or(working) != 0;
                        else
                            return __any_sync(lanes, working) != 0;
                    },
                    [lanes = detail::warp_lanes()](bool working) {
                        if constexpr (lockstep)
                            return __syncthreads_and(working) != 0;
                        else
                            return __all_sync(lanes, working) != 0;
                    });
}

/// True when the CUDA runtime sees at least one device.
inline bool cuda_device_available() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

struct cuda {
    /// The devices that solve the batch. Empty: the current device. Several: the batch is
    /// split into contiguous shares in proportion to each device's throughput
    /// (multiprocessors x clock rate), solved at once from one host thread per device,
    /// each copying its own share's outputs into the result over its share of the host's
    /// threads; results are the same as on one device.
    std::vector<int> devices = {};
    int block_size = 0;    ///< threads per block; 0: chosen from the occupancy API
    bool verbose = false;  ///< print the kernel report (registers, occupancy) to stderr
    /// How threads take trajectories (batch/scheduling.hpp); fixed steps always go one
    /// trajectory per thread, and methods on several lanes one per group of lanes.
    cubie::scheduling scheduling = cubie::scheduling::automatic;
    /// What automatic gives adaptive controllers on one lane: a choice by measurement, per
    /// device. Balanced scheduling was measured 1.1 to 2.4 times as fast as one trajectory
    /// per thread where a warp's trajectories diverge (shuffled sweeps), but 10 to 34% slower
    /// where they take about the same steps (an H100, before balanced passes left their
    /// claims out while every lane works; an H200 since: 1.24 to 2.57 times as fast, and
    /// 1.04 to 1.22 times as long; bench/RESULTS.md). So a share of measured_waves waves
    /// or more integrates a first sample, its first trajectories in as many blocks as the
    /// device has multiprocessors, one trajectory per thread, and the sample's lane use
    /// (batch/lane_use.hpp), from the step counts it wrote, picks the schedule of the rest
    /// (balanced_below_lane_use). A share goes one trajectory per thread throughout where it
    /// is smaller, where its chunks hold less than a wave or its balanced chunks less than
    /// measured_waves balanced waves (chunks asked for, a progress callback, a tight memory
    /// budget), or where a block_size asked for leaves no balanced block resident: balanced
    /// threads would take few trajectories.
    static constexpr cubie::scheduling automatic_adaptive = cubie::scheduling::automatic;
    /// Automatic balances the rest where the first sample's lane use is below this. Measured
    /// on an H100, before the passes without claims (bench/RESULTS.md, 2026-11-26,
    /// divergent_bench at 2^20 and 2^24, the rest forced balanced after a first wave),
    /// and not since: the solve ran 0.74 to 0.91 times as fast as one
    /// trajectory per thread where the first wave's lane use was 0.91 to 1 (sorted and
    /// uniform sweeps: balanced threads pay for their claims and votes, and for the
    /// trajectories started last), and 1.06 to 2.23 times as fast at 0.43 to 0.65 (the same
    /// sweeps shuffled).
    static constexpr double balanced_below_lane_use = 0.7;
    /// Waves (threads resident on the device at once) a share needs for automatic to
    /// measure a first sample (solve_part); the rest, more than three waves, is what
    /// balancing can gain on.
    static constexpr std::size_t measured_waves = 4;
    /// Whether automatic balances the rest of a share after a first sample of `lane_use`.
    static constexpr bool balances(double lane_use) {
        return lane_use >= 0 && lane_use < balanced_below_lane_use;
    }
    /// Share of a device's free memory a solve may use; larger batches go in chunks.
    double memory_fraction = 0.8;

    /// Every device the CUDA runtime sees: `cuda{.devices = cuda::all_devices()}`.
    static std::vector<int> all_devices() {
        std::vector<int> all(static_cast<std::size_t>(device_count()));
        for (std::size_t d = 0; d < all.size(); ++d) all[d] = static_cast<int>(d);
        return all;
    }

    /// run() writes every output of every trajectory of a host result: those it integrates,
    /// and an unsolved one's marks (batch_result::mark_unsolved) for those it never starts.
    static constexpr bool writes_every_output = true;

    /// A batch of many waves goes in about this many chunks per device, none smaller than
    /// a wave (the threads the device's multiprocessors hold at once), so that the copies
    /// of one chunk run beside the kernels of others and only the first chunk's inputs and
    /// the last one's outputs are copied while no kernel runs (a balanced solve that copies
    /// nothing goes in one: chunk_capacity).
    static constexpr std::size_t pipeline_chunks = 16;
    /// Chunks queued on a device at once, one stream each.
    static constexpr std::size_t chunks_in_flight = 4;
    /// A chunk of a balanced solve holds at least this many waves, where chunks_in_flight
    /// of them fit the memory budget: its persistent threads take a next trajectory only
    /// from their own chunk, and a chunk of about a wave (the pipeline's at 2^20
    /// trajectories on an H100) leaves them about one each, nothing to balance.
    static constexpr std::size_t balanced_waves = 8;

    /// The largest chunk, up to `wanted`, whose inputs and outputs fit the memory budget
    /// of every device (chunks_in_flight of them, where the batch goes in several or its
    /// schedule is automatic), and no larger than the pipeline's chunks (balanced_waves
    /// waves at least, where the solve is balanced or automatic: `adaptive` steps on one
    /// lane); a wave is counted in trajectories of `lanes` threads each. Where a trajectory
    /// copies nothing (bytes_per_trajectory 0: inputs read in place into a device_result),
    /// no copy is there to overlap: a balanced solve, and the balanced rest of an automatic
    /// one, take all that is wanted in one chunk (solve_part cuts it at 2^31), whose threads
    /// stay busy to the end of the share rather than of each chunk. On divergent_bench's
    /// shuffled sweeps at 2^24 (an H200, bench/RESULTS.md) they ran 1.03 to 1.08 times as
    /// fast; asked for on sorted Pleiades, balanced ran 1.08 times as long. One trajectory
    /// per thread keeps the pipeline's chunks: in one launch, static Pleiades at 2^24 took
    /// a larger block and ran 1.04 to 1.22 times as long.
    std::size_t chunk_capacity(std::size_t wanted, double bytes_per_trajectory, int lanes = 1,
                               bool adaptive = false) const {
        check_memory_fraction();
        const bool balancing = schedule_of(adaptive, lanes) != cubie::scheduling::static_mapping;
        if (bytes_per_trajectory == 0 && balancing) return wanted;
        const std::vector<int> chosen = chosen_devices();
        std::size_t wave = 0;                                        // the largest wave
        std::size_t fits = std::numeric_limits<std::size_t>::max();  // what every budget holds
        for (const int d : chosen) {
            const scoped_device on(d);
            int device = 0, multiprocessors = 0, threads_per_multiprocessor = 0;
            CUBIE_CUDA_CHECK(cudaGetDevice(&device));
            CUBIE_CUDA_CHECK(
                cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
            CUBIE_CUDA_CHECK(cudaDeviceGetAttribute(
                &threads_per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor, device));
            wave = std::max(wave, std::size_t(multiprocessors) *
                                      std::size_t(threads_per_multiprocessor) / std::size_t(lanes));
            std::size_t free_bytes = 0, total_bytes = 0;
            CUBIE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
            const double budget = memory_fraction * double(free_bytes);
            if (bytes_per_trajectory == 0) continue;
            if (bytes_per_trajectory > budget)
                throw std::invalid_argument(
                    "one trajectory's inputs and outputs need " +
                    std::to_string(static_cast<std::size_t>(bytes_per_trajectory)) +
                    " bytes of device memory; the budget is " +
                    std::to_string(static_cast<std::size_t>(budget)) +
                    " (memory_fraction of the free memory): save less often or summarise "
                    "instead");
            fits = std::min(fits, static_cast<std::size_t>(budget / bytes_per_trajectory));
        }
        // Several waves where balanced (or where automatic may balance after its sample),
        // as far as chunks_in_flight of them fit the budget.
        const std::size_t least =
            balancing ? std::max(wave, std::min(balanced_waves * wave, fits / chunks_in_flight))
                      : wave;
        const std::size_t per_device_chunks = pipeline_chunks * chosen.size();
        const std::size_t pipelined =
            std::max(least, (wanted + per_device_chunks - 1) / per_device_chunks);
        const std::size_t chunk = std::min({wanted, fits, pipelined});
        // A share of several chunks holds chunks_in_flight of them at once; so may an
        // automatic one, which measures its first sample apart (solve_part).
        const bool several =
            chunk < wanted || schedule_of(adaptive, lanes) == cubie::scheduling::automatic;
        return several ? std::min(chunk, std::max<std::size_t>(1, fits / chunks_in_flight)) : chunk;
    }

    /// The schedule a solve gets, with an adaptive controller or not, on `lanes` threads per
    /// trajectory: lanes that share a trajectory go one trajectory per group of lanes;
    /// automatic is chosen per device as the solve goes (automatic_adaptive).
    cubie::scheduling schedule_of(bool adaptive, int lanes) const {
        return lanes == 1 ? resolve_scheduling(adaptive, scheduling, automatic_adaptive)
                          : cubie::scheduling::static_mapping;
    }

    /// The device a device_result is kept on: the one listed, or the current one.
    int result_device() const {
        check_memory_fraction();
        const std::vector<int> chosen = chosen_devices();
        if (chosen.size() != 1)
            throw std::invalid_argument(
                "a result kept in device memory lives on one device; backends::cuda::devices "
                "lists " +
                std::to_string(devices.size()) + ": solve on one, or into host memory");
        if (chosen[0] >= 0) return chosen[0];
        int current = 0;
        CUBIE_CUDA_CHECK(cudaGetDevice(&current));
        return current;
    }

    /// The block size, checked against a method's lanes per trajectory (the solver asks
    /// before it touches the result): 0 (chosen from the occupancy API), or a block the
    /// device can launch holding whole tiles of the lanes that integrate one trajectory. A
    /// method named in its variant that keeps values in shared memory (core/thread_shared.hpp)
    /// also needs devices that let a block take them.
    template <class Task>
    void check_block_size() const {
        constexpr int lanes = Task::lanes;
        constexpr int most = [] {
            if constexpr (Task::shared_values > 0)
                return dealt_out_block_limit<Task>;
            else if constexpr (Task::thread_shared_bytes > 0)  // a variant named as the method
                return thread_shared_block;
            else
                return 1024;
        }();
        if (block_size < 0 || block_size > most || block_size % lanes != 0)
            invalid_setting("backends::cuda::block_size", block_size,
                            "must be 0 (chosen from the occupancy) or up to " +
                                std::to_string(most) + " threads, a multiple of the method's " +
                                std::to_string(lanes) + " lane(s) per trajectory");
        if constexpr (Task::thread_shared_bytes > 0)
            if (!devices_hold(thread_shared_memory<Task>))
                throw std::invalid_argument(
                    std::string(Task::algorithm::name) +
                    " named in its variant that keeps values in shared memory needs " +
                    std::to_string(thread_shared_memory<Task>) +
                    " bytes of it a block, more than a device of the solve allows: name the "
                    "method itself, which the solver gives that memory where it can");
    }

    /// Integrates the batch `chunk` trajectories at a time into `result`: a batch_result
    /// in host memory, or a device_result written in place (result.prepare() has sized it
    /// on result_device()). after_chunk(count) is told of every finished chunk, one call
    /// at a time (from the devices' threads when several solve); it returns false to start
    /// no further chunk. Trajectories never started are marked unsolved in a batch_result
    /// and keep what a device_result held. The streams and buffers stay in the result's
    /// workspace for the next solve into it; a batch_result solved into again with its
    /// arrays where they were has them page-locked (page_lock.hpp).
    template <class Task, class T, class Result, class AfterChunk>
    void run(const Task& task, const batch_inputs<T>& inputs, Result& result, std::size_t chunk,
             AfterChunk&& after_chunk) const {
        static_assert(std::is_same_v<Result, batch_result<T>> ||
                      std::is_same_v<Result, device_result<T>>);
        check_block_size<Task>();
        const std::size_t n = inputs.n_trajectories;
        if constexpr (std::is_same_v<Result, batch_result<T>>)
            result.workspace.template get<cuda_workspace<T>>().page_locking.before_solve(result);
        output_place<T> place{
            pointers_into<T>(result, 0), {}, std::is_same_v<Result, device_result<T>>};
        for_each_result_field(
            [&](const result_field& f, const auto& a) { place.rows.*f.rows = a.size() / n; },
            result);
        // The method's variant that keeps values in shared memory (core/thread_shared.hpp),
        // where every device holds them, no block size but its threads' is asked for (a
        // smaller block would leave memory unused that a block holds anyway), and the batch
        // fills half of those blocks' threads on every multiprocessor (thread_shared_batch).
        using algorithm = typename Task::algorithm;
        using variant = thread_shared_variant_t<algorithm, typename Task::system_type>;
        if constexpr (!std::is_same_v<variant, algorithm>) {
            const auto shared_task = task.template stepping_with<variant>();
            if ((block_size == 0 || block_size == thread_shared_block) &&
                n >= thread_shared_batch() &&
                devices_hold(thread_shared_memory<std::remove_const_t<decltype(shared_task)>>))
                return solve_shares(shared_task, inputs, place, result, chunk, after_chunk);
        }
        solve_shares(task, inputs, place, result, chunk, after_chunk);
    }

private:
    /// A result's arrays, [row][trajectory] over the whole batch, and where they are.
    template <class T>
    struct output_place {
        result_pointers<T> at;  ///< column 0 of every array
        result_rows rows;       ///< per trajectory
        bool on_device;         ///< written in place by the kernels (a device_result)
    };

    /// One device's contiguous part of the batch.
    struct share {
        int device;  ///< -1: the current device
        std::size_t first, count;
    };

    /// Tells after_chunk of finished chunks one at a time, and every device when to stop.
    template <class AfterChunk>
    struct chunk_reporter {
        AfterChunk& after_chunk;
        std::mutex mutex{};
        std::atomic<bool> going{true};

        void finished(std::size_t count) {
            const std::lock_guard<std::mutex> lock(mutex);
            if (going && !after_chunk(count)) going = false;
        }
        void stop() { going = false; }
    };

    void check_memory_fraction() const {
        if (!(memory_fraction > 0 && memory_fraction <= 1))
            invalid_setting("backends::cuda::memory_fraction", memory_fraction,
                            "must lie in (0, 1]");
    }

    static int device_count() {
        int count = 0;
        CUBIE_CUDA_CHECK(cudaGetDeviceCount(&count));
        return count;
    }

    /// The listed devices, checked; {-1} (the current device) when none is listed.
    std::vector<int> chosen_devices() const {
        if (devices.empty()) return {-1};
        const int count = device_count();
        for (const int d : devices)
            if (d < 0 || d >= count)
                invalid_setting("backends::cuda::devices", d,
                                "names no device: the CUDA runtime sees " + std::to_string(count));
        return devices;
    }

    /// The fewest trajectories a solve takes a variant that keeps values in shared memory
    /// for: half of thread_shared_block threads on every multiprocessor of its devices.
    /// Fewer leave few threads on each, whose spills the L1 cache holds, and each waits on
    /// its loads from shared memory. On one H200 (132 multiprocessors, bench/RESULTS.md;
    /// variant against registers in blocks of 128 threads), the variants of radau_iia_5 on
    /// Pollution and of rodas5p on Lorenz 96 in float took 1.30 and 1.92 times as long at
    /// 2^14 trajectories, 0.59 and 1.04 times at 2^15; kvaerno5's on Pollution, which gives
    /// up its variant below this batch too, 0.94 and 0.80. The whole batch counts, however
    /// it is chunked.
    std::size_t thread_shared_batch() const {
        std::size_t multiprocessors = 0;
        for (int device : chosen_devices()) {
            if (device < 0) CUBIE_CUDA_CHECK(cudaGetDevice(&device));
            multiprocessors += std::size_t(device_properties(device).multiProcessorCount);
        }
        return multiprocessors * std::size_t(thread_shared_block / 2);
    }

    /// Whether every device of a solve lets a block take `bytes` of shared memory.
    bool devices_hold(std::size_t bytes) const {
        for (int device : chosen_devices()) {
            if (device < 0) CUBIE_CUDA_CHECK(cudaGetDevice(&device));
            int most = 0;
            CUBIE_CUDA_CHECK(
                cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
            if (std::size_t(most) < bytes) return false;
        }
        return true;
    }

    /// Contiguous shares of n trajectories, in proportion to multiprocessors x clock rate.
    std::vector<share> shares_of(std::size_t n) const {
        const std::vector<int> chosen = chosen_devices();
        if (chosen.size() == 1) return {{chosen[0], 0, n}};
        std::vector<double> weights;
        double total = 0;
        for (const int d : chosen) {
            weights.push_back(double(device_properties(d).multiProcessorCount) *
                              double(device_clock_khz(d)));
            total += weights.back();
        }
        std::vector<share> shares;
        double before = 0;
        std::size_t first = 0;
        for (std::size_t k = 0; k < chosen.size(); ++k) {
            before += weights[k];
            const std::size_t end =
                k + 1 == chosen.size() ? n : static_cast<std::size_t>(double(n) * before / total);
            shares.push_back({chosen[k], first, end - first});
            first = end;
        }
        return shares;
    }

    /// Every device solves its share at once: the first on the calling thread, each other
    /// on a host thread kept for the next solve (kept_threads.hpp).
    template <class Task, class T, class Result, class AfterChunk>
    void solve_shares(const Task& task, const batch_inputs<T>& inputs, const output_place<T>& place,
                      Result& result, std::size_t chunk, AfterChunk& after_chunk) const {
        const std::vector<share> shares = shares_of(inputs.n_trajectories);
        chunk_reporter<AfterChunk> reporter{after_chunk};
        std::vector<share_report> reports(shares.size());
        std::vector<device_slots<T>>& kept =
            result.workspace.template get<cuda_workspace<T>>().shares;
        kept.resize(shares.size());
        const int host_threads = host_threads_per_share(shares.size());
        const auto solve_share = [&](std::size_t k) {
            reports[k] =
                solve_part(task, inputs, place, shares[k], chunk, host_threads, kept[k], reporter);
        };
        if (shares.size() == 1) {
            solve_share(0);
        } else {
            std::vector<std::exception_ptr> errors(shares.size());
            std::vector<std::function<void()>> jobs;
            for (std::size_t k = 0; k < shares.size(); ++k)
                jobs.emplace_back([&, k] {
                    try {
                        solve_share(k);
                    } catch (...) {
                        errors[k] = std::current_exception();
                        reporter.stop();
                    }
                });
            kept_threads::run_together(jobs);
            for (const std::exception_ptr& e : errors)
                if (e) std::rethrow_exception(e);
        }
        if constexpr (std::is_same_v<Result, batch_result<T>>)
            for (std::size_t k = 0; k < shares.size(); ++k) {
                const std::size_t end = shares[k].first + shares[k].count;
                result.mark_unsolved(reports[k].started_until, end - reports[k].started_until);
            }
        // One kernel report: the launch of the first device that had a share (a batch smaller
        // than the devices leaves some without), chunks over all devices, and the kernel time
        // of the device that took longest.
        result.backend = "cuda:" + reports[0].device_name;
        std::size_t described = 0;
        while (described + 1 < reports.size() && shares[described].count == 0) ++described;
        kernel_report kernel = reports[described].kernel;
        kernel.chunks = 0;
        kernel.milliseconds = 0;
        for (std::size_t k = 0; k < reports.size(); ++k) {
            if (k > 0 && reports[k].device_name != reports[k - 1].device_name)
                result.backend += " + " + reports[k].device_name;
            kernel.chunks += reports[k].kernel.chunks;
            kernel.milliseconds = std::max(kernel.milliseconds, reports[k].kernel.milliseconds);
        }
        kernel.devices = static_cast<int>(reports.size());
        result.kernel = kernel;
        if (verbose) std::fprintf(stderr, "cubie: %s\n", kernel.to_string().c_str());
    }

    struct share_report {
        std::string device_name;
        kernel_report kernel;
        std::size_t started_until = 0;  ///< the share's trajectories before this one started
    };

    /// The OpenMP threads each share's host copies run over: the host's, split evenly
    /// among the devices, whose copies run at the same time.
    static int host_threads_per_share(std::size_t shares) {
#if defined(_OPENMP)
        return std::max(1, omp_get_max_threads() / static_cast<int>(shares));
#else
        static_cast<void>(shares);
        return 1;
#endif
    }

    /// Integrates one device's share `chunk` trajectories at a time. A share of several
    /// chunks keeps chunks_in_flight of them queued, each on its own stream: the inputs of
    /// some are copied in and the outputs of others copied out while kernels run, and the
    /// host copies finished chunks out of their staging meanwhile, over `host_threads`.
    /// Automatic scheduling (automatic_adaptive) integrates a first sample alone and waits
    /// for its lane use; the rest goes in the pipeline's chunks one trajectory per thread,
    /// or in chunks of `chunk` balanced.
    template <class Task, class T, class AfterChunk>
    share_report solve_part(Task task, const batch_inputs<T>& inputs, const output_place<T>& out,
                            const share& part, std::size_t chunk, int host_threads,
                            device_slots<T>& kept, chunk_reporter<AfterChunk>& reporter) const {
        using Algorithm = typename Task::algorithm;
        using Controller = typename Task::controller;
        using System = typename Task::system_type;
        const scoped_device on(part.device);
        int device = 0;
        CUBIE_CUDA_CHECK(cudaGetDevice(&device));
        const cudaDeviceProp& properties = device_properties(device);
        share_report report{properties.name, {}, part.first};
        if (part.count == 0) {
            report.kernel.chunks = 0;
            return report;
        }

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
        const cubie::scheduling asked = schedule_of(Controller::adaptive, Task::lanes);
        const bool automatic = asked == cubie::scheduling::automatic;
        // Automatic starts one trajectory per thread.
        const cubie::scheduling schedule = automatic ? cubie::scheduling::static_mapping : asked;
        const std::string configuration = std::string(Algorithm::name) + ", " + Controller::name;
        // The chunks of each schedule. chunk_capacity sized the largest for balancing where
        // automatic may balance; one trajectory per thread then keeps the pipeline's chunks.
        const auto chunk_of = [&](cubie::scheduling s) {
            const std::size_t whole = std::min(chunk, part.count);
            // A balanced chunk's work counter, 32 bits, passes its size by a claim per thread.
            if (s == cubie::scheduling::balanced) return std::min(whole, std::size_t{1} << 31);
            if (!automatic) return whole;
            const std::size_t device_wave = std::size_t(properties.multiProcessorCount) *
                                            std::size_t(properties.maxThreadsPerMultiProcessor);
            return std::min(
                whole, std::max(device_wave, (part.count + pipeline_chunks - 1) / pipeline_chunks));
        };
        launch_plan plan =
            plan_launch<Task>(schedule, chunk_of(schedule), properties, configuration);
        if (plan.resident_blocks == 0) no_resident_block(plan.threads, configuration);
        std::size_t chunk_size = chunk_of(schedule);  // of the chunks to come

        // Inputs in device memory this device reads are used in place; others are copied,
        // pageable host arrays through page-locked staging (kept in the workspace: a copy
        // from or into pageable memory is several times slower, and blocks the host), as
        // are the outputs into a pageable result.
        const memory_location states_at = memory_location::of(inputs.initial_states.data());
        const memory_location parameters_at = memory_location::of(inputs.parameters.data());
        const bool inputs_in_place =
            (System::n_states == 0 || states_at.readable_on(device)) &&
            (System::n_parameters == 0 || parameters_at.readable_on(device));
        const bool chunked = chunk_size < part.count;
        const auto staged = [](const memory_location& m) {
            return m.where == memory_location::kind::pageable;
        };
        slot_rows rows;
        if (!inputs_in_place) {
            rows.initial_states = System::n_states;
            rows.parameters = System::n_parameters;
        }
        if (!out.on_device) rows.outputs = out.rows;
        // An input read in place, or of no rows (a system without parameters: its null
        // array looks pageable), is never staged.
        const slot_staging staging{
            !inputs_in_place && System::n_states > 0 && staged(states_at),
            !inputs_in_place && System::n_parameters > 0 && staged(parameters_at),
            !out.on_device && staged(memory_location::of(out.at.statuses))};
        // Automatic measures a first sample where the share holds measured_waves
        // and its chunks hold a wave, the balanced kernel can run at all (a block_size asked
        // for may leave none of its blocks resident), and nothing goes through page-locked
        // staging: balanced chunks are larger than the pipeline's, and page-locking their
        // staging cost more than balancing gained (shuffled Lorenz from pageable inputs into
        // a new host result on an H100, 2^22: 196 ms a solve balanced, 62 one trajectory per
        // thread; bench/RESULTS.md).
        std::size_t measured = 0;
        std::optional<launch_plan> balanced;
        const std::size_t wave = plan.resident_trajectories();
        if (automatic && staging == slot_staging{} && chunk_of(schedule) >= wave &&
            part.count >= measured_waves * wave) {
            balanced =
                plan_launch<Task>(cubie::scheduling::balanced,
                                  chunk_of(cubie::scheduling::balanced), properties, configuration);
            // Balanced chunks must give each thread several trajectories (chunks asked for
            // or cut by the memory budget may not). The sample is the share's first
            // trajectories in as many blocks as the device has multiprocessors (on an idle
            // device, one on each; a whole wave where a multiprocessor holds one block):
            // every multiprocessor works while the sample runs alone, and fewer
            // trajectories than a wave's run at the lane use being measured. Automatic on an
            // H200 (bench/RESULTS.md, 2026-11-27, divergent_bench at 2^20) ran shuffled
            // Lorenz and Van der Pol 1.06 and 1.12 times as fast as after a first wave; with
            // blocks on half of the multiprocessors the others idled, and a uniform sweep
            // took 1.05 times as long. The sample is the share's start: a sweep sorted by
            // its parameter is judged by its first values. It is at most a wave, which the
            // first chunk holds (above).
            if (balanced->resident_blocks > 0 &&
                balanced->chunk >= measured_waves * balanced->resident_trajectories())
                measured = std::size_t(properties.multiProcessorCount) * std::size_t(plan.threads);
        }
        // A measured share starts with one slot and adds the others its choice needs.
        kept.fit(device, chunk_size, rows, staging,
                 measured > 0 || !chunked ? 1 : chunks_in_flight);
        for (const auto& slot : kept.slots) slot->busy = false;
        host_copies copies(host_threads);  // between staging and pageable host arrays

        // Each chunk's kernel runs between its two events; the kernel time is the union of
        // these intervals, so that a kernel waiting for the copies of an earlier chunk in
        // its slot does not count the wait.
        std::vector<cuda_event> kernel_starts(kept.slots.size());
        const auto refit = [&](std::size_t count) {
            kept.fit(device, chunk_size, rows, staging, count);
            kernel_starts.resize(std::max(kernel_starts.size(), kept.slots.size()));
        };
        kernel_intervals intervals;
        auto finish = [&](std::size_t index) {
            chunk_slot<T>& slot = *kept.slots[index];
            check_kernel(configuration, cudaStreamSynchronize(slot.stream.get()));
            intervals.add(kernel_starts[index].milliseconds_since(*kept.first_kernel_start),
                          slot.kernel_stop.milliseconds_since(*kept.first_kernel_start));
            if (!out.on_device) {
                for_each_result_field(
                    [&](const result_field&, auto& staged, auto* host) {
                        staged.finish_download(offset(host, slot.first), n, slot.count, copies);
                    },
                    slot, out.at);
                copies.run();
            }
            slot.busy = false;
            reporter.finished(slot.count);
        };
        // Queues a chunk as `plan` says, and after_kernel(stream, where the kernel wrote its
        // outputs) ahead of the copies out.
        std::size_t launches = 0;
        auto issue = [&](std::size_t index, std::size_t first, std::size_t count,
                         auto&& after_kernel) {
            chunk_slot<T>& slot = *kept.slots[index];
            const cudaStream_t stream = slot.stream.get();
            slot.first = first;
            slot.count = count;
            slot.busy = true;
            batch_arrays<T> arrays{};
            std::size_t input_stride = n, output_stride = n;
            if (inputs_in_place) {
                arrays.initial_states = offset(inputs.initial_states.data(), first);
                arrays.parameters = offset(inputs.parameters.data(), first);
            } else {
                slot.initial_states.upload(offset(inputs.initial_states.data(), first), n, count,
                                           stream, copies);
                slot.parameters.upload(offset(inputs.parameters.data(), first), n, count, stream,
                                       copies);
                copies.run();
                slot.initial_states.upload_staged(count, stream);
                slot.parameters.upload_staged(count, stream);
                arrays.initial_states = slot.initial_states.device();
                arrays.parameters = slot.parameters.device();
                input_stride = count;
            }
            if (out.on_device) {
                arrays.results = offset(out.at, first);
            } else {
                for_each_result_field(
                    [&](const result_field& f, auto& staged, auto*& device) {
                        if (!f.always_written) staged.mark_unrecorded(count, stream);
                        device = staged.device();
                    },
                    slot, arrays.results);
                output_stride = count;
            }
            task.n_trajectories = count;
            task.bind(arrays, input_stride, output_stride);
            // Balanced scheduling's work counter starts at 0, outside the kernel's interval.
            if (plan.schedule == cubie::scheduling::balanced)
                CUBIE_CUDA_CHECK(cudaMemsetAsync(slot.claimed.data(), 0, sizeof(unsigned), stream));
            if (launches == 0) kept.first_kernel_start->record(stream);
            kernel_starts[index].record(stream);
            with_kernel<Task>(plan.schedule, [&](auto kernel) {
                launch(kernel, static_cast<unsigned>(plan.blocks_for(count)), plan.threads, stream,
                       task, slot.claimed.data());
            });
            slot.kernel_stop.record(stream);
            check_kernel(configuration, cudaGetLastError());
            ++launches;
            after_kernel(stream, arrays.results);
            if (!out.on_device)
                for_each_result_field(
                    [&](const result_field&, auto& staged, auto* host) {
                        staged.start_download(offset(host, first), n, count, stream);
                    },
                    slot, out.at);
        };

        std::size_t next = 0;  // the slot the next chunk goes to: the one idle longest
        std::size_t first = part.first;
        const std::size_t end = part.first + part.count;
        std::vector<std::unique_ptr<chunk_slot<T>>>& slots = kept.slots;
        double lane_use = -1;
        if (measured > 0 && reporter.going) {
            // The sample, and its steps summed by warp ahead of its copies out, which go on
            // beside the chunks after it.
            issue(0, first, measured, [&](cudaStream_t stream, const result_pointers<T>& at) {
                lane_use = cubie::lane_use(sum_steps(at.accepted_steps, at.rejected_steps, measured,
                                                     plan.threads, stream, kept.steps->data(),
                                                     configuration));
            });
            report.started_until = first + measured;
            first += measured;
            next = 1;
            const auto slots_for = [&](std::size_t size) {
                return size < end - first ? chunks_in_flight : std::size_t{1};
            };
            if (!balances(lane_use)) {
                refit(std::max<std::size_t>(2, slots_for(chunk_size)));  // slot 0 is busy
            } else {
                // Larger chunks than the slots hold: refitted once slot 0 is done.
                finish(0);
                next = 0;
                if (reporter.going) {
                    plan = *balanced;
                    chunk_size = plan.chunk;
                    refit(slots_for(chunk_size));
                }
            }
        }
        for (; first < end && reporter.going; first += chunk_size) {
            chunk_slot<T>& slot = *slots[next];
            if (slot.busy) finish(next);
            if (!reporter.going) break;
            issue(next, first, std::min(chunk_size, end - first), [](cudaStream_t, const auto&) {});
            report.started_until = slot.first + slot.count;
            next = (next + 1) % slots.size();
        }
        // Chunks still in flight, oldest first; a cancelled solve keeps what they finished.
        for (std::size_t k = 0; k < slots.size(); ++k, next = (next + 1) % slots.size())
            if (slots[next]->busy) finish(next);
        report.kernel = plan.kernel;
        report.kernel.chunks = launches;
        report.kernel.lane_use = lane_use;
        report.kernel.milliseconds = intervals.covered();
        return report;
    }

    /// A schedule's kernel on one device: its block size, its report, and the blocks a
    /// chunk takes.
    struct launch_plan {
        cubie::scheduling schedule;
        int threads;
        int lanes;                    ///< per trajectory
        std::size_t resident_blocks;  ///< 0: a block_size asked for leaves none resident
        std::size_t chunk;            ///< trajectories of the chunks planned for
        kernel_report kernel;         ///< of such a chunk

        /// A persistent grid where balanced: as many blocks as the device holds at once,
        /// or the chunk needs.
        std::size_t blocks_for(std::size_t count) const {
            const std::size_t needed = (count * std::size_t(lanes) + threads - 1) / threads;
            return schedule == cubie::scheduling::balanced ? std::min(needed, resident_blocks)
                                                           : needed;
        }
        /// Trajectories the device integrates at once: a wave.
        std::size_t resident_trajectories() const {
            return resident_blocks * std::size_t(threads) / std::size_t(lanes);
        }
    };

    /// The kernel of `schedule` for chunks of `chunk` trajectories on the device of
    /// `properties`.
    template <class Task>
    launch_plan plan_launch(cubie::scheduling schedule, std::size_t chunk,
                            const cudaDeviceProp& properties,
                            const std::string& configuration) const {
        constexpr std::size_t shared = thread_shared_memory<Task>;
        const int threads = with_kernel<Task>(schedule, [&](auto kernel) {
            // Past 48 KB a kernel launches with more dynamic shared memory only where allowed.
            if constexpr (shared > 0)
                CUBIE_CUDA_CHECK(cudaFuncSetAttribute(
                    kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
            return threads_for(kernel, chunk * Task::lanes, properties, shared,
                               shared > 0 ? thread_shared_block : 0);
        });
        launch_plan plan{
            schedule, threads, Task::lanes, 0, chunk, with_kernel<Task>(schedule, [&](auto kernel) {
                return describe_kernel(kernel, configuration, threads, properties, shared);
            })};
        plan.resident_blocks = std::size_t(plan.kernel.blocks_per_multiprocessor) *
                               std::size_t(properties.multiProcessorCount);
        plan.kernel.scheduling = scheduling_name(schedule);
        plan.kernel.lanes_per_trajectory = Task::lanes;
        plan.kernel.blocks = plan.blocks_for(chunk);
        return plan;
    }

    /// Refuses a block_size asked for that leaves no block of the kernel resident.
    [[noreturn]] static void no_resident_block(int threads, const std::string& configuration) {
        invalid_setting("backends::cuda::block_size", threads,
                        "it leaves no block of the " + configuration +
                            " kernel resident on a multiprocessor: its threads need more "
                            "registers or shared memory than one holds");
    }

    /// The steps (batch/lane_use.hpp) of `count` trajectories just integrated on `stream` one
    /// per thread in blocks of `block` threads, from their step counters in device memory,
    /// summed on the stream (ahead of anything queued after) through `sum` in device memory;
    /// waits for that sum. A fault of their kernel is reported as its own.
    static warp_steps sum_steps(const std::uint32_t* accepted, const std::uint32_t* rejected,
                                std::size_t count, int block, cudaStream_t stream, warp_steps* sum,
                                const std::string& configuration) {
        const steps_of_warp of{accepted, rejected, count, std::size_t(block)};
        check_kernel(configuration, cudaMemsetAsync(sum, 0, sizeof(warp_steps), stream));
        constexpr int threads = 256;
        const auto blocks = static_cast<unsigned>((of.warps() + threads - 1) / threads);
        if (blocks > 0) detail::sum_warp_steps<<<blocks, threads, 0, stream>>>(of, sum);
        check_kernel(configuration, cudaGetLastError());
        warp_steps total;
        check_kernel(configuration,
                     cudaMemcpyAsync(&total, sum, sizeof total, cudaMemcpyDeviceToHost, stream));
        check_kernel(configuration, cudaStreamSynchronize(stream));
        return total;
    }

    /// use(kernel) with the kernel of the schedule (resolve_scheduling): balanced only
    /// for adaptive controllers, whose loop goes a pass at a time.
    template <class Task, class Use>
    static decltype(auto) with_kernel(cubie::scheduling s, Use&& use) {
        if constexpr (Task::controller::adaptive && Task::lanes == 1)
            if (s == cubie::scheduling::balanced)
                return use(balanced_kernel<Task, (Task::system_type::n_states >=
                                                  balanced_lockstep_states)>);
        if constexpr (Task::shared_values > 0)
            return use(dealt_out_kernel<Task>);
        else
            return use(trajectory_kernel<Task>);
    }

    /// Queues a chunk's kernel: one trajectory per thread, or a balanced one with the
    /// chunk's work counter.
    template <class Task>
    static void launch(void (*kernel)(Task), unsigned blocks, int threads, cudaStream_t stream,
                       const Task& task, unsigned*) {
        kernel<<<blocks, threads, thread_shared_memory<Task>, stream>>>(task);
    }
    template <class Task>
    static void launch(void (*kernel)(Task, unsigned*), unsigned blocks, int threads,
                       cudaStream_t stream, const Task& task, unsigned* claimed) {
        kernel<<<blocks, threads, thread_shared_memory<Task>, stream>>>(task, claimed);
    }

    /// The chunk's first trajectory in a [row][trajectory] array (none: null).
    template <class U>
    static U* offset(U* data, std::size_t first) {
        return data ? data + first : nullptr;
    }

    /// Every array's pointer moved on to column `first` (null stays null).
    template <class T>
    static result_pointers<T> offset(result_pointers<T> p, std::size_t first) {
        for_each_result_field([&](const result_field&, auto*& a) { a = offset(a, first); }, p);
        return p;
    }

    /// The block size: of those that keep as many threads resident as the occupancy API's
    /// (from four warps, one per scheduler of a multiprocessor, up to the API's), the one
    /// that leaves the fewest threads to the busiest multiprocessor when the chunk's blocks
    /// are dealt out evenly, the API's on a tie. A smaller block must gain more than 1%:
    /// where the last wave is no issue, small blocks ran a few percent slower (Tsit5 with
    /// fixed steps on Lorenz at 2^24, RK4 on Pleiades at 2^17). Where it is, they spread it:
    /// Lorenz 96 at 16 sites (80 registers, 2^17 trajectories) took blocks of 768, whose last
    /// 39 of 171 ran on 39 of 132 multiprocessors, 1.6 times the time of blocks of 256. No
    /// larger than each multiprocessor's share of the chunk: a small batch still spreads
    /// over the whole device.
    /// `shared`: the kernel's dynamic shared memory a block; `limit`: the most threads a
    /// block may hold, 0 for the device's.
    template <class Kernel>
    int threads_for(Kernel kernel, std::size_t chunk, const cudaDeviceProp& properties,
                    std::size_t shared, int limit) const {
        if (block_size > 0) return block_size;
        int min_grid = 0, largest = 0;
        CUBIE_CUDA_CHECK(
            cudaOccupancyMaxPotentialBlockSize(&min_grid, &largest, kernel, shared, limit));
        auto resident_threads = [&](int threads) {
            int blocks = 0;
            CUBIE_CUDA_CHECK(
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared));
            return blocks * threads;
        };
        const auto multiprocessors = static_cast<std::size_t>(properties.multiProcessorCount);
        auto busiest = [&](int threads) {
            const std::size_t blocks = (chunk + threads - 1) / static_cast<std::size_t>(threads);
            return double((blocks + multiprocessors - 1) / multiprocessors) * threads;
        };
        const int most = resident_threads(largest);
        int threads = largest;
        double least = busiest(largest);
        for (int t = largest - properties.warpSize; t >= 4 * properties.warpSize;
             t -= properties.warpSize)
            if (busiest(t) < 0.99 * least && resident_threads(t) >= most) {
                threads = t;
                least = busiest(t);
            }
        const std::size_t share = (chunk + multiprocessors - 1) / multiprocessors;
        const std::size_t warps = (share + properties.warpSize - 1) / properties.warpSize;
        return static_cast<int>(
            std::min<std::size_t>(static_cast<std::size_t>(threads), warps * properties.warpSize));
    }

    template <class Kernel>
    static kernel_report describe_kernel(Kernel kernel, const std::string& configuration,
                                         int threads, const cudaDeviceProp& properties,
                                         std::size_t shared) {
        cudaFuncAttributes attributes{};
        CUBIE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
        int resident = 0;
        CUBIE_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, threads, shared));
        kernel_report r;
        r.configuration = configuration;
        r.registers = attributes.numRegs;
        r.local_bytes = attributes.localSizeBytes;
        r.shared_bytes = attributes.sharedSizeBytes + shared;
        r.block_size = threads;
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
