#pragma once
// A batch_result as a folder of .npy files, one per array of result_arrays.hpp
// (final_states.npy, statuses.npy, saved.npy, ...), and each legend as a '<U' string array
// of its own (state_names.npy, saved_variables.npy, ...):
//
//   saved = numpy.load("out/saved.npy")              # [save][variable][trajectory]
//   names = list(numpy.load("out/saved_variables.npy"))
//
// Statuses are the codes of cubie::status ('|u1'), named by status_names.npy:
//
//   why = numpy.load("out/status_names.npy")[numpy.load("out/statuses.npy")]
//
// Counters and step counts are '<u4'. The inputs, where the result kept them, are
// initial_states.npy and parameters.npy, named by state_names.npy and parameter_names.npy.

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cubie/batch/batch_result.hpp"
#include "cubie/io/npy.hpp"
#include "cubie/io/result_arrays.hpp"
#include "cubie/io/result_directory.hpp"

namespace cubie {
namespace detail {

/// The arrays of a result as the .npy files of one folder.
class npy_result_folder {
public:
    explicit npy_result_folder(std::filesystem::path directory)
        : directory_(std::move(directory)) {}

    template <class Array>
    void write(const Array& a) const {
        write_npy<typename Array::element_type>(file(a.name), a.data, a.shape);
        write_legends(a);
    }
    /// The files of an array's legends.
    template <class Array>
    void write_legends(const Array& a) const {
        if (a.legend) write_npy<std::string>(file(a.legend_file), *a.legend, {a.legend->size()});
        if (a.code_legend)
            write_npy<std::string>(file(a.code_legend), status_legend(), {status_legend().size()});
    }
    template <class Array>
    void remove(const Array& a) const {
        remove_stale_result_file(file(a.name));
        if (a.legend_file) remove_stale_result_file(file(a.legend_file));
    }
    template <class Array>
    bool contains(const Array& a) const {
        return std::filesystem::exists(file(a.name));
    }
    template <class Array>
    std::vector<std::size_t> read(const Array& a) const {
        auto array = read_npy<typename Array::element_type>(file(a.name));
        a.data.assign(array.data.begin(), array.data.end());  // a std::vector or host_array
        if (a.legend) {
            auto names = read_npy<std::string>(file(a.legend_file));
            if (names.shape.size() != 1)
                throw std::runtime_error(file(a.legend_file).string() + ": has shape " +
                                         shape_text(names.shape) + ", a legend is 1-D");
            *a.legend = std::move(names.data);
        }
        if (a.code_legend && read_npy<std::string>(file(a.code_legend)).data != status_legend())
            throw std::runtime_error(file(a.code_legend).string() +
                                     ": the status codes are not this library's (core/status.hpp)");
        return std::move(array.shape);
    }
    template <class Array>
    std::string describe(const Array& a) const {
        return file(a.name).string();
    }

    std::filesystem::path file(const char* stem) const {
        return directory_ / (std::string(stem) + ".npy");
    }

private:
    std::filesystem::path directory_;
};

}  // namespace detail

/// Writes r into the folder (created where missing) as .npy files.
template <class T>
void write_result_npy(const batch_result<T>& r, const std::filesystem::path& directory) {
    check_result_arrays(r);
    detail::make_result_directory(directory);
    detail::npy_result_folder folder(directory);
    write_result_arrays(r, folder);
}

/// Reads a result that write_result_npy wrote (all but backend and kernel, which the
/// folder does not hold).
template <class T>
batch_result<T> read_result_npy(const std::filesystem::path& directory) {
    detail::npy_result_folder folder(directory);
    return read_result_arrays<T>(folder);
}

}  // namespace cubie
