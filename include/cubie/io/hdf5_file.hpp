#pragma once
// An HDF5 file through HDF5's C library: datasets of numbers with their shape, and
// attributes (strings, string arrays, numbers) on datasets or on the file ("/").
//
//   hdf5_file file = hdf5_file::create(path);
//   file.write_dataset<double>("saved", values, {n_saves, n_variables, n_trajectories});
//   file.write_strings_attribute("saved", "variables", names);
//   file.close();  // throws if the file could not be completed
//
// Numbers are stored little-endian (IEEE floats, fixed-width integers), and strings as
// variable-length UTF-8, which h5py reads as str. Every HDF5 call is checked: a failure
// throws std::runtime_error naming the call, the object and the file, with HDF5's own
// description of the cause. HDF5's printing of errors to stderr is off while a call runs.
//
// Needs HDF5's C library: link cubie::hdf5.

#include <hdf5.h>

#include <bit>
#include <concepts>
#include <cstddef>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cubie/io/shaped_array.hpp"

namespace cubie {
namespace detail {

/// HDF5's description of the innermost error of the current error stack.
inline std::string hdf5_error_cause() {
    std::string cause;
    const auto innermost = [](unsigned n, const H5E_error2_t* error, void* out) -> herr_t {
        if (n == 0 && error->desc) *static_cast<std::string*>(out) = error->desc;
        return 0;
    };
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &cause);
    return cause;
}

/// A negative result is an HDF5 failure: throws, naming the call and what it was for.
template <class Result>
Result hdf5_check(Result result, const char* call, const std::string& what) {
    if (result < 0) {
        const std::string cause = hdf5_error_cause();
        throw std::runtime_error("HDF5: " + std::string(call) + " failed for " + what +
                                 (cause.empty() ? "" : ": " + cause));
    }
    return result;
}

/// Stops HDF5 printing its error stack while it lives: failures become exceptions.
class hdf5_silence {
public:
    hdf5_silence() {
        H5Eget_auto2(H5E_DEFAULT, &print_, &data_);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    }
    ~hdf5_silence() { H5Eset_auto2(H5E_DEFAULT, print_, data_); }
    hdf5_silence(const hdf5_silence&) = delete;
    hdf5_silence& operator=(const hdf5_silence&) = delete;

private:
    H5E_auto2_t print_ = nullptr;
    void* data_ = nullptr;
};

/// Owns an HDF5 identifier and closes it with Close.
template <herr_t (*Close)(hid_t)>
class hdf5_handle {
public:
    explicit hdf5_handle(hid_t id) : id_(id) {}
    hdf5_handle(hdf5_handle&& other) noexcept : id_(std::exchange(other.id_, -1)) {}
    hdf5_handle& operator=(hdf5_handle&& other) noexcept {
        if (this != &other) {
            close();
            id_ = std::exchange(other.id_, -1);
        }
        return *this;
    }
    ~hdf5_handle() { close(); }

    hid_t get() const { return id_; }
    /// Closes now; what the closing returned (negative on failure, 0 when already closed).
    herr_t close() { return id_ >= 0 ? Close(std::exchange(id_, -1)) : 0; }

private:
    hid_t id_;
};

using hdf5_file_handle = hdf5_handle<H5Fclose>;
using hdf5_dataset = hdf5_handle<H5Dclose>;
using hdf5_dataspace = hdf5_handle<H5Sclose>;
using hdf5_attribute = hdf5_handle<H5Aclose>;
using hdf5_datatype = hdf5_handle<H5Tclose>;

/// The stored type of T: little-endian, which is also T in memory (shaped_array.hpp).
template <array_element T>
hid_t hdf5_type() {
    using number = stored_number_t<T>;
    if constexpr (std::same_as<number, float>) {
        return H5T_IEEE_F32LE;
    } else if constexpr (std::same_as<number, double>) {
        return H5T_IEEE_F64LE;
    } else {
        const hid_t types[2][4] = {{H5T_STD_U8LE, H5T_STD_U16LE, H5T_STD_U32LE, H5T_STD_U64LE},
                                   {H5T_STD_I8LE, H5T_STD_I16LE, H5T_STD_I32LE, H5T_STD_I64LE}};
        return types[std::is_signed_v<number>][std::bit_width(sizeof(number)) - 1];
    }
}

/// "float64", "uint32": T's stored type in messages.
template <array_element T>
std::string hdf5_type_name() {
    using number = stored_number_t<T>;
    const char* kind = std::floating_point<number> ? "float"
                       : std::is_signed_v<number>  ? "int"
                                                   : "uint";
    return kind + std::to_string(8 * sizeof(number));
}

/// Variable-length UTF-8 strings.
inline hdf5_datatype hdf5_string_type(const std::string& what) {
    hdf5_datatype type(hdf5_check(H5Tcopy(H5T_C_S1), "H5Tcopy", what));
    hdf5_check(H5Tset_size(type.get(), H5T_VARIABLE), "H5Tset_size", what);
    hdf5_check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset", what);
    return type;
}

/// A dataspace of this shape (a scalar for the empty shape).
inline hdf5_dataspace hdf5_space(std::span<const std::size_t> shape, const std::string& what) {
    if (shape.empty()) return hdf5_dataspace(hdf5_check(H5Screate(H5S_SCALAR), "H5Screate", what));
    const std::vector<hsize_t> extent(shape.begin(), shape.end());
    return hdf5_dataspace(
        hdf5_check(H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr),
                   "H5Screate_simple", what));
}

