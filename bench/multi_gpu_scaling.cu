// Scaling of solve() over the GPUs of one host, end to end. The Lorenz sweep of
// lorenz_bench (float32, rho = linspace(0, 21, N)) with classical_rk4 at dt = 2^-10,
// t in [0, 1000 dt], solved on 1, 2, 4, ... devices in one process, in the runs --runs
// names:
//   final    final states only: into a fresh result each solve, and into one result
//            solved into again (page-locked by the library on its second solve), from
//            std::vector inputs (staged through page-locked memory by the library) and
//            from inputs in page-locked memory (read by the devices' copies in place)
//   saving   x, y, z saved every 10 steps (100 saves): into a fresh result each solve, and
//            into that result page-locked (cubie::backends::page_lock on each array, as the
//            library does itself on reuse up to a quarter of host memory)
//   filled   with saving: into a fresh result whose arrays are first filled from every
//            OpenMP thread, the fill timed with the solve (what the solver did before its
//            backends' copies took the first touch of a new result's pages)
//   stream   the saving run streamed into .npy files under --stream-dir (solve_to_npy, a
//            budget of an eighth of the result), against write_result_npy of the whole
//            result into the same folder (the file system's share of the time)
// For each: the kernel time (CUDA events; with several devices, the slowest device's), the
// solve() time (from std::vector inputs where not said), both fastest of --repeat (streams:
// one each),
// the speed-ups over one device, whether the result (or the files) equal the one-device
// ones bit for bit (64-bit digests of every array), and for page-locked saving the bound:
// the output bytes at the page-locked device-to-host bandwidth of those devices copying at
// once, measured in the same run.
//
//   multi_gpu_scaling [--log2n 24] [--repeat 3] [--runs final,saving,filled,stream]
//                     [--stream-dir /dev/shm/cubie-multi-gpu]

#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/backends/cuda.hpp"
#include "cubie/backends/page_lock.hpp"
#include "cubie/catalogue/lorenz.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/host_array.hpp"
#include "cubie/core/host_memory.hpp"
#include "cubie/core/pinned_buffer.hpp"
#include "cubie/core/scoped_device.hpp"
#include "cubie/io/npy_result.hpp"
#include "cubie/io/npy_stream.hpp"
#include "cubie/solver/solver.hpp"
#include "wall_clock.hpp"

namespace {

using lorenz = cubie::catalogue::lorenz<float>;
using final_solver = cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step>;
using saving_solver =
    cubie::solver<lorenz, cubie::classical_rk4, cubie::fixed_step, cubie::save_state>;
using settings_type = cubie::solve_settings<cubie::fixed_step>;
using result_type = cubie::batch_result<float>;
constexpr double dt = 1.0 / 1024;
constexpr double inf = std::numeric_limits<double>::infinity();

// Digests: equal bytes give equal digests; different bytes almost surely do not. Blocks of
// 64 MiB are digested over the OpenMP threads, then chained in order.
constexpr std::size_t digest_block = std::size_t{1} << 26;

std::uint64_t mix(std::uint64_t h, std::uint64_t word) {
    h ^= word * 0x9E3779B97F4A7C15ull;
    return ((h << 31) | (h >> 33)) * 0xBF58476D1CE4E5B9ull;
}

std::uint64_t digest_bytes(const unsigned char* data, std::size_t bytes) {
    std::uint64_t lane[4] = {bytes, 1, 2, 3};  // four chains for the multipliers' latency
    std::size_t at = 0;
    for (; at + 32 <= bytes; at += 32)
        for (int k = 0; k < 4; ++k) {
            std::uint64_t word;
            std::memcpy(&word, data + at + 8 * k, 8);
            lane[k] = mix(lane[k], word);
        }
    for (; at < bytes; ++at) lane[0] = mix(lane[0], data[at]);
    return mix(mix(mix(lane[0], lane[1]), lane[2]), lane[3]);
}

std::uint64_t chain(const std::vector<std::uint64_t>& blocks) {
    std::uint64_t h = blocks.size();
    for (const std::uint64_t b : blocks) h = mix(h, b);
    return h;
}

std::uint64_t digest_memory(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    const std::size_t n = (bytes + digest_block - 1) / digest_block;
    std::vector<std::uint64_t> blocks(n);
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < n; ++k)
        blocks[k] =
            digest_bytes(p + k * digest_block, std::min(digest_block, bytes - k * digest_block));
    return chain(blocks);
}

