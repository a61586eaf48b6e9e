#pragma once
// solve_to_hdf5: a batch solved straight into an HDF5 file, chunk by chunk in bounded host
// memory (streamed_solve.hpp); its datasets and attributes are those write_result_hdf5
// writes of the whole result, the datasets' values byte for byte:
//
//   cubie::solve_to_hdf5(solver, inputs, settings, "out.h5", {.host_memory_budget = 1 << 30});
//
// Needs HDF5's C library: link cubie::hdf5.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "cubie/backends/automatic.hpp"
#include "cubie/backends/backend.hpp"
#include "cubie/io/hdf5_file.hpp"
#include "cubie/io/hdf5_result.hpp"
#include "cubie/io/result_directory.hpp"
#include "cubie/io/streamed_solve.hpp"

namespace cubie {
namespace detail {

/// The arrays of a streamed result as the datasets of one HDF5 file.
class hdf5_stream_file {
public:
    /// Creates the file (and its folder where missing), replacing one that is there.
    explicit hdf5_stream_file(const std::filesystem::path& path)
        : file_(create(path)), datasets_(file_) {}

    template <class Array>
    void remove(const Array& a) const {
        datasets_.remove(a);
    }
    template <class Array>
    void write(const Array& a) const {
        datasets_.write(a);
    }
    template <class Array>
    void create(const Array& a) {
        file_.create_dataset<typename Array::element_type>(a.name, a.shape);
        datasets_.write_legends(a);
    }
    template <class Array>
    void write_columns(const Array& a, std::size_t first) {
        file_.write_columns<typename Array::element_type>(a.name, a.data, a.shape, first);
    }
    void finish(std::size_t n, const std::string& backend) {
        file_.write_number_attribute<std::uint64_t>("/", "n_trajectories", n);
        file_.write_string_attribute("/", "backend", backend);
        file_.close();
    }

private:
    static hdf5_file create(const std::filesystem::path& path) {
        if (path.has_parent_path()) make_result_directory(path.parent_path());
        return hdf5_file::create(path);
    }

    hdf5_file file_;
    hdf5_result_file datasets_;
};

}  // namespace detail

/// Solves the batch into an HDF5 file at `path`, as write_result_hdf5 writes a result,
/// holding at most stream.host_memory_budget bytes of it in host memory. Inputs and
/// settings are checked, the budget against one chunk and the file created, before any
/// work.
template <class Solver, backend Backend = backends::automatic>
stream_report solve_to_hdf5(const Solver& solver,
                            const batch_inputs<typename Solver::value_type>& inputs,
                            const typename Solver::settings_type& settings,
                            const std::filesystem::path& path, const stream_settings& stream,
                            Backend backend = {}) {
    return detail::solve_streamed(solver, inputs, settings, stream, backend,
                                  [&] { return detail::hdf5_stream_file(path); });
}

}  // namespace cubie