/// The shape of a dataspace.
inline std::vector<std::size_t> hdf5_shape(const hdf5_dataspace& space, const std::string& what) {
    const int rank =
        hdf5_check(H5Sget_simple_extent_ndims(space.get()), "H5Sget_simple_extent_ndims", what);
    std::vector<hsize_t> extent(static_cast<std::size_t>(rank));
    hdf5_check(H5Sget_simple_extent_dims(space.get(), extent.data(), nullptr),
               "H5Sget_simple_extent_dims", what);
    return {extent.begin(), extent.end()};
}

}  // namespace detail

class hdf5_file {
public:
    /// Creates the file for writing, replacing one that is there.
    static hdf5_file create(const std::filesystem::path& path) {
        const detail::hdf5_silence silence;
        return hdf5_file(path, detail::hdf5_check(H5Fcreate(path.string().c_str(), H5F_ACC_TRUNC,
                                                            H5P_DEFAULT, H5P_DEFAULT),
                                                  "H5Fcreate", path.string()));
    }
    /// Opens an existing file for reading.
    static hdf5_file open(const std::filesystem::path& path) {
        const detail::hdf5_silence silence;
        return hdf5_file(
            path, detail::hdf5_check(H5Fopen(path.string().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT),
                                     "H5Fopen", path.string()));
    }

    const std::filesystem::path& path() const { return path_; }

    /// Whether the file has an object called name (at its root: "saved").
    bool contains(const std::string& name) const {
        const detail::hdf5_silence silence;
        return detail::hdf5_check(H5Lexists(file_.get(), name.c_str(), H5P_DEFAULT), "H5Lexists",
                                  describe("object", name)) > 0;
    }

