#pragma once
// host_array<T>: the arrays of a result in host memory. A std::vector whose resize leaves
// new elements uninitialised (an allocator that default-initialises), so that a result of
// many gigabytes is not first written by one thread: fill_in_parallel() then touches its
// pages from every OpenMP thread, which is where most of the time of a big result goes
// (each fresh page is a fault, and a single thread takes them one at a time).

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace cubie {

/// std::allocator, but construct() without arguments default-initialises: no zeroing.
template <class T>
struct default_init_allocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = default_init_allocator<U>;
    };
    default_init_allocator() = default;
    template <class U>
    default_init_allocator(const default_init_allocator<U>&) noexcept {}

    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

template <class T>
using host_array = std::vector<T, default_init_allocator<T>>;

/// Resizes to n elements, copying and initialising none: within the capacity nothing is
/// allocated, beyond it the old elements are dropped rather than copied. True when it
/// allocated (the new pages are not yet mapped).
template <class T>
bool resize_untouched(host_array<T>& a, std::size_t n) {
    const bool allocates = n > a.capacity();
    a.clear();
    a.resize(n);
    return allocates;
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
