#pragma once
// A batch_result as tidy tables, one row per observation, that pandas or a spreadsheet
// reads directly:
//
//   final.csv      trajectory, status, <state names...>, accepted_steps, rejected_steps
//                  (then newton_iterations, linear_iterations for implicit methods, and
//                  <event>.count for each event)
//   series.csv     trajectory, time, <saved variables...>, <counter names...>
//                  (a row per trajectory and save; where anything is saved)
//   summaries.csv  trajectory, window_end, <summary legend...>
//                  (a row per trajectory and window; where summaries are)
//   events.csv     trajectory, event, occurrence, time, <state names...>
//                  (a row per kept occurrence, in trajectory and then record order; where
//                  events keep any)
//   inputs.csv     trajectory, <state names...> (initial values), <parameter names...>
//                  (where the result kept its inputs: batch_result::keep_inputs)
//
// Statuses are written by name ("success", "nonfinite_state"), numbers in the shortest
// form that reads back exactly (csv.hpp), values a failed trajectory never reached "nan".

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "cubie/batch/batch_result.hpp"
#include "cubie/core/status.hpp"
#include "cubie/io/csv.hpp"
#include "cubie/io/result_arrays.hpp"
#include "cubie/io/result_directory.hpp"

namespace cubie {
namespace detail {

/// Writes the table that write_rows(csv_writer&) fills where the result has it (present),
/// else removes a stale file of that name from an earlier write.
template <class WriteRows>
void write_csv_table_if(bool present, const std::filesystem::path& file, WriteRows write_rows) {
    if (!present) {
        remove_stale_result_file(file);
        return;
    }
    csv_writer out(file);
    write_rows(out);
    out.close();
}

/// Rows per trajectory and time: trajectory, the time, then columns, whose fields
/// cells(out, time index, trajectory) writes.
template <class T, class Cells>
void write_csv_time_rows(csv_writer& out, const char* time_column, const std::vector<T>& times,
                         const std::vector<std::string>& columns, std::size_t n_trajectories,
                         Cells cells) {
    out.field("trajectory").field(time_column);
    for (const std::string& column : columns) out.field(column);
    out.end_row();
    for (std::size_t i = 0; i < n_trajectories; ++i) {
        for (std::size_t k = 0; k < times.size(); ++k) {
            out.field(i).field(times[k]);
            cells(out, k, i);
            out.end_row();
        }
    }
}

}  // namespace detail

/// Writes r into the folder (created where missing) as CSV tables.
template <class T>
void write_result_csv(const batch_result<T>& r, const std::filesystem::path& directory) {
    check_result_arrays(r);
    detail::make_result_directory(directory);

    detail::write_csv_table_if(true, directory / "final.csv", [&](csv_writer& table) {
        table.field("trajectory").field("status");
        for (const std::string& name : r.state_names) table.field(name);
        table.field("accepted_steps").field("rejected_steps");
        const bool iterated = !r.newton_iterations.empty();
        if (iterated) table.field("newton_iterations").field("linear_iterations");
        for (const std::string& event : r.event_names) table.field(event + ".count");
        table.end_row();
        for (std::size_t i = 0; i < r.n_trajectories; ++i) {
            table.field(i).field(to_string(r.statuses[i]));
            for (int s = 0; s < r.n_states; ++s) table.field(r.final_state(s, i));
            table.field(r.accepted_steps[i]).field(r.rejected_steps[i]);
            if (iterated) table.field(r.newton_iterations[i]).field(r.linear_iterations[i]);
            for (std::size_t e = 0; e < r.n_event_channels(); ++e)
                table.field(r.event_counts[e * r.n_trajectories + i]);
            table.end_row();
        }
    });

    detail::write_csv_table_if(
        !r.event_record_names.empty(), directory / "events.csv", [&](csv_writer& table) {
            table.field("trajectory").field("event").field("occurrence").field("time");
            for (const std::string& name : r.state_names) table.field(name);
            table.end_row();
            for (std::size_t i = 0; i < r.n_trajectories; ++i)
                for (const std::string& event : r.event_names) {
                    const auto [first, capacity] = r.event_records(event);
                    const std::size_t kept =
                        std::min<std::size_t>(capacity, r.event_count(event, i));
                    for (std::size_t k = 0; k < kept; ++k) {
                        table.field(i).field(event).field(k).field(r.event_time(event, k, i));
                        for (int s = 0; s < r.n_states; ++s)
                            table.field(r.event_state(event, k, s, i));
                        table.end_row();
                    }
                }
        });

    const bool kept_inputs = !r.initial_states.empty() || !r.parameter_names.empty();
    detail::write_csv_table_if(kept_inputs, directory / "inputs.csv", [&](csv_writer& table) {
        table.field("trajectory");
        if (!r.initial_states.empty())
            for (const std::string& name : r.state_names) table.field(name);
        for (const std::string& name : r.parameter_names) table.field(name);
        table.end_row();
        for (std::size_t i = 0; i < r.n_trajectories; ++i) {
            table.field(i);
            if (!r.initial_states.empty())
                for (std::size_t s = 0; s < r.state_names.size(); ++s)
                    table.field(r.initial_states[s * r.n_trajectories + i]);
            for (std::size_t p = 0; p < r.parameter_names.size(); ++p)
                table.field(r.parameters[p * r.n_trajectories + i]);
            table.end_row();
        }
    });

    std::vector<std::string> series_columns = r.saved_variables;
    series_columns.insert(series_columns.end(), r.counter_names.begin(), r.counter_names.end());
    detail::write_csv_table_if(
        !series_columns.empty(), directory / "series.csv", [&](csv_writer& table) {
            detail::write_csv_time_rows(table, "time", r.save_times, series_columns,
                                        r.n_trajectories,
                                        [&](csv_writer& out, std::size_t save, std::size_t i) {
                                            for (std::size_t v = 0; v < r.n_saved_variables(); ++v)
                                                out.field(r.saved_value(save, v, i));
                                            for (std::size_t c = 0; c < r.counter_names.size(); ++c)
                                                out.field(r.saved_counter(save, c, i));
                                        });
        });

    detail::write_csv_table_if(
        !r.summary_legend.empty(), directory / "summaries.csv", [&](csv_writer& table) {
            detail::write_csv_time_rows(
                table, "window_end", r.window_ends, r.summary_legend, r.n_trajectories,
                [&](csv_writer& out, std::size_t window, std::size_t i) {
                    for (std::size_t row = 0; row < r.n_summary_rows(); ++row)
                        out.field(r.summary_value(window, row, i));
                });
        });
}

}  // namespace cubie
