#pragma once
// Per-thread arrays held in the block's dynamic shared memory on the device, for a step's
// values that its thread's registers cannot hold beside everything else: there they would
// spill to local memory. A method declares the bytes a thread keeps there
// (thread_shared_bytes_of below) and the cuda backend launches its kernels with that much a
// thread for a block of thread_shared_block threads, in blocks of at most that many.
//
// Value v of thread t is word v * thread_shared_block + t: a warp reads and writes 32
// consecutive words, one bank each. The stride is a constant rather than the block's size,
// so that no register holds it: with the block's size kvaerno5's Pollution kernel in float
// spilled 128 bytes where the constant leaves none (bench/RESULTS.md).
//
// The accesses are volatile. Without, the compiler keeps what a thread stored in registers
// until it reads it again (nothing else writes that word), and the registers the array was
// to spare stay taken: Kvaerno5's stage derivatives in shared memory spilled as much as in
// registers.
//
// On the host (and in the host compiler's pass over device-capable code) the values are a
// member array: the layout of the type is the same on both sides, and only the device's
// code leaves the member unused.

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"

namespace cubie {

/// Threads a block may hold where a method keeps values in thread_shared_rows: the
/// stride between one thread's values.
inline constexpr int thread_shared_block = 256;

/// Bytes a thread of Algorithm's kernels keeps in shared memory for states of type State:
/// Algorithm::thread_shared_bytes<State>, or 0 where it declares none.
template <class Algorithm, class State>
inline constexpr int thread_shared_bytes_of = [] {
    if constexpr (requires { Algorithm::template thread_shared_bytes<State>; })
        return Algorithm::template thread_shared_bytes<State>;
    else
        return 0;
}();

/// Rows x Cols values of type T per thread, row by row, at the start of the dynamic shared
/// memory on the device (a thread holds one such array at a time). Indexed as a
/// vector<vector<T, Cols>, Rows>: a[r][c], and a[r] = v for a whole row.
template <class T, int Rows, int Cols>
class thread_shared_rows {
public:
    static constexpr int bytes = Rows * Cols * int(sizeof(T));

    class row {
    public:
        CUBIE_HD auto& operator[](int c) const { return start_[c * stride]; }
        template <class Vector>
        CUBIE_HD const row& operator=(const Vector& v) const {
            CUBIE_UNROLL
            for (int c = 0; c < Cols; ++c) start_[c * stride] = v[c];
            return *this;
        }

    private:
        friend class thread_shared_rows;
#ifdef __CUDA_ARCH__
        using word = volatile T;
#else
        using word = T;
#endif
        CUBIE_HD explicit row(word* start) : start_(start) {}
        word* start_;
    };

    CUBIE_HD row operator[](int r) const {
        return row(first() + r * Cols * stride);
    }

private:
#ifdef __CUDA_ARCH__
    static constexpr int stride = thread_shared_block;
    CUBIE_HD typename row::word* first() const {
        extern __shared__ double cubie_thread_shared[];
        return reinterpret_cast<volatile T*>(cubie_thread_shared) + threadIdx.x;
    }
#else
    static constexpr int stride = 1;
    CUBIE_HD T* first() const {
        return values_.data();
    }
#endif
    mutable vector<T, Rows * Cols> values_{};
};

}  // namespace cubie
