#pragma once
// How a solve proceeds, beside what it computes: the chunks its trajectories are solved
// in, and a progress callback that may cancel the rest.
//
//   cubie::solve_control control;
//   control.progress = [](const cubie::solve_progress& p) {
//       std::printf("%zu of %zu, %.0f s left\n", p.done, p.total, p.seconds_left());
//       return true;   // false: cancel
//   };
//   auto result = solver.solve(inputs, settings, cubie::backends::cuda{}, control);
//
// Chunks change nothing in the results: every trajectory is integrated by the same code
// from the same inputs. On the cuda backend, the copies of one chunk overlap the kernels
// of others (a stream per chunk in flight, page-locked staging), and a large batch goes in chunks
// even when none are asked for (backends::cuda::pipeline_chunks). Trajectories a cancelled solve
// never started end with status::cancelled and NaN outputs.

#include <cstddef>
#include <functional>
#include <limits>

namespace cubie {

struct solve_progress {
    std::size_t done = 0;  ///< trajectories finished
    std::size_t total = 0;
    std::size_t chunks_done = 0;
    /// The launches planned, or those done where more were made: the cuda backend's
    /// automatic scheduling measures a first chunk apart on each device, and may then go on
    /// in smaller chunks than planned.
    std::size_t chunks = 0;
    double elapsed_seconds = 0;

    /// Trajectories per second so far.
    double rate() const { return elapsed_seconds > 0 ? double(done) / elapsed_seconds : 0; }
    /// At the rate so far.
    double seconds_left() const {
        return done > 0 ? elapsed_seconds * double(total - done) / double(done)
                        : std::numeric_limits<double>::infinity();
    }
};

struct solve_control {
    /// Trajectories per chunk, at most. 0: the whole batch, as far as the backend allows
    /// (backends::cuda: memory_fraction of the device's free memory, and pipeline_chunks),
    /// in about 100 chunks when progress is reported.
    std::size_t chunk_trajectories = 0;
    /// Called after every chunk, one call at a time: on the calling thread, or on the
    /// devices' threads when backends::cuda solves on several. Returning false cancels the
    /// chunks not yet started (those already in flight on a device finish and are kept).
    std::function<bool(const solve_progress&)> progress;
};

}  // namespace cubie
