#pragma once
// Per-thread arrays held in the block's dynamic shared memory on the device, for a step's
// values that its thread's registers cannot hold beside everything else: there they would
// spill to local memory. A method offers a variant of itself that keeps values there for a
// system (thread_shared_variant below): dirk.hpp's stage derivatives, the complex factors of
// implicit_runge_kutta.hpp, the factors of rosenbrock.hpp's W. It declares the bytes a thread
// keeps (thread_shared_bytes_of). The cuda backend's own kernels take the variant where every
// device of a solve holds thread_shared_block threads' bytes in a block, no other block size
// is asked for and the batch fills half of those threads on every multiprocessor, and then
// launch with that much memory in blocks of at most that many threads. The method's plain
// type, in any other kernel (a user's own, calling integrate()), keeps its registers.
//
// Value v of thread t is word v * thread_shared_block + t: a warp reads and writes 32
// consecutive words, one bank each. The stride is a constant rather than the block's size,
// so that no register holds it: with the block's size kvaerno5's Pollution kernel in float
// spilled 128 bytes where the constant leaves none (bench/RESULTS.md).
//
// The accesses are volatile. Without, the compiler keeps what a thread stored in registers
// until it reads it again (nothing else writes that word), and most of the registers the
// array was to spare stay taken: kvaerno5's stage derivatives in shared memory left 48 to 64
// bytes of spills, with volatile accesses none.
//
// On the host (and in the host compiler's pass over device-capable code) the values are a
// member array, which the device's code leaves unused.

#include "cubie/core/config.hpp"
#include "cubie/core/vector.hpp"

namespace cubie {

/// Threads a block may hold where a method keeps values in thread_shared_rows: the
/// stride between one thread's values.
inline constexpr int thread_shared_block = 256;

/// The most bytes a thread keeps there: a block of thread_shared_block threads then takes
/// 220 KiB, where a block of compute capability 9.0 may take 227 KiB.
inline constexpr int thread_shared_most_bytes = 880;

/// Values a thread's step keeps, as a method counts them, past which its variant keeps some
/// of them in shared memory (implicit_runge_kutta.hpp's complex factors, rosenbrock.hpp's
/// factors): 5/3 of a thread's 255 registers. Measured in float on one H200
/// (bench/RESULTS.md): with the variant, Radau IIA 5 on Pollution (442 values) and Rodas5P
/// on Lorenz 96 at 32 sites (468) ran 1.04 to 1.74 times as fast from 2^16 to 2^20
/// trajectories (0.95 to 1.43 at 2^15); Rodas4 on Lorenz 96 (404), Radau IIA 3 on Pollution
/// (402) and Rosenbrock23 on Lorenz 96 (308) ran slower at every size measured, up to 2.8
/// times, and Radau IIA 5 on the ring modulator (321) 2.2 times slower at 2^17, 1.17 times
/// faster at 2^20.
inline constexpr int thread_shared_past_values = 425;

/// Whether a variant moves `bytes` a thread to shared memory for a step that keeps `values`
/// (as its method counts them): some bytes, at most thread_shared_most_bytes, and more
/// values than thread_shared_past_values.
constexpr bool thread_shared_pays(int bytes, int values) {
    return bytes > 0 && bytes <= thread_shared_most_bytes && values > thread_shared_past_values;
}

/// The variant of Algorithm that keeps values in shared memory for System, where it has one
/// that does for that system; Algorithm itself otherwise.
template <class Algorithm, class System>
struct thread_shared_variant {
    using type = Algorithm;
};
template <class Algorithm, class System>
using thread_shared_variant_t = typename thread_shared_variant<Algorithm, System>::type;

/// Bytes a thread of Algorithm's kernels keeps in shared memory for System:
/// Algorithm::thread_shared_bytes<System>, or 0 where it declares none.
template <class Algorithm, class System>
inline constexpr int thread_shared_bytes_of = [] {
    if constexpr (requires { Algorithm::template thread_shared_bytes<System>; })
        return Algorithm::template thread_shared_bytes<System>;
    else
        return 0;
}();

/// Whether Algorithm's steps for a right-hand side F keep values in shared memory: only where
/// it declares bytes of it for F's system, which the cuda backend gives each block.
template <class Algorithm, class F>
constexpr bool keeps_thread_shared_for() {
    if constexpr (requires { typename F::system_type; })
        return thread_shared_bytes_of<Algorithm, typename F::system_type> > 0;
    else
        return false;
}

/// Rows x Cols values of type T per thread, row by row, at the start of the dynamic shared
/// memory on the device (a thread holds one such array at a time). Indexed as a
/// vector<vector<T, Cols>, Rows>: a[r][c], and a[r] = v for a whole row.
template <class T, int Rows, int Cols>
class thread_shared_rows {
public:
    thread_shared_rows() = default;
    // A copy would share the device's memory with its original: none is made.
    thread_shared_rows(const thread_shared_rows&) = delete;
    thread_shared_rows& operator=(const thread_shared_rows&) = delete;

    class row {
    public:
        row(const row&) = default;
        CUBIE_HD auto& operator[](int c) const { return start_[c * stride]; }
        template <class Vector>
        CUBIE_HD const row& operator=(const Vector& v) const {
            CUBIE_UNROLL
            for (int c = 0; c < Cols; ++c) start_[c * stride] = v[c];
            return *this;
        }
        /// Copies the values of another row (not where it points).
        CUBIE_HD const row& operator=(const row& other) const {
            CUBIE_UNROLL
            for (int c = 0; c < Cols; ++c) start_[c * stride] = other[c];
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