/// Every array of a result, chained.
std::uint64_t digest(const result_type& r) {
    std::vector<std::uint64_t> arrays;
    cubie::for_each_result_field(
        [&](const cubie::result_field&, const auto& a) {
            arrays.push_back(digest_memory(a.data(), a.size() * sizeof(a[0])));
        },
        r);
    return chain(arrays);
}

/// Each file of a folder by name, read in blocks over the OpenMP threads.
std::map<std::string, std::uint64_t> digest_folder(const std::filesystem::path& folder) {
    std::map<std::string, std::uint64_t> digests;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const int fd = ::open(entry.path().c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw std::runtime_error("cannot read " + entry.path().string());
        const std::size_t bytes = std::filesystem::file_size(entry.path());
        const std::size_t n = (bytes + digest_block - 1) / digest_block;
        std::vector<std::uint64_t> blocks(n);
        bool failed = false;
#pragma omp parallel
        {
            std::vector<unsigned char> buffer(digest_block);
#pragma omp for schedule(static)
            for (std::size_t k = 0; k < n; ++k) {
                const std::size_t size = std::min(digest_block, bytes - k * digest_block);
                std::size_t got = 0;
                while (got < size) {
                    const ssize_t r = ::pread(fd, buffer.data() + got, size - got,
                                              static_cast<off_t>(k * digest_block + got));
                    if (r <= 0) break;
                    got += static_cast<std::size_t>(r);
                }
                if (got != size) {
#pragma omp atomic write
                    failed = true;
                }
                blocks[k] = digest_bytes(buffer.data(), size);
            }
        }
        ::close(fd);
        if (failed) throw std::runtime_error("short read of " + entry.path().string());
        digests[entry.path().filename().string()] = chain(blocks);
    }
    return digests;
}

/// Page-locked device-to-host bandwidth of `devices` copying at once, bytes per ms: each
/// copies 1 GiB into a page-locked buffer of its own from a thread of its own; fastest of
/// 5 after a warm-up.
double device_to_host_bandwidth(const std::vector<int>& devices) {
    const std::size_t bytes = std::size_t{1} << 30;
    std::vector<cubie::device_buffer<char>> from;
    std::vector<cubie::pinned_buffer<char>> to;
    for (const int d : devices) {
        const cubie::scoped_device on(d);
        from.emplace_back(bytes);
        CUBIE_CUDA_CHECK(cudaMemset(from.back().data(), 1, bytes));
        to.emplace_back(bytes);
    }
    double fastest = inf;
    for (int r = 0; r <= 5; ++r) {
        std::vector<cudaError_t> errors(devices.size(), cudaSuccess);
        const double start = bench::now_ms();
        std::vector<std::thread> threads;
        for (std::size_t k = 0; k < devices.size(); ++k)
            threads.emplace_back([&, k] {
                errors[k] = cudaSetDevice(devices[k]);
                if (errors[k] == cudaSuccess)
                    errors[k] =
                        cudaMemcpy(to[k].data(), from[k].data(), bytes, cudaMemcpyDeviceToHost);
            });
        for (std::thread& t : threads) t.join();
        const double ms = bench::now_ms() - start;
        for (const cudaError_t e : errors) CUBIE_CUDA_CHECK(e);
        if (r > 0) fastest = std::min(fastest, ms);
    }
    return double(bytes) * double(devices.size()) / fastest;
}

struct timing {
    double solve_ms = inf, kernel_ms = inf;
    std::size_t chunks = 0;
    std::uint64_t digest = 0;
};

void take(timing& t, double ms, const result_type& r) {
    if (r.failures() != 0) throw std::runtime_error("trajectories failed");
    t.solve_ms = std::min(t.solve_ms, ms);
    t.kernel_ms = std::min(t.kernel_ms, double(r.kernel->milliseconds));
    t.chunks = r.kernel->chunks;
}

