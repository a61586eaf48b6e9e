#pragma once
// A batch_result as one HDF5 file: a dataset per array of result_arrays.hpp under the
// same names and shapes as the NPY files, each legend an attribute of its dataset, and
// the file's own attributes n_trajectories and backend:
//
//   with h5py.File("out.h5") as f:
//       saved = f["saved"][...]                   # [save][variable][trajectory]
//       names = list(f["saved"].attrs["variables"])
//       why = f["statuses"].attrs["status_names"][f["statuses"][...]]
//
// The inputs, where the result kept them, are the datasets initial_states and parameters
// (legends "states" and "parameters").
//
// Needs HDF5's C library: link cubie::hdf5.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cubie/batch/batch_result.hpp"
#include "cubie/io/hdf5_file.hpp"
#include "cubie/io/result_arrays.hpp"
#include "cubie/io/result_directory.hpp"

namespace cubie {
namespace detail {

/// The arrays of a result as the datasets of one HDF5 file.
class hdf5_result_file {
public:
    explicit hdf5_result_file(hdf5_file& file) : file_(file) {}

    template <class Array>
    void write(const Array& a) const {
        file_.write_dataset<typename Array::element_type>(a.name, a.data, a.shape);
        write_legends(a);
    }
    /// The attributes of an array's dataset that are its legends.
    template <class Array>
    void write_legends(const Array& a) const {
        if (a.legend) file_.write_strings_attribute(a.name, a.legend_attribute, *a.legend);
        if (a.code_legend) file_.write_strings_attribute(a.name, a.code_legend, status_legend());
    }
    /// Nothing to remove: the file is new.
    template <class Array>
    void remove(const Array&) const {}
    template <class Array>
    bool contains(const Array& a) const {
        return file_.contains(a.name);
    }
    template <class Array>
    std::vector<std::size_t> read(const Array& a) const {
        auto array = file_.read_dataset<typename Array::element_type>(a.name);
        a.data.assign(array.data.begin(), array.data.end());  // a std::vector or host_array
        if (a.legend) *a.legend = file_.read_strings_attribute(a.name, a.legend_attribute);
        if (a.code_legend && file_.read_strings_attribute(a.name, a.code_legend) != status_legend())
            throw std::runtime_error(describe(a) +
                                     ": the status codes are not this library's "
                                     "(core/status.hpp)");
        return std::move(array.shape);
    }
    template <class Array>
    std::string describe(const Array& a) const {
        return "dataset \"" + std::string(a.name) + "\" of " + file_.path().string();
    }

private:
    hdf5_file& file_;
};

}  // namespace detail

/// Writes r to an HDF5 file at path, replacing one that is there (its folder is created
/// where missing).
template <class T>
void write_result_hdf5(const batch_result<T>& r, const std::filesystem::path& path) {
    check_result_arrays(r);
    if (path.has_parent_path()) detail::make_result_directory(path.parent_path());
    hdf5_file file = hdf5_file::create(path);
    detail::hdf5_result_file datasets(file);
    write_result_arrays(r, datasets);
    file.write_number_attribute<std::uint64_t>("/", "n_trajectories", r.n_trajectories);
    file.write_string_attribute("/", "backend", r.backend);
    file.close();
}

/// Reads a result that write_result_hdf5 wrote (all but kernel, which the file does not
/// hold).
template <class T>
batch_result<T> read_result_hdf5(const std::filesystem::path& path) {
    hdf5_file file = hdf5_file::open(path);
    detail::hdf5_result_file datasets(file);
    batch_result<T> r = read_result_arrays<T>(datasets);
    const auto n = file.read_number_attribute<std::uint64_t>("/", "n_trajectories");
    if (n != r.n_trajectories)
        throw std::runtime_error(path.string() + ": n_trajectories is " + std::to_string(n) +
                                 " but statuses has " + std::to_string(r.n_trajectories));
    r.backend = file.read_string_attribute("/", "backend");
    return r;
}

}  // namespace cubie
