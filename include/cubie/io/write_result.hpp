#pragma once
// Writes a batch_result to files in one of the result formats:
//
//   write_result(result, "out", parse_result_format("npy"));
//
//   csv   `where` is a folder (created where missing): final.csv, series.csv and
//         summaries.csv (csv_result.hpp)
//   npy   `where` is a folder (created where missing): an .npy file per array and legend
//         (npy_result.hpp)
//   hdf5  `where` is a file: a dataset per array, legends as attributes (hdf5_result.hpp);
//         only where the program was built with HDF5 (result_format.hpp)
//
// The arrays and their shapes are listed in result_arrays.hpp. Throws std::runtime_error
// naming the path when a file cannot be written, std::invalid_argument when the result's
// arrays do not match its sizes and legends.

#include <filesystem>
#include <stdexcept>

#include "cubie/batch/batch_result.hpp"
#include "cubie/io/csv_result.hpp"
#include "cubie/io/npy_result.hpp"
#include "cubie/io/result_format.hpp"
#if CUBIE_WITH_HDF5
#include "cubie/io/hdf5_result.hpp"
#endif

namespace cubie {

template <class T>
void write_result(const batch_result<T>& r, const std::filesystem::path& where,
                  result_format format) {
    switch (format) {
        case result_format::csv:
            write_result_csv(r, where);
            return;
        case result_format::npy:
            write_result_npy(r, where);
            return;
        case result_format::hdf5:
#if CUBIE_WITH_HDF5
            write_result_hdf5(r, where);
            return;
#else
            throw detail::hdf5_unavailable("writing " + where.string() + " as HDF5");
#endif
    }
    throw std::invalid_argument("write_result: not a result_format");
}

}  // namespace cubie
