#pragma once
// The arrays of a batch_result as array files store them: one array per NPY file or HDF5
// dataset, under the result's own field names and with the trajectory index last, and each
// legend beside the array whose rows it names.
//
//   array           shape                              legend (NPY file, HDF5 attribute)
//   final_states    [state][trajectory]                state_names      states
//   initial_states  [state][trajectory]                state_names      states
//   parameters      [parameter][trajectory]            parameter_names  parameters
//   statuses        [trajectory] (status codes)        status_names     status_names
//   accepted_steps  [trajectory]
//   rejected_steps  [trajectory]
//   newton_iterations, linear_iterations   [trajectory] (implicit methods)
//   save_times      [save]
//   saved           [save][saved variable][trajectory] saved_variables  variables
//   saved_counters  [save][counter][trajectory]        counter_names    counters
//   window_ends     [window]
//   summaries       [window][summary row][trajectory]  summary_legend   rows
//   event_counts    [event][trajectory]                event_names      events
//   event_times     [event record][trajectory]         event_record_names  records
//   event_states    [event record][state][trajectory]  state_names      states
//
// The inputs (initial_states, parameters) are there where batch_result::keep_inputs copied
// them. The statuses' legend names every code: status_names[code] (core/status.hpp).
// final_states, statuses and the step counts are always there; the iteration counts where
// the result holds them; saved,
// saved_counters and summaries where their legend names any row, save_times and window_ends where
// saves or windows are; event_counts where events are, event_times and event_states where
// they keep any record (rows named by event_record_names, NaN where not reached).

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cubie/batch/batch_result.hpp"
#include "cubie/core/status.hpp"
#include "cubie/io/shaped_array.hpp"

namespace cubie {

/// One array of a result, as for_each_result_array presents it. Data and Names are const
/// when the result is.
template <class Data, class Names>
struct result_array {
    using element_type = typename std::remove_const_t<Data>::value_type;

    const char* name;                   ///< file stem and dataset name: "saved"
    Data& data;                         ///< the result's vector, row-major in shape
    std::vector<std::size_t> shape;     ///< what the result's sizes and legends make it
    bool required;                      ///< every result holds it
    bool present;                       ///< this result holds it
    Names* legend = nullptr;            ///< names of the rows of its legend axis, if it has one
    const char* legend_file = nullptr;  ///< the legend's own file stem: "saved_variables"
    const char* legend_attribute = nullptr;  ///< the legend's attribute name: "variables"
    /// Names of the codes its values are (statuses), by code: its file stem and attribute.
    const char* code_legend = nullptr;
};

/// The name of every status, by code: the statuses' legend in result files.
inline const std::vector<std::string>& status_legend() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all;
        for (const char* name : status_names) all.emplace_back(name);
        return all;
    }();
    return names;
}