    /// Writes a new dataset of the given shape.
    template <array_element T>
    void write_dataset(const std::string& name, std::span<const T> data,
                       const std::vector<std::size_t>& shape) {
        const detail::hdf5_silence silence;
        const std::string what = describe("dataset", name);
        if (element_count(shape) != data.size())
            throw std::runtime_error("HDF5: " + std::to_string(data.size()) +
                                     " values do not fill shape " + shape_text(shape) + " of " +
                                     what);
        const detail::hdf5_dataspace space = detail::hdf5_space(shape, what);
        const hid_t type = detail::hdf5_type<T>();
        const detail::hdf5_dataset dataset(
            detail::hdf5_check(H5Dcreate2(file_.get(), name.c_str(), type, space.get(), H5P_DEFAULT,
                                          H5P_DEFAULT, H5P_DEFAULT),
                               "H5Dcreate2", what));
        if (!data.empty())
            detail::hdf5_check(
                H5Dwrite(dataset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
                "H5Dwrite", what);
    }

    /// Creates a dataset of the given shape, to be filled by write_columns.
    template <array_element T>
    void create_dataset(const std::string& name, const std::vector<std::size_t>& shape) {
        const detail::hdf5_silence silence;
        const std::string what = describe("dataset", name);
        const detail::hdf5_dataspace space = detail::hdf5_space(shape, what);
        static_cast<void>(detail::hdf5_dataset(
            detail::hdf5_check(H5Dcreate2(file_.get(), name.c_str(), detail::hdf5_type<T>(),
                                          space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                               "H5Dcreate2", what)));
    }

    /// Writes columns [first, first + shape.back()) of a dataset whose last axis is the
    /// trajectory, from `data`, laid out in `shape` (the dataset's but for its last extent).
    template <array_element T>
    void write_columns(const std::string& name, std::span<const T> data,
                       const std::vector<std::size_t>& shape, std::size_t first) {
        const detail::hdf5_silence silence;
        const std::string what = describe("dataset", name);
        if (shape.empty() || element_count(shape) != data.size())
            throw std::runtime_error("HDF5: " + std::to_string(data.size()) +
                                     " values do not fill columns " + shape_text(shape) + " of " +
                                     what);
        if (data.empty()) return;
        const detail::hdf5_dataset dataset(
            detail::hdf5_check(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), "H5Dopen2", what));
        const detail::hdf5_dataspace stored(
            detail::hdf5_check(H5Dget_space(dataset.get()), "H5Dget_space", what));
        std::vector<hsize_t> start(shape.size(), 0);
        start.back() = first;
        const std::vector<hsize_t> count(shape.begin(), shape.end());
        detail::hdf5_check(H5Sselect_hyperslab(stored.get(), H5S_SELECT_SET, start.data(), nullptr,
                                               count.data(), nullptr),
                           "H5Sselect_hyperslab", what);
        const detail::hdf5_dataspace memory = detail::hdf5_space(shape, what);
        detail::hdf5_check(H5Dwrite(dataset.get(), detail::hdf5_type<T>(), memory.get(),
                                    stored.get(), H5P_DEFAULT, data.data()),
                           "H5Dwrite", what);
    }

    /// Reads a dataset whose stored type is T's (exactly: no conversion).
    template <array_element T>
    shaped_array<T> read_dataset(const std::string& name) const {
        const detail::hdf5_silence silence;
        const std::string what = describe("dataset", name);
        const detail::hdf5_dataset dataset(
            detail::hdf5_check(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), "H5Dopen2", what));
        const detail::hdf5_datatype stored(
            detail::hdf5_check(H5Dget_type(dataset.get()), "H5Dget_type", what));
        const hid_t type = detail::hdf5_type<T>();
        if (detail::hdf5_check(H5Tequal(stored.get(), type), "H5Tequal", what) <= 0)
            throw std::runtime_error("HDF5: " + what + " does not hold " +
                                     detail::hdf5_type_name<T>() + " values");
        const detail::hdf5_dataspace space(
            detail::hdf5_check(H5Dget_space(dataset.get()), "H5Dget_space", what));
        shaped_array<T> array;
        array.shape = detail::hdf5_shape(space, what);
        array.data.resize(*element_count(array.shape));
        if (!array.data.empty())
            detail::hdf5_check(
                H5Dread(dataset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, array.data.data()),
                "H5Dread", what);
        return array;
    }

    /// Attaches a 1-D array of strings to object (a dataset's name, or "/" for the file).
    void write_strings_attribute(const std::string& object, const std::string& name,
                                 const std::vector<std::string>& values) {
        const detail::hdf5_silence silence;
        std::vector<const char*> texts;
        for (const std::string& value : values) texts.push_back(value.c_str());
        const std::vector<std::size_t> shape = {values.size()};
        const detail::hdf5_datatype type = detail::hdf5_string_type(attribute(object, name));
        write_attribute(object, name, shape, type.get(), texts.data());
    }
    /// Attaches one string to object.
    void write_string_attribute(const std::string& object, const std::string& name,
                                const std::string& value) {
        const detail::hdf5_silence silence;
        const char* text = value.c_str();
        const detail::hdf5_datatype type = detail::hdf5_string_type(attribute(object, name));
        write_attribute(object, name, {}, type.get(), &text);
    }
    /// Attaches one number to object.
    template <array_element T>
    void write_number_attribute(const std::string& object, const std::string& name, T value) {
        const detail::hdf5_silence silence;
        write_attribute(object, name, {}, detail::hdf5_type<T>(), &value);
    }

