#pragma once
// solve_to_npy: a batch solved straight into a folder of .npy files, chunk by chunk in
// bounded host memory (streamed_solve.hpp), the files those write_result_npy writes of
// the whole result, byte for byte:
//
//   cubie::solve_to_npy(solver, inputs, settings, "out", {.host_memory_budget = 1 << 30});
//   saved = numpy.load("out/saved.npy", mmap_mode="r")   # [save][variable][trajectory]

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <type_traits>

#include "cubie/backends/automatic.hpp"
#include "cubie/backends/backend.hpp"
#include "cubie/core/status.hpp"
#include "cubie/io/npy_columns.hpp"
#include "cubie/io/npy_result.hpp"
#include "cubie/io/result_directory.hpp"
#include "cubie/io/streamed_solve.hpp"

namespace cubie {
namespace detail {

/// The arrays of a streamed result as the .npy files of one folder.
template <class T>
class npy_stream_folder {
public:
    /// Creates the folder where missing, and checks that a file can be written there.
    explicit npy_stream_folder(const std::filesystem::path& directory) : folder_(directory) {
        make_result_directory(directory);
        const std::filesystem::path probe = folder_.file("statuses");
        if (!std::ofstream(probe, std::ios::binary | std::ios::trunc))
            npy_fail(probe, "cannot open for writing");
    }

    template <class Array>
    void remove(const Array& a) const {
        folder_.remove(a);
    }
    template <class Array>
    void write(const Array& a) const {
        folder_.write(a);
    }
    template <class Array>
    void create(const Array& a) {
        using U = typename Array::element_type;
        files<U>()[a.name] = std::make_unique<npy_columns<U>>(folder_.file(a.name), a.shape);
        folder_.write_legends(a);
    }
    template <class Array>
    void write_columns(const Array& a, std::size_t first) {
        using U = typename Array::element_type;
        files<U>().at(a.name)->write_columns(a.data.data(), first, a.shape.back());
    }
    void finish(std::size_t, const std::string&) {
        for (auto& [name, file] : values_) file->close();
        for (auto& [name, file] : statuses_) file->close();
        for (auto& [name, file] : counts_) file->close();
    }

private:
    template <class U>
    using files_of = std::map<std::string, std::unique_ptr<npy_columns<U>>>;
    template <class U>
    files_of<U>& files() {
        if constexpr (std::is_same_v<U, status>)
            return statuses_;
        else if constexpr (std::is_same_v<U, std::uint32_t>)
            return counts_;
        else
            return values_;
    }

    npy_result_folder folder_;
    files_of<T> values_;
    files_of<status> statuses_;
    files_of<std::uint32_t> counts_;
};

}  // namespace detail

/// Solves the batch into .npy files in `directory` (created where missing), as
/// write_result_npy writes a result, holding at most stream.host_memory_budget bytes of
/// it in host memory. Inputs and settings are checked, the budget against one chunk and
/// the folder for writing, before any work.
template <class Solver, backend Backend = backends::automatic>
stream_report solve_to_npy(const Solver& solver,
                           const batch_inputs<typename Solver::value_type>& inputs,
                           const typename Solver::settings_type& settings,
                           const std::filesystem::path& directory, const stream_settings& stream,
                           Backend backend = {}) {
    return detail::solve_streamed(solver, inputs, settings, stream, backend, [&] {
        return detail::npy_stream_folder<typename Solver::value_type>(directory);
    });
}

}  // namespace cubie