/// Calls visit(result_array) for each array of r, in the order of the table above.
template <class Result, class Visit>
void for_each_result_array(Result& r, Visit&& visit) {
    using names = std::conditional_t<std::is_const_v<Result>, const std::vector<std::string>,
                                     std::vector<std::string>>;
    const auto array = [](const char* name, auto& data, std::vector<std::size_t> shape,
                          bool required, bool present, names* legend = nullptr,
                          const char* file = nullptr, const char* attribute = nullptr) {
        return result_array<std::remove_reference_t<decltype(data)>, names>{
            name, data, std::move(shape), required, present, legend, file, attribute};
    };
    const std::size_t n = r.n_trajectories;
    const std::size_t saves = r.save_times.size(), windows = r.window_ends.size();
    const bool saved = !r.saved_variables.empty(), counted = !r.counter_names.empty(),
               summarised = !r.summary_legend.empty();
    visit(array("final_states", r.final_states, {r.state_names.size(), n}, true, true,
                &r.state_names, "state_names", "states"));
    visit(array("initial_states", r.initial_states, {r.state_names.size(), n}, false,
                !r.initial_states.empty(), &r.state_names, "state_names", "states"));
    visit(array("parameters", r.parameters, {r.parameter_names.size(), n}, false,
                !r.parameter_names.empty(), &r.parameter_names, "parameter_names", "parameters"));
    auto statuses = array("statuses", r.statuses, {n}, true, true);
    statuses.code_legend = "status_names";
    visit(statuses);
    visit(array("accepted_steps", r.accepted_steps, {n}, true, true));
    visit(array("rejected_steps", r.rejected_steps, {n}, true, true));
    const bool iterated = !r.newton_iterations.empty() || !r.linear_iterations.empty();
    visit(array("newton_iterations", r.newton_iterations, {n}, false, iterated));
    visit(array("linear_iterations", r.linear_iterations, {n}, false, iterated));
    visit(array("save_times", r.save_times, {saves}, false, saves > 0 || saved || counted));
    visit(array("saved", r.saved, {saves, r.saved_variables.size(), n}, false, saved,
                &r.saved_variables, "saved_variables", "variables"));
    visit(array("saved_counters", r.saved_counters, {saves, r.counter_names.size(), n}, false,
                counted, &r.counter_names, "counter_names", "counters"));
    visit(array("window_ends", r.window_ends, {windows}, false, windows > 0 || summarised));
    visit(array("summaries", r.summaries, {windows, r.summary_legend.size(), n}, false, summarised,
                &r.summary_legend, "summary_legend", "rows"));
    const std::size_t records = r.event_record_names.size();
    visit(array("event_counts", r.event_counts, {r.event_names.size(), n}, false,
                !r.event_names.empty(), &r.event_names, "event_names", "events"));
    visit(array("event_times", r.event_times, {records, n}, false, records > 0,
                &r.event_record_names, "event_record_names", "records"));
    visit(array("event_states", r.event_states, {records, r.state_names.size(), n}, false,
                records > 0, &r.state_names, "state_names", "states"));
}

/// Throws std::invalid_argument, naming the array, unless every array of r holds as many
/// values as its sizes and legends say.
template <class T>
void check_result_arrays(const batch_result<T>& r) {
    if (r.n_states < 0 || r.state_names.size() != static_cast<std::size_t>(r.n_states))
        throw std::invalid_argument("batch_result: n_states is " + std::to_string(r.n_states) +
                                    " but state_names names " +
                                    std::to_string(r.state_names.size()));
    for_each_result_array(r, [](const auto& a) {
        const std::string values = std::to_string(a.data.size()) + " values";
        if (a.present && element_count(a.shape) != a.data.size())
            throw std::invalid_argument("batch_result: " + std::string(a.name) + " holds " +
                                        values + ", its sizes and legends make it " +
                                        shape_text(a.shape));
        if (!a.present && !a.data.empty())
            throw std::invalid_argument("batch_result: " + std::string(a.name) + " holds " +
                                        values + " but " + a.legend_file + " is empty");
    });
}

/// Lets sink.remove(array) clear what an earlier result may have left of the arrays r does
/// not hold, then writes every array r holds through sink.write(array): in that order, as
/// arrays share legends (initial_states and final_states: state_names). r has passed
/// check_result_arrays.
template <class T, class Sink>
void write_result_arrays(const batch_result<T>& r, Sink& sink) {
    for_each_result_array(r, [&](const auto& a) {
        if (!a.present) sink.remove(a);
    });
    for_each_result_array(r, [&](const auto& a) {
        if (a.present) sink.write(a);
    });
}

/// Reads a result back from source: source.contains(array) says whether it holds an array,
/// source.read(array) fills the array and its legend and returns the shape it was stored
/// with, source.describe(array) names it in messages. Throws std::runtime_error when a
/// stored shape is not what the legends and sizes make it.
template <class T, class Source>
batch_result<T> read_result_arrays(Source& source) {
    batch_result<T> r;
    std::map<std::string, std::vector<std::size_t>> stored;
    for_each_result_array(r, [&](const auto& a) {
        if (a.required || source.contains(a)) stored[a.name] = source.read(a);
    });
    r.n_trajectories = r.statuses.size();
    r.n_states = static_cast<int>(r.state_names.size());
    for_each_result_array(r, [&](const auto& a) {
        const auto shape = stored.find(a.name);
        if (shape != stored.end() && shape->second != a.shape)
            throw std::runtime_error(source.describe(a) + " has shape " +
                                     shape_text(shape->second) + ", its legends make it " +
                                     shape_text(a.shape));
    });
    check_result_arrays(r);
    return r;
}

}  // namespace cubie