    /// Reads a 1-D string array attribute of object.
    std::vector<std::string> read_strings_attribute(const std::string& object,
                                                    const std::string& name) const {
        auto [shape, values] = read_strings(object, name);
        if (shape.size() != 1)
            throw std::runtime_error("HDF5: " + attribute(object, name) + " has shape " +
                                     shape_text(shape) + ", expected a 1-D array");
        return values;
    }
    /// Reads a string attribute of object.
    std::string read_string_attribute(const std::string& object, const std::string& name) const {
        auto [shape, values] = read_strings(object, name);
        if (!shape.empty())
            throw std::runtime_error("HDF5: " + attribute(object, name) + " has shape " +
                                     shape_text(shape) + ", expected one string");
        return values.front();
    }
    /// Reads a number attribute of object whose stored type is T's.
    template <array_element T>
    T read_number_attribute(const std::string& object, const std::string& name) const {
        const detail::hdf5_silence silence;
        const std::string what = attribute(object, name);
        const detail::hdf5_attribute opened = open_attribute(object, name);
        const detail::hdf5_datatype stored(
            detail::hdf5_check(H5Aget_type(opened.get()), "H5Aget_type", what));
        const detail::hdf5_dataspace space(
            detail::hdf5_check(H5Aget_space(opened.get()), "H5Aget_space", what));
        const hid_t type = detail::hdf5_type<T>();
        if (detail::hdf5_check(H5Tequal(stored.get(), type), "H5Tequal", what) <= 0 ||
            !detail::hdf5_shape(space, what).empty())
            throw std::runtime_error("HDF5: " + what + " is not one " +
                                     detail::hdf5_type_name<T>() + " value");
        T value{};
        detail::hdf5_check(H5Aread(opened.get(), type, &value), "H5Aread", what);
        return value;
    }

    /// Closes the file, writing out what is buffered; throws if that failed. The
    /// destructor closes a file that is still open, without a word on failure.
    void close() {
        const detail::hdf5_silence silence;
        detail::hdf5_check(file_.close(), "H5Fclose", path_.string());
    }

private:
    hdf5_file(std::filesystem::path path, hid_t file) : path_(std::move(path)), file_(file) {}

    std::string describe(const char* kind, const std::string& name) const {
        return std::string(kind) + " \"" + name + "\" of " + path_.string();
    }
    std::string attribute(const std::string& object, const std::string& name) const {
        return "attribute \"" + name + "\" of \"" + object + "\" in " + path_.string();
    }

    void write_attribute(const std::string& object, const std::string& name,
                         std::span<const std::size_t> shape, hid_t type, const void* values) {
        const std::string what = attribute(object, name);
        const detail::hdf5_dataspace space = detail::hdf5_space(shape, what);
        const detail::hdf5_attribute created(detail::hdf5_check(
            H5Acreate_by_name(file_.get(), object.c_str(), name.c_str(), type, space.get(),
                              H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
            "H5Acreate_by_name", what));
        detail::hdf5_check(H5Awrite(created.get(), type, values), "H5Awrite", what);
    }

    detail::hdf5_attribute open_attribute(const std::string& object,
                                          const std::string& name) const {
        return detail::hdf5_attribute(detail::hdf5_check(
            H5Aopen_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
            "H5Aopen_by_name", attribute(object, name)));
    }

    /// The shape and strings of a variable-length string attribute.
    std::pair<std::vector<std::size_t>, std::vector<std::string>> read_strings(
        const std::string& object, const std::string& name) const {
        const detail::hdf5_silence silence;
        const std::string what = attribute(object, name);
        const detail::hdf5_attribute opened = open_attribute(object, name);
        const detail::hdf5_datatype type(
            detail::hdf5_check(H5Aget_type(opened.get()), "H5Aget_type", what));
        if (detail::hdf5_check(H5Tget_class(type.get()), "H5Tget_class", what) != H5T_STRING ||
            detail::hdf5_check(H5Tis_variable_str(type.get()), "H5Tis_variable_str", what) <= 0)
            throw std::runtime_error("HDF5: " + what + " does not hold variable-length strings");
        const detail::hdf5_dataspace space(
            detail::hdf5_check(H5Aget_space(opened.get()), "H5Aget_space", what));
        std::vector<std::size_t> shape = detail::hdf5_shape(space, what);
        std::vector<char*> texts(*element_count(shape), nullptr);
        detail::hdf5_check(H5Aread(opened.get(), type.get(), texts.data()), "H5Aread", what);
        // HDF5 allocated the strings: they go back to it however this ends.
        struct reclaim {
            hid_t type, space;
            std::vector<char*>& texts;
            ~reclaim() {
#if H5_VERSION_GE(1, 12, 0)
                H5Treclaim(type, space, H5P_DEFAULT, texts.data());
#else
                H5Dvlen_reclaim(type, space, H5P_DEFAULT, texts.data());
#endif
            }
        } const reclaimed{type.get(), space.get(), texts};
        std::vector<std::string> values;
        for (const char* text : texts) values.emplace_back(text ? text : "");
        return {std::move(shape), std::move(values)};
    }

    std::filesystem::path path_;
    detail::hdf5_file_handle file_;
};

}  // namespace cubie
