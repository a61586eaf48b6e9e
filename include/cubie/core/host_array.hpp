#pragma once
// host_array<T>: the arrays of a result in host memory. A std::vector with an allocator of
// its own, host_allocator, for three reasons:
// - resize leaves new elements uninitialised, so that a result of many gigabytes is not
//   first written by one thread: its first writes come from many (fill_in_parallel() from
//   every OpenMP thread; the cuda backend's copies from each device's), which matters as
//   most of the time of a big result goes there (each fresh page is a fault, and a single
//   thread takes them one at a time);
// - a large block is backed by transparent huge pages where the system grants them on
//   request (madvise), so that its first touch takes 512 times fewer faults;
// - each block can be page-locked in place (the cuda backend does so for a result it
//   solves into repeatedly: backends/page_lock.hpp). A block has whole pages of its own,
//   since the driver locks whole pages and refuses a page twice, and starts with a header
//   where whoever locks it leaves the function that unlocks it: the allocator calls that
//   before it frees the block, so that no locked range outlives its memory.

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace cubie {

/// What precedes the elements of a host_array's block.
struct host_block_header {
    /// Undoes a page-lock of the block's elements; null while the block is not locked.
    void (*unlock)(void* elements) noexcept = nullptr;
};

/// The allocator of host_array: construct() without arguments default-initialises (no
/// zeroing), and blocks are whole pages, page-aligned, with a host_block_header first.
template <class T>
struct host_allocator {
    using value_type = T;
    static constexpr std::size_t header_bytes = 64;  // a cache line: elements stay aligned
    static_assert(alignof(T) <= header_bytes);

    host_allocator() = default;
    template <class U>
    host_allocator(const host_allocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > (std::numeric_limits<std::size_t>::max() / 2 - header_bytes) / sizeof(T))
            throw std::bad_array_new_length();
        const std::size_t bytes = block_bytes(n);
        void* base = ::operator new (bytes, std::align_val_t{page_bytes()});
        ask_for_huge_pages(base, bytes);
        ::new (base) host_block_header{};
        return reinterpret_cast<T*>(static_cast<char*>(base) + header_bytes);
    }

    /// The unsized aligned delete: libstdc++ declares the sized one only with sized
    /// deallocation, which Clang before 19 leaves off.
    void deallocate(T* elements, std::size_t) noexcept {
        host_block_header* header = header_of(elements);
        if (header->unlock != nullptr) header->unlock(elements);
        header->~host_block_header();
        ::operator delete (static_cast<void*>(header), std::align_val_t{page_bytes()});
    }

    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }

    /// The header of the block whose elements start at `elements`.
    static host_block_header* header_of(T* elements) noexcept {
        return std::launder(
            reinterpret_cast<host_block_header*>(reinterpret_cast<char*>(elements) - header_bytes));
    }

    /// The host's page size.
    static std::size_t page_bytes() noexcept {
        static const std::size_t page = [] {
            const long bytes = sysconf(_SC_PAGESIZE);
            return bytes > 0 ? static_cast<std::size_t>(bytes) : std::size_t{4096};
        }();
        return page;
    }

    friend bool operator==(const host_allocator&, const host_allocator&) noexcept { return true; }

private:
    /// Asks the kernel to back a large block with transparent huge pages where it allows
    /// them on request (mode `madvise`; `always` needs no asking, `never` refuses): a first
    /// touch then faults once per 2 MiB rather than per 4 KiB page. Advice only, so
    /// a refusal is no error.
    static void ask_for_huge_pages([[maybe_unused]] void* base,
                                   [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        constexpr std::size_t huge_page = std::size_t{2} << 20;
        if (bytes >= 2 * huge_page) static_cast<void>(::madvise(base, bytes, MADV_HUGEPAGE));
#endif
    }

    static std::size_t block_bytes(std::size_t n) noexcept {
        const std::size_t page = page_bytes();
        return (header_bytes + n * sizeof(T) + page - 1) / page * page;
    }
};

template <class T>
using host_array = std::vector<T, host_allocator<T>>;

/// The header of a's block; a must not be empty.
template <class T>
host_block_header& block_header(host_array<T>& a) noexcept {
    return *host_allocator<T>::header_of(a.data());
}

/// Resizes to n elements, copying and initialising none: within the capacity nothing is
/// allocated, beyond it the old elements are dropped rather than copied (and the new pages
/// are mapped by whoever first writes them).
template <class T>
void resize_untouched(host_array<T>& a, std::size_t n) {
    a.clear();
    a.resize(n);
}

/// Sets every element to `value`, the array split evenly over the OpenMP threads.
template <class T>
void fill_in_parallel(host_array<T>& a, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto n = static_cast<std::ptrdiff_t>(a.size());
    T* data = a.data();
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) data[i] = value;
}

}  // namespace cubie
