#pragma once
// The physical memory of this machine: the most a result may take (outputs beyond it could
// only thrash), and the measure of how much of it may be page-locked.

#include <unistd.h>

#include <limits>

namespace cubie {

/// Bytes of physical memory; infinity where the system does not say.
inline double host_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? double(pages) * double(page)
                                 : std::numeric_limits<double>::infinity();
}

}  // namespace cubie