/// Where each timed solve writes.
enum class into {
    fresh,   ///< a new result (the previous one freed first), left in r
    filled,  ///< a new result beside r whose arrays, sized as r's, are first filled from
             ///< every OpenMP thread, as the solver did before a backend that writes every
             ///< output took the first touch of each page; allocation and fill timed
    reused,  ///< r, solved into before
};

/// Fastest of `repeat` solves.
template <class Solver>
timing measure(const Solver& solver, const cubie::batch_inputs<float>& inputs,
               const settings_type& settings, const cubie::backends::cuda& backend, int repeat,
               into where, result_type& r) {
    timing t;
    for (int k = 0; k < repeat; ++k) {
        if (where == into::fresh) r = {};  // its memory goes back before the next is allocated
        result_type beside;
        result_type& target = where == into::filled ? beside : r;
        const double start = bench::now_ms();
        if (where == into::filled)
            cubie::for_each_result_field(
                [](const cubie::result_field&, const auto& from, auto& to) {
                    to.resize(from.size());  // untouched: host_array initialises nothing
                    cubie::fill_in_parallel(to, typename std::decay_t<decltype(to)>::value_type{});
                },
                r, beside);
        solver.solve(inputs, settings, target, backend);
        take(t, bench::now_ms() - start, target);
        if (k + 1 == repeat) t.digest = digest(target);
    }
    return t;
}

struct row {
    std::string run;
    std::size_t devices;
    timing t;
    double bound_ms;  ///< NaN: none
};

void print(const row& r, const timing& one_device, std::uint64_t reference) {
    std::printf("%-15s %7zu %7zu %10.2f %10.1f %9.2f %9.2f %10.1f %9s\n", r.run.c_str(), r.devices,
                r.t.chunks, r.t.kernel_ms, r.t.solve_ms, one_device.kernel_ms / r.t.kernel_ms,
                one_device.solve_ms / r.t.solve_ms, r.bound_ms,
                r.t.digest == reference ? "yes" : "NO");
    std::fflush(stdout);
}

std::vector<std::string> known_runs() {
    return {"final", "saving", "filled", "stream"};
}

}  // namespace

