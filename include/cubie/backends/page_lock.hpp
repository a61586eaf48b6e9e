#pragma once
// Page-locking a batch_result's host arrays in place (cudaHostRegister), for a result that
// is solved into again and again: the device then copies each chunk's outputs straight
// into them, asynchronously and beside the kernels of other chunks. Into pageable arrays
// the outputs go through page-locked staging and then a host copy, which moves as many
// bytes again over every OpenMP thread and stretches whenever the host's cores are busy
// with anything else. Locking costs time of its own (the driver maps every page for the
// devices), so a result is locked on its second solve into the same arrays, never on its
// first; and only while its arrays take at most a quarter of the host's memory, since
// locked pages are taken from everything else. The arrays' allocator (core/host_array.hpp)
// unlocks a block before it frees it.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "cubie/batch/batch_result.hpp"
#include "cubie/batch/result_fields.hpp"
#include "cubie/core/host_array.hpp"
#include "cubie/core/host_memory.hpp"
#include "cubie/core/memory_location.hpp"

namespace cubie::backends {

/// Page-locks a's block (all of its capacity) for every device, unless a is empty or its
/// memory is page-locked already (by an earlier call, or by the caller). False where the
/// driver refuses.
template <class U>
bool page_lock(host_array<U>& a) {
    if (a.empty() || memory_location::of(a.data()).where != memory_location::kind::pageable)
        return true;
    if (cudaHostRegister(a.data(), a.capacity() * sizeof(U), cudaHostRegisterPortable) !=
        cudaSuccess) {
        static_cast<void>(cudaGetLastError());  // not sticky: cleared for later checks
        return false;
    }
    block_header(a).unlock = [](void* elements) noexcept {
        if (cudaHostUnregister(elements) != cudaSuccess) static_cast<void>(cudaGetLastError());
    };
    return true;
}

/// Unlocks a's block where page_lock locked it.
template <class U>
void page_unlock(host_array<U>& a) noexcept {
    if (a.empty()) return;
    host_block_header& header = block_header(a);
    if (header.unlock == nullptr) return;
    header.unlock(a.data());
    header.unlock = nullptr;
}

/// Kept in a result's workspace: page-locks the result's arrays when a solve finds them
/// where the previous solve into it left them, or from the first solve on where the
/// result is known to be solved into again (lock_from_first_solve: a streamed solve's
/// chunk results, io/streamed_solve.hpp).
template <class T>
class page_lock_on_reuse {
public:
    void lock_from_first_solve() { eager_ = true; }

    /// Before a solve into r, with r's arrays sized for it.
    void before_solve(batch_result<T>& r) {
        std::vector<const void*> arrays;
        double bytes = 0;
        for_each_result_field(
            [&](const result_field&, auto& a) {
                arrays.push_back(a.data());
                bytes += double(a.capacity()) * double(sizeof(a[0]));
            },
            r);
        const bool reused = arrays == last_arrays_;
        last_arrays_ = std::move(arrays);
        if (!(reused || eager_) || refused_ || bytes > host_memory_bytes() / 4) return;
        bool locked = true;
        for_each_result_field(
            [&](const result_field&, auto& a) { locked = locked && page_lock(a); }, r);
        if (!locked) {  // all or none, and not tried again for this result
            for_each_result_field([](const result_field&, auto& a) { page_unlock(a); }, r);
            refused_ = true;
        }
    }

private:
    std::vector<const void*> last_arrays_;  ///< the arrays' blocks at the previous solve
    bool refused_ = false;                  ///< the driver refused to lock one of them
    bool eager_ = false;                    ///< lock on the first solve too
};

}  // namespace cubie::backends
