#pragma once
// The time a solve's kernels ran: the chunks' kernels run on several streams, some at once
// and some after waiting for the copies of an earlier chunk; the union of their [start,
// stop] intervals counts each moment a kernel ran once and leaves out the waits.

#include <algorithm>
#include <utility>
#include <vector>

namespace cubie::backends {

class kernel_intervals {
public:
    /// One kernel's interval, in milliseconds from any common origin.
    void add(float start, float stop) { intervals_.emplace_back(start, std::max(start, stop)); }

    /// The length of the union of the intervals added.
    float covered() const {
        std::vector<std::pair<float, float>> sorted = intervals_;
        std::sort(sorted.begin(), sorted.end());
        float total = 0, reached = 0;
        bool any = false;
        for (const auto& [start, stop] : sorted) {
            if (!any || start > reached) {
                total += stop - start;
                reached = stop;
                any = true;
            } else if (stop > reached) {
                total += stop - reached;
                reached = stop;
            }
        }
        return total;
    }

private:
    std::vector<std::pair<float, float>> intervals_;
};

}  // namespace cubie::backends
