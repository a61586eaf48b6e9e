#pragma once
// A folder that holds one result as a set of files (CSV tables, NPY arrays). Writing a
// result into a folder that held an earlier one removes the files the new result does
// not have, so that the folder never mixes two results.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace cubie::detail {

/// Creates the folder (and its parents) where missing; throws std::runtime_error naming it
/// when it cannot be created or is not a folder.
inline void make_result_directory(const std::filesystem::path& directory) {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error)
        throw std::runtime_error(directory.string() + ": cannot create the folder (" +
                                 error.message() + ")");
    if (!std::filesystem::is_directory(directory, error))
        throw std::runtime_error(directory.string() + ": is not a folder");
}

/// Removes a file an earlier result left, if there is one.
inline void remove_stale_result_file(const std::filesystem::path& file) {
    std::error_code error;
    std::filesystem::remove(file, error);
    if (error)
        throw std::runtime_error(file.string() + ": cannot remove it (" + error.message() + ")");
}

}  // namespace cubie::detail
