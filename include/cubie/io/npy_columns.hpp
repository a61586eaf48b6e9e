#pragma once
// An .npy file of numbers written a block of columns at a time: a result array whose last
// axis is the trajectory, streamed chunk by chunk (io/streamed_solve.hpp). The header and
// the file's size are set when it is created; write_columns puts each row's piece where
// write_npy would have put it, so the finished file has write_npy's bytes.
//
//   npy_columns<float> file(path, {saves, variables, n});
//   file.write_columns(chunk.data(), first, count);   // [saves][variables][count]
//   file.close();

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cubie/io/npy.hpp"
#include "cubie/io/shaped_array.hpp"

namespace cubie {

template <array_element T>
class npy_columns {
public:
    /// Creates (or replaces) the file for an array of this shape.
    npy_columns(std::filesystem::path path, std::vector<std::size_t> shape)
        : path_(std::move(path)), shape_(std::move(shape)) {
        if (shape_.empty()) detail::npy_fail(path_, "an array of columns has at least one axis");
        const std::string header = detail::npy_header(npy_descr<T>(), shape_);
        header_bytes_ = header.size();
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd_ < 0) fail("cannot open for writing");
        write_at(header.data(), header.size(), 0);
        const std::size_t bytes = header_bytes_ + *element_count(shape_) * sizeof(T);
        if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) fail("cannot size the file");
    }
    npy_columns(const npy_columns&) = delete;
    npy_columns& operator=(const npy_columns&) = delete;
    ~npy_columns() {
        if (fd_ >= 0) ::close(fd_);
    }

    /// Writes columns [first, first + count) of every row from `columns`, laid out
    /// [row][count].
    void write_columns(const T* columns, std::size_t first, std::size_t count) {
        const std::size_t n = shape_.back(), rows = *element_count(shape_) / (n ? n : 1);
        if (first + count > n) detail::npy_fail(path_, "columns past the last trajectory");
        for (std::size_t r = 0; r < rows; ++r)
            write_at(columns + r * count, count * sizeof(T),
                     header_bytes_ + (r * n + first) * sizeof(T));
    }

    /// Closes the file; throws if that failed.
    void close() {
        if (fd_ >= 0 && ::close(std::exchange(fd_, -1)) != 0) fail("close failed");
    }

private:
    void write_at(const void* bytes, std::size_t size, std::size_t offset) {
        const char* from = static_cast<const char*>(bytes);
        while (size > 0) {
            const ssize_t written = ::pwrite(fd_, from, size, static_cast<off_t>(offset));
            if (written < 0 && errno == EINTR) continue;
            if (written < 0) fail("write failed");
            if (written == 0) detail::npy_fail(path_, "write failed: nothing written");
            from += written;
            size -= static_cast<std::size_t>(written);
            offset += static_cast<std::size_t>(written);
        }
    }
    /// After a failed system call: says what failed, and why (errno).
    [[noreturn]] void fail(const std::string& what) const {
        detail::npy_fail(path_, what + ": " + std::strerror(errno));
    }

    std::filesystem::path path_;
    std::vector<std::size_t> shape_;
    std::size_t header_bytes_ = 0;
    int fd_ = -1;
};

}  // namespace cubie
