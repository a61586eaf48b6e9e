#pragma once
// The file formats a batch_result is written in (write_result.hpp), and their names as a
// command line gives them.
//
// HDF5 is there only where the program was built with HDF5's C library (it links
// cubie::hdf5, which defines CUBIE_WITH_HDF5); elsewhere asking for it is a runtime error
// that says so.

#include <stdexcept>
#include <string>
#include <string_view>

namespace cubie {

enum class result_format {
    csv,   ///< a folder of tables: final.csv, series.csv, summaries.csv
    npy,   ///< a folder of NumPy arrays, one .npy file per array and legend
    hdf5,  ///< one HDF5 file, a dataset per array
};

/// Whether this program was built with HDF5, and so can write result_format::hdf5.
#if CUBIE_WITH_HDF5
inline constexpr bool hdf5_available = true;
#else
inline constexpr bool hdf5_available = false;
#endif

namespace detail {

inline std::runtime_error hdf5_unavailable(std::string_view request) {
    return std::runtime_error(std::string(request) +
                              ": HDF5 was not found when this program was built (install "
                              "HDF5's C library, reconfigure, and link cubie::hdf5)");
}

}  // namespace detail

/// The format called name: "csv", "npy", "h5" or "hdf5". Throws std::invalid_argument
/// listing the choices for any other name, and std::runtime_error for HDF5 where
/// hdf5_available is false.
inline result_format parse_result_format(std::string_view name) {
    if (name == "csv") return result_format::csv;
    if (name == "npy") return result_format::npy;
    if (name == "h5" || name == "hdf5") {
        if (!hdf5_available)
            throw detail::hdf5_unavailable("result format \"" + std::string(name) + "\"");
        return result_format::hdf5;
    }
    throw std::invalid_argument("unknown result format \"" + std::string(name) +
                                "\": choose csv, npy, h5 or hdf5");
}

}  // namespace cubie