int main(int argc, char** argv) {
    int log2n = 24, repeat = 3;
    std::vector<std::string> runs = {"final", "saving"};
    std::filesystem::path stream_directory = "/dev/shm/cubie-multi-gpu";
    if (!bench::parse_flags(
            argc, argv,
            {{"--log2n", [&](const std::string& v) { log2n = std::stoi(v); }},
             {"--repeat", [&](const std::string& v) { repeat = std::max(1, std::stoi(v)); }},
             {"--runs",
              [&](const std::string& v) {
                  runs = bench::parse_names(v);
                  for (const std::string& name : runs)
                      if (std::find(known_runs().begin(), known_runs().end(), name) ==
                          known_runs().end())
                          throw std::invalid_argument("no run called " + name);
              }},
             {"--stream-dir", [&](const std::string& v) { stream_directory = v; }}},
            "usage: multi_gpu_scaling [--log2n 24] [--repeat 3] [--runs "
            "final,saving,filled,stream] "
            "[--stream-dir /dev/shm/cubie-multi-gpu]"))
        return 2;
    const auto wanted = [&](const char* name) {
        return std::find(runs.begin(), runs.end(), name) != runs.end();
    };
    try {
        const std::vector<int> all = cubie::backends::cuda::all_devices();
        cudaDeviceProp p{};
        CUBIE_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
        const char* commit = std::getenv("CUBIE_COMMIT");
        const std::size_t n = std::size_t{1} << log2n;
        std::printf(
            "%zu x %s, %d SMs each; %u host threads (%d OpenMP), %.0f GiB host memory; commit "
            "%s\n",
            all.size(), p.name, p.multiProcessorCount, std::thread::hardware_concurrency(),
            omp_get_max_threads(), cubie::host_memory_bytes() / double(1 << 30),
            commit ? commit : "unknown");

        std::vector<float> y0(3 * n, 0.0f), rho(n);
        std::fill_n(y0.begin(), n, 1.0f);
        for (std::size_t i = 0; i < n; ++i) rho[i] = float(21.0 * double(i) / double(n - 1));
        const cubie::batch_inputs<float> inputs{n, y0, rho};
        settings_type final_settings;
        final_settings.dt = dt;
        final_settings.t_end = 1000 * dt;
        settings_type saving_settings = final_settings;
        saving_settings.save_every = 10 * dt;
        const auto plan = saving_solver{}.plan(saving_settings);
        const double saved_bytes = double(plan.saved_per_trajectory()) * double(n) * sizeof(float);
        std::printf(
            "Lorenz float32, N = 2^%d, classical_rk4 dt = 2^-10, t in [0, 1000 dt]; saving: %zu "
            "saves of x, y, z (%.1f GB of results); fastest of %d (streams: one each)\n",
            log2n, plan.save_times.size(), plan.result_bytes(n) / 1e9, repeat);

        std::vector<std::vector<int>> counts;  // the devices of each row: 1, 2, 4, ...
        for (std::size_t count = 1; count <= all.size(); count *= 2)
            counts.emplace_back(all.begin(), all.begin() + long(count));
        std::vector<double> bandwidth;
        for (const std::vector<int>& devices : counts) {
            bandwidth.push_back(device_to_host_bandwidth(devices));
            std::printf("page-locked device-to-host copy, %zu devices at once: %.1f GB/s\n",
                        devices.size(), bandwidth.back() / 1e6);
        }
        // Modules loaded and contexts made on every device before anything is timed.
        {
            const std::size_t small = std::min<std::size_t>(n, 1 << 16);
            std::vector<float> y(3 * small, 0.0f), r(small, 1.0f);
            std::fill_n(y.begin(), small, 1.0f);
            for (const std::vector<int>& devices : counts) {
                const cubie::backends::cuda backend{.devices = devices};
                static_cast<void>(final_solver{}.solve({small, y, r}, final_settings, backend));
                static_cast<void>(saving_solver{}.solve({small, y, r}, saving_settings, backend));
            }
        }

        std::printf("\n%-15s %7s %7s %10s %10s %9s %9s %10s %9s\n", "run", "devices", "chunks",
                    "kernel ms", "solve ms", "kernel x", "solve x", "bound ms", "same bits");
        const double nan = std::numeric_limits<double>::quiet_NaN();

        if (wanted("final")) {
            // The same inputs in page-locked memory, as a program that solves from them
            // again and again would hold them.
            cubie::pinned_buffer<float> locked_y0(y0.size()), locked_rho(rho.size());
            std::copy(y0.begin(), y0.end(), locked_y0.data());
            std::copy(rho.begin(), rho.end(), locked_rho.data());
            const cubie::batch_inputs<float> locked_inputs{
                n, {locked_y0.data(), locked_y0.size()}, {locked_rho.data(), locked_rho.size()}};
            timing one_fresh, one_reused, one_locked;
            for (std::size_t c = 0; c < counts.size(); ++c) {
                const cubie::backends::cuda backend{.devices = counts[c]};
                result_type r;
                const timing f = measure(final_solver{}, inputs, final_settings, backend, repeat,
                                         into::fresh, r);
                final_solver{}.solve(inputs, final_settings, r, backend);  // page-locks r
                const timing u = measure(final_solver{}, inputs, final_settings, backend, repeat,
                                         into::reused, r);
                const timing l = measure(final_solver{}, locked_inputs, final_settings, backend,
                                         repeat, into::reused, r);
                if (c == 0) {
                    one_fresh = f;
                    one_reused = u;
                    one_locked = l;
                }
                print({"final fresh", counts[c].size(), f, nan}, one_fresh, one_fresh.digest);
                print({"final reused", counts[c].size(), u, nan}, one_reused, one_fresh.digest);
                print({"final locked in", counts[c].size(), l, nan}, one_locked, one_fresh.digest);
            }
        }

        result_type kept;  // the one-device saving result, page-locked, for the stream run
        if (wanted("saving")) {
            {
                const double start = bench::now_ms();
                cubie::host_array<float> host(std::size_t(plan.result_bytes(n) / sizeof(float)));
                cubie::fill_in_parallel(host, std::numeric_limits<float>::quiet_NaN());
                std::printf(
                    "(allocating host arrays of the saving result's size and filling them from "
                    "every OpenMP thread: %.1f ms)\n",
                    bench::now_ms() - start);
            }
            timing one_fresh, one_filled, one_locked;
            for (std::size_t c = 0; c < counts.size(); ++c) {
                const cubie::backends::cuda backend{.devices = counts[c]};
                result_type r;
                const timing f = measure(saving_solver{}, inputs, saving_settings, backend, repeat,
                                         into::fresh, r);
                if (c == 0) one_fresh = f;
                print({"saving fresh", counts[c].size(), f, nan}, one_fresh, one_fresh.digest);
                if (wanted("filled")) {  // a second result beside r: twice the memory
                    const timing fl = measure(saving_solver{}, inputs, saving_settings, backend,
                                              repeat, into::filled, r);
                    if (c == 0) one_filled = fl;
                    print({"saving filled", counts[c].size(), fl, nan}, one_filled,
                          one_fresh.digest);
                }
                const double start = bench::now_ms();
                bool locked = true;
                cubie::for_each_result_field(
                    [&](const cubie::result_field&, auto& a) {
                        locked = cubie::backends::page_lock(a) && locked;
                    },
                    r);
                const double lock_ms = bench::now_ms() - start;
                const timing l = measure(saving_solver{}, inputs, saving_settings, backend, repeat,
                                         into::reused, r);
                if (c == 0) one_locked = l;
                // Where the driver refuses to lock, the result is solved into pageable.
                print({locked ? "saving locked" : "saving pageable", counts[c].size(), l,
                       locked ? saved_bytes / bandwidth[c] : nan},
                      one_locked, one_fresh.digest);
                std::printf("(page-locking the result's arrays: %.1f ms%s)\n", lock_ms,
                            locked ? "" : ", refused by the driver");
                if (c == 0 && wanted("stream")) kept = std::move(r);
            }
        }

        if (wanted("stream")) {
            const std::filesystem::path whole = stream_directory / "whole";
            std::filesystem::remove_all(stream_directory);
            std::map<std::string, std::uint64_t> reference;
            if (!kept.saved.empty()) {
                const double start = bench::now_ms();
                cubie::write_result_npy(kept, whole);
                std::printf("(write_result_npy of the one-device saving result into %s: %.1f ms)\n",
                            whole.c_str(), bench::now_ms() - start);
                kept = {};
                reference = digest_folder(whole);
                std::filesystem::remove_all(whole);
            }
            const auto budget = static_cast<std::size_t>(
                saving_solver{}.plan(inputs, saving_settings).result_bytes(n) / 8);
            timing one_device;
            for (std::size_t c = 0; c < counts.size(); ++c) {
                const cubie::backends::cuda backend{.devices = counts[c]};
                const std::filesystem::path folder =
                    stream_directory / ("devices" + std::to_string(counts[c].size()));
                const double start = bench::now_ms();
                const cubie::stream_report report = cubie::solve_to_npy(
                    saving_solver{}, inputs, saving_settings, folder, {budget, false}, backend);
                timing t;
                t.solve_ms = bench::now_ms() - start;
                t.kernel_ms = nan;
                t.chunks = report.chunks;
                const std::map<std::string, std::uint64_t> files = digest_folder(folder);
                std::filesystem::remove_all(folder);
                if (reference.empty()) reference = files;
                std::uint64_t digests = 0;
                for (const auto& [name, d] : files) digests = mix(digests, d);
                t.digest = digests;
                std::uint64_t expected = 0;
                for (const auto& [name, d] : reference) expected = mix(expected, d);
                if (c == 0) one_device = t;
                print({"stream npy", counts[c].size(), t, nan}, one_device, expected);
            }
            std::printf("(streams: %s, a budget of %.1f MB; chunks = streamed chunks)\n",
                        stream_directory.c_str(), double(budget) / 1e6);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "multi_gpu_scaling: %s\n", e.what());
        return 1;
    }
    return 0;
}
