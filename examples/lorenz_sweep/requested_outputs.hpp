#pragma once
// lorenz_sweep compiles one kernel that saves and summarises everything it can; this drops
// from its result what the command line did not ask for, before the result is written.

#include <algorithm>
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "cubie/batch/batch_result.hpp"
#include "lorenz_sweep/options.hpp"

namespace lorenz_sweep {

/// The output names ("max", "peak0", ...) of a metric named on the command line.
inline std::vector<std::string> outputs_of(const std::string& metric) {
    if (metric == "extrema") return {"max", "min"};
    if (metric == "dxdt_extrema") return {"dxdt_max", "dxdt_min"};
    if (metric == "d2xdt2_extrema") return {"d2xdt2_max", "d2xdt2_min"};
    if (metric == "peaks" || metric == "negative_peaks") {
        const std::string stem = metric == "peaks" ? "peak" : "negative_peak";
        return {stem + "0", stem + "1", stem + "2", stem + "3"};
    }
    return {metric};
}

template <class T>
void keep_requested(cubie::batch_result<T>& r, const options& o) {
    if (!o.save_every) {
        r.save_times.clear();
        r.saved_variables.clear();
        r.saved.clear();
        r.counter_names.clear();
        r.saved_counters.clear();
    }
    if (o.summaries.empty()) {
        r.window_ends.clear();
        r.summary_legend.clear();
        r.summaries.clear();
        return;
    }
    std::set<std::string> wanted;
    for (const std::string& metric : o.summaries)
        for (const std::string& output : outputs_of(metric)) wanted.insert(output);
    std::vector<std::size_t> rows;
    for (std::size_t row = 0; row < r.summary_legend.size(); ++row) {
        const std::string& name = r.summary_legend[row];
        if (wanted.count(name.substr(name.find('.') + 1))) rows.push_back(row);
    }
    std::vector<std::string> legend;
    cubie::host_array<T> values;
    values.reserve(r.n_windows() * rows.size() * r.n_trajectories);
    for (std::size_t w = 0; w < r.n_windows(); ++w)
        for (std::size_t row : rows) {
            const auto first =
                r.summaries.begin() +
                static_cast<std::ptrdiff_t>((w * r.n_summary_rows() + row) * r.n_trajectories);
            values.insert(values.end(), first,
                          first + static_cast<std::ptrdiff_t>(r.n_trajectories));
        }
    for (std::size_t row : rows) legend.push_back(r.summary_legend[row]);
    r.summary_legend = std::move(legend);
    r.summaries = std::move(values);
}

}  // namespace lorenz_sweep
