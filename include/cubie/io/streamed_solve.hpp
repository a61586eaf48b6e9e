#pragma once
// A solve whose outputs go to result files chunk by chunk, in bounded host memory, for
// results larger than the host's memory (or than a program should hold of them). The
// batch is solved a chunk of trajectories at a time into one of two chunk-sized results
// while the previous chunk is written, on a thread of its own, into its columns of every
// array; the files then hold what writing the whole result would have written, byte for
// byte (solve_to_npy, npy_stream.hpp; solve_to_hdf5, hdf5_stream.hpp).
//
// The host memory it takes, which stream_settings::host_memory_budget bounds: two chunk
// results and the chunk's inputs (gathered from the caller's). With the cuda backend, both
// are page-locked from their first solve on (up to a quarter of host memory), so that the
// device copies straight into and out of them, beside the kernels, with no staging.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <future>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubie/batch/batch_inputs.hpp"
#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/result_fields.hpp"
#include "cubie/core/host_array.hpp"
#include "cubie/io/result_arrays.hpp"
#include "cubie/systems/variable_names.hpp"
#if defined(__CUDACC__)
#include "cubie/backends/chunk_slot.hpp"
#include "cubie/backends/page_lock.hpp"
#endif

namespace cubie {

struct stream_settings {
    /// Bytes of host memory the solve's outputs may take (see above); required.
    std::size_t host_memory_budget = 0;
    /// Writes the inputs (initial_states, parameters) as a result after keep_inputs has them.
    bool keep_inputs = false;
};

/// How a streamed solve went through its batch.
struct stream_report {
    std::size_t chunk_trajectories = 0;  ///< trajectories per chunk (the last may have fewer)
    std::size_t chunks = 0;
    double host_bytes = 0;  ///< what its chunks take of the budget
};

namespace detail {

/// Whether an array of result_arrays.hpp is one of result_fields.hpp (per trajectory,
/// written in columns), rather than a legend's or an input's.
inline bool streamed_in_columns(const std::string& name) {
    bool found = false;
    for_each_result_field([&](const result_field& f) { found = found || name == f.name; });
    return found;
}

/// The trajectories per chunk that the budget holds, after the solver has checked the
/// inputs and settings; throws std::invalid_argument, before any work, when it holds none.
template <class Solver>
stream_report plan_stream(const Solver& solver, const batch_inputs<typename Solver::value_type>& in,
                          const typename Solver::settings_type& settings,
                          const stream_settings& stream) {
    using T = typename Solver::value_type;
    using System = typename Solver::system_type;
    const auto plan = solver.plan(in, settings);
    const double inputs = double(System::n_states + System::n_parameters) * sizeof(T);
    const double per_trajectory = 2 * plan.result_bytes(1) + inputs;
    const double fits = std::floor(double(stream.host_memory_budget) / per_trajectory);
    if (fits < 1)
        throw std::invalid_argument(
            "stream_settings::host_memory_budget = " + std::to_string(stream.host_memory_budget) +
            " bytes holds no chunk: one trajectory takes " +
            std::to_string(static_cast<std::size_t>(std::ceil(per_trajectory))) +
            " (two results in flight and its inputs)");
    stream_report report;
    report.chunk_trajectories = static_cast<std::size_t>(std::min(fits, double(in.n_trajectories)));
    report.chunk_trajectories = std::max<std::size_t>(report.chunk_trajectories, 1);
    report.chunks = (in.n_trajectories + report.chunk_trajectories - 1) / report.chunk_trajectories;
    report.host_bytes = double(report.chunk_trajectories) * per_trajectory;
    return report;
}

/// Rows [0, rows) of columns [first, first + count) of a [row][n] array, packed.
template <class T>
void gather_columns(std::span<const T> from, std::size_t n, std::size_t first, std::size_t count,
                    host_array<T>& to) {
    const std::size_t rows = n > 0 ? from.size() / n : 0;
    to.resize(rows * count);
    for (std::size_t r = 0; r < rows; ++r)
        std::copy_n(from.data() + r * n + first, count, to.data() + r * count);
}

// Where the cuda backend may solve, the arrays the device copies into and out of are
// page-locked from the start, as they are reused for every chunk (the inputs' arrays once
// sized by the first chunk, the largest). Nothing to do for the host backend.
template <class T>
void lock_from_first_solve([[maybe_unused]] batch_result<T>& result) {
#if defined(__CUDACC__)
    result.workspace.template get<backends::cuda_workspace<T>>()
        .page_locking.lock_from_first_solve();
#endif
}
template <class T>
void lock_inputs([[maybe_unused]] host_array<T>& inputs) {
#if defined(__CUDACC__)
    static_cast<void>(backends::page_lock(inputs));  // else staged, as any pageable input
#endif
}

/// The arrays of a streamed result, with their shapes for n trajectories, as sink.create
/// (columns to come), sink.write (whole: times, inputs) and sink.remove (not held) take
/// them, in the order write_result_arrays goes; `chunk` is the first chunk's result, which
/// says what the result holds. Kept inputs are named by `parameter_names`.
template <class T, class Sink>
void begin_stream(Sink& sink, const batch_result<T>& chunk, std::size_t n,
                  const batch_inputs<T>& inputs, bool keep_inputs,
                  std::vector<std::string> parameter_names) {
    batch_result<T> whole;
    static_cast<result_legend<T>&>(whole) = chunk;
    whole.n_trajectories = n;
    if (keep_inputs) whole.parameter_names = std::move(parameter_names);
    std::vector<bool> held;  // as in a result after keep_inputs where the inputs are kept
    for_each_result_array(chunk, [&](const auto& a) {
        const std::string name = a.name;
        if (name == "initial_states")
            held.push_back(keep_inputs && !inputs.initial_states.empty());
        else if (name == "parameters")
            held.push_back(!whole.parameter_names.empty());
        else
            held.push_back(a.present);
    });
    const batch_result<T>& legends = whole;
    std::size_t k = 0;
    for_each_result_array(legends, [&](const auto& a) {
        if (!held[k++]) sink.remove(a);
    });
    k = 0;
    for_each_result_array(legends, [&](const auto& a) {
        if (!held[k++]) return;
        const std::string name = a.name;
        if (streamed_in_columns(name)) {
            sink.create(a);
        } else if (name == "initial_states" || name == "parameters") {
            const std::span<const T> values =
                name == "parameters" ? inputs.parameters : inputs.initial_states;
            sink.write(result_array<const std::span<const T>, const std::vector<std::string>>{
                a.name, values, a.shape, a.required, true, a.legend, a.legend_file,
                a.legend_attribute});
        } else {
            sink.write(a);
        }
    });
}

/// Solves the batch chunk by chunk (report.chunk_trajectories at a time) into two results
/// in turn, each written by sink.write_columns(array, first) on a thread of its own while
/// the next chunk is solved; sink.finish(n, backend) once all are written.
template <class Solver, class Sink, class Backend>
void stream_chunks(const Solver& solver, const batch_inputs<typename Solver::value_type>& inputs,
                   const typename Solver::settings_type& settings, const stream_report& report,
                   const stream_settings& stream, Sink& sink, const Backend& backend) {
    using T = typename Solver::value_type;
    using System = typename Solver::system_type;
    const std::size_t n = inputs.n_trajectories, chunk = report.chunk_trajectories;
    host_array<T> y, p;
    batch_result<T> results[2];
    for (batch_result<T>& r : results) lock_from_first_solve(r);
    std::future<void> writing;  // the previous chunk's; declared after results: ends first
    std::size_t first = 0, k = 0;
    do {
        const std::size_t count = std::min(chunk, n - first);
        gather_columns(inputs.initial_states, n, first, count, y);
        gather_columns(inputs.parameters, n, first, count, p);
        if (k == 0) {
            lock_inputs(y);
            lock_inputs(p);
        }
        batch_result<T>& r = results[k % 2];
        solver.solve({count, y, p, inputs.drivers}, settings, r, backend);
        if (writing.valid()) writing.get();  // rethrows what writing it threw
        if (k == 0) begin_stream(sink, r, n, inputs, stream.keep_inputs, parameter_names<System>());
        writing = std::async(std::launch::async, [&sink, &r, first] {
            for_each_result_array(r, [&](const auto& a) {
                if (a.present && streamed_in_columns(a.name)) sink.write_columns(a, first);
            });
        });
        first += count;
        ++k;
    } while (first < n);
    writing.get();
    sink.finish(n, results[(k - 1) % 2].backend);
}

/// Checks inputs, settings and budget, opens the sink (open_sink(), which checks its path)
/// and streams the solve into it: all that can be refused is, before any work.
template <class Solver, class OpenSink, class Backend>
stream_report solve_streamed(const Solver& solver,
                             const batch_inputs<typename Solver::value_type>& inputs,
                             const typename Solver::settings_type& settings,
                             const stream_settings& stream, const Backend& backend,
                             OpenSink&& open_sink) {
    const stream_report report = plan_stream(solver, inputs, settings, stream);
    auto sink = open_sink();
    stream_chunks(solver, inputs, settings, report, stream, sink, backend);
    return report;
}

}  // namespace detail
}  // namespace cubie
