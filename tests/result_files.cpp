// Result files: NPY, CSV and HDF5 written and read back by the library (NPY and HDF5 bit
// for bit, CSV to the shortest text that reads back exactly), the exact bytes of an NPY
// header, and the errors of bad paths and bad files. The case "result files for the numpy
// and h5py check" also writes the files that reference/check_result_files.py reads.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "cubie/core/unrecorded_nan.hpp"
#include "cubie/io/csv.hpp"
#include "cubie/io/npy.hpp"
#include "cubie/io/npy_result.hpp"
#include "cubie/io/write_result.hpp"
#include "support/example_result.hpp"
#include "support/file_bytes.hpp"
#include "support/scratch_directory.hpp"
#if CUBIE_WITH_HDF5
#include "cubie/io/hdf5_file.hpp"
#include "cubie/io/hdf5_result.hpp"
#endif

using namespace cubie;
using cubie::testing::example_result;
using cubie::testing::file_bytes;
using cubie::testing::scratch_directory;
namespace fs = std::filesystem;

namespace {

void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    REQUIRE(out.good());
}

template <class A, class B>  // std::vector or host_array, of one element type
bool same_bits(const A& a, const B& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0);
}

/// The same value, or both NaN (CSV keeps a NaN but not its payload).
template <class T>
bool same_value(T a, T b) {
    return std::isnan(a) ? std::isnan(b) : std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
void check_same_arrays(const batch_result<T>& read, const batch_result<T>& written) {
    CHECK(read.n_trajectories == written.n_trajectories);
    CHECK(read.n_states == written.n_states);
    CHECK(read.state_names == written.state_names);
    CHECK(same_bits(read.final_states, written.final_states));
    CHECK(same_bits(read.initial_states, written.initial_states));
    CHECK(read.parameter_names == written.parameter_names);
    CHECK(same_bits(read.parameters, written.parameters));
    CHECK(same_bits(read.statuses, written.statuses));
    CHECK(read.accepted_steps == written.accepted_steps);
    CHECK(read.rejected_steps == written.rejected_steps);
    CHECK(read.newton_iterations == written.newton_iterations);
    CHECK(read.linear_iterations == written.linear_iterations);
    CHECK(same_bits(read.save_times, written.save_times));
    CHECK(read.saved_variables == written.saved_variables);
    CHECK(same_bits(read.saved, written.saved));
    CHECK(read.counter_names == written.counter_names);
    CHECK(read.saved_counters == written.saved_counters);
    CHECK(same_bits(read.window_ends, written.window_ends));
    CHECK(read.summary_legend == written.summary_legend);
    CHECK(same_bits(read.summaries, written.summaries));
    CHECK(read.event_names == written.event_names);
    CHECK(read.event_counts == written.event_counts);
    CHECK(read.event_record_names == written.event_record_names);
    CHECK(same_bits(read.event_times, written.event_times));
    CHECK(same_bits(read.event_states, written.event_states));
}

/// A table of a row per trajectory and time (trajectory-major): the trajectory, the time,
/// then the fields check_fields(row, time index, trajectory) checks.
template <class T, class CheckFields>
void check_time_table(const fs::path& path, const std::vector<std::string>& header,
                      const std::vector<T>& times, std::size_t n, CheckFields check_fields) {
    const csv_table table = read_csv(path);
    CHECK(table.header == header);
    REQUIRE(table.rows.size() == n * times.size());
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < times.size(); ++k) {
            const std::vector<std::string>& row = table.rows[i * times.size() + k];
            CHECK(parse_csv_number<std::size_t>(row[0]) == i);
            CHECK(same_value(parse_csv_number<T>(row[1]), times[k]));
            check_fields(row, k, i);
        }
    }
}

/// The error message of what throwing f throws, or "" when it does not.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

bool mentions(const std::string& message, const fs::path& path) {
    return message.find(path.string()) != std::string::npos;
}

/// An .npy file with a header written by hand.
std::string npy_file(char major, const std::string& dict, const std::string& data) {
    std::string bytes = "\x93NUMPY";
    bytes += major;
    bytes += '\0';
    const std::size_t length = dict.size();
    bytes += static_cast<char>(length & 0xff);
    bytes += static_cast<char>(length >> 8);
    if (major != 1) bytes += std::string(2, '\0');
    return bytes + dict + data;
}

}  // namespace

TEST_CASE("npy header: exact dict text, padded with spaces to a 64-byte boundary") {
    scratch_directory scratch("npy-header");
    const fs::path path = scratch.path() / "a.npy";
    const std::vector<double> values = {1, 2, 3, 4, 5, 0.1};
    write_npy<double>(path, values, {2, 3});

    const std::string bytes = file_bytes(path);
    const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
    REQUIRE(bytes.size() == 128 + sizeof values[0] * values.size());
    CHECK(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
    CHECK(static_cast<unsigned char>(bytes[8]) == 118);
    CHECK(bytes[9] == '\0');
    CHECK(bytes.substr(10, dict.size()) == dict);
    CHECK(bytes.substr(10 + dict.size(), 127 - 10 - dict.size()) ==
          std::string(127 - 10 - dict.size(), ' '));
    CHECK(bytes[127] == '\n');
    CHECK(std::memcmp(bytes.data() + 128, values.data(), sizeof values[0] * values.size()) == 0);
}

TEST_CASE("npy header: shapes of every rank as Python writes tuples, data always aligned") {
    scratch_directory scratch("npy-ranks");
    CHECK(shape_text(std::vector<std::size_t>{}) == "()");
    CHECK(shape_text(std::vector<std::size_t>{3}) == "(3,)");
    CHECK(shape_text(std::vector<std::size_t>{4, 0, 2}) == "(4, 0, 2)");
    std::vector<std::size_t> shape;
    for (std::size_t rank = 0; rank <= 24; ++rank) {
        CAPTURE(rank);
        const fs::path path = scratch.path() / ("rank" + std::to_string(rank) + ".npy");
        const std::vector<std::uint8_t> values(*element_count(shape), 7);
        write_npy<std::uint8_t>(path, values, shape);
        const std::string bytes = file_bytes(path);
        const std::size_t header =
            10 + (static_cast<unsigned char>(bytes[8]) |
                  static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
        const std::string dict =
            "{'descr': '|u1', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
        CHECK(header % 64 == 0);
        CHECK(header - 10 - dict.size() - 1 < 64);  // no more padding than needed
        CHECK(bytes.substr(10, dict.size()) == dict);
        CHECK(bytes[header - 1] == '\n');
        CHECK(bytes.size() == header + values.size());
        const shaped_array<std::uint8_t> read = read_npy<std::uint8_t>(path);
        CHECK(read.shape == shape);
        CHECK(read.data == values);
        shape.push_back(rank % 3 + 1);
    }
}

TEST_CASE("npy strings: fixed-width UTF-32 '<U' arrays, read back to UTF-8") {
    scratch_directory scratch("npy-strings");
    const fs::path path = scratch.path() / "names.npy";
    const std::vector<std::string> names = {"x", "θ", "energy", "", "日本", "😀,\"q\""};
    write_npy<std::string>(path, names, {names.size()});

    const std::string bytes = file_bytes(path);
    CHECK(bytes.find("{'descr': '<U6', 'fortran_order': False, 'shape': (6,), }") == 10);
    REQUIRE(bytes.size() == 128 + names.size() * 6 * 4);
    char32_t theta[6];
    std::memcpy(theta, bytes.data() + 128 + 6 * 4, sizeof theta);
    CHECK(theta[0] == U'\u03b8');
    for (int k = 1; k < 6; ++k) CHECK(theta[k] == 0);

    const shaped_array<std::string> read = read_npy<std::string>(path);
    CHECK(read.shape == std::vector<std::size_t>{names.size()});
    CHECK(read.data == names);

    const std::vector<std::string> empty = {""};  // NumPy's narrowest: '<U1'
    write_npy<std::string>(path, empty, {1});
    CHECK(file_bytes(path).find("'<U1'") != std::string::npos);
    CHECK(read_npy<std::string>(path).data == empty);
}

TEST_CASE_TEMPLATE("npy numbers round-trip bit for bit", T, float, double, std::uint8_t,
                   std::uint32_t, std::int64_t, status) {
    scratch_directory scratch("npy-numbers");
    const fs::path path = scratch.path() / "values.npy";
    std::vector<T> values;
    if constexpr (std::is_floating_point_v<T>) {
        using limits = std::numeric_limits<T>;
        values = {T(0.1),
                  T(-0.0),
                  limits::quiet_NaN(),
                  limits::infinity(),
                  -limits::max(),
                  limits::denorm_min(),
                  limits::min(),
                  T(1) / T(3)};
    } else if constexpr (std::is_enum_v<T>) {
        values = {status::success, status::max_steps_exceeded, status::nonfinite_input,
                  status::nonfinite_state};
    } else {
        values = {0,
                  1,
                  std::numeric_limits<T>::max(),
                  std::numeric_limits<T>::min(),
                  42,
                  T(std::numeric_limits<T>::max() - 1),
                  7,
                  9};
    }
    write_npy<T>(path, values, {2, values.size() / 2});
    const shaped_array<T> read = read_npy<T>(path);
    CHECK(read.shape == std::vector<std::size_t>{2, values.size() / 2});
    CHECK(same_bits(read.data, values));
    CHECK(file_bytes(path).find("'" + npy_descr<T>() + "'") == 20);
}

TEST_CASE("npy descriptors of the result's element types") {
    CHECK(npy_descr<float>() == "<f4");
    CHECK(npy_descr<double>() == "<f8");
    CHECK(npy_descr<std::uint32_t>() == "<u4");
    CHECK(npy_descr<std::uint8_t>() == "|u1");
    CHECK(npy_descr<status>() == "|u1");
    CHECK(npy_descr<std::int16_t>() == "<i2");
}

TEST_CASE("npy reads what NumPy may write: other key order, version 2.0, spaces") {
    scratch_directory scratch("npy-numpy");
    const fs::path path = scratch.path() / "numpy.npy";
    const std::vector<float> values = {1.5f, -2.0f, 3.25f};
    const std::string data(reinterpret_cast<const char*>(values.data()), sizeof(float) * 3);
    std::string dict = "{'shape': (3, ), 'fortran_order': False, 'descr': '<f4'}";
    dict += std::string(128 - 12 - dict.size() - 1, ' ') + "\n";
    write_bytes(path, npy_file(2, dict, data));
    const shaped_array<float> read = read_npy<float>(path);
    CHECK(read.shape == std::vector<std::size_t>{3});
    CHECK(read.data == values);
}

TEST_CASE("npy errors name the file and say what is wrong") {
    scratch_directory scratch("npy-errors");
    const fs::path path = scratch.path() / "a.npy";
    const std::vector<double> values = {1, 2, 3, 4};
    write_npy<double>(path, values, {4});

    const fs::path missing = scratch.path() / "missing.npy";
    std::string message = error_of([&] { read_npy<double>(missing); });
    CHECK(mentions(message, missing));
    CHECK(message.find("cannot open") != std::string::npos);

    message = error_of([&] { read_npy<float>(path); });
    CHECK(mentions(message, path));
    CHECK(message.find("holds '<f8' values, expected '<f4'") != std::string::npos);
    CHECK(mentions(error_of([&] { read_npy<std::string>(path); }), path));

    fs::resize_file(path, fs::file_size(path) - 1);
    message = error_of([&] { read_npy<double>(path); });
    CHECK(mentions(message, path));
    CHECK(message.find("does not match") != std::string::npos);

    write_bytes(path, "x,y\n1,2\n");
    message = error_of([&] { read_npy<double>(path); });
    CHECK(mentions(message, path));
    CHECK(message.find("not an .npy file") != std::string::npos);

    write_bytes(path, npy_file(1, "{'descr': '<f8', 'fortran_order': True, 'shape': (1,), }\n",
                               std::string(8, '\0')));
    CHECK(error_of([&] { read_npy<double>(path); }).find("Fortran") != std::string::npos);
    write_bytes(path, npy_file(1, "{'descr': '<f8', 'shape': (1,), }\n", std::string(8, '\0')));
    CHECK(error_of([&] { read_npy<double>(path); }).find("malformed") != std::string::npos);
    write_bytes(path, npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }",
                               std::string(8, '\0'))
                          .substr(0, 30));
    CHECK(error_of([&] { read_npy<double>(path); }).find("ends inside the header") !=
          std::string::npos);

    const fs::path no_folder = scratch.path() / "no" / "such" / "folder.npy";
    message = error_of([&] { write_npy<double>(no_folder, values, {4}); });
    CHECK(mentions(message, no_folder));
    CHECK(message.find("cannot open for writing") != std::string::npos);
    message = error_of([&] { write_npy<double>(path, values, {3}); });
    CHECK(message.find("4 values do not fill shape (3,)") != std::string::npos);
    const std::vector<std::string> not_utf8 = {"ok", "\xff"};
    message = error_of([&] { write_npy<std::string>(path, not_utf8, {2}); });
    CHECK(message.find("string 1 is not valid UTF-8") != std::string::npos);
}

TEST_CASE_TEMPLATE("csv numbers: the shortest text that reads back as the same value", T, float,
                   double) {
    using limits = std::numeric_limits<T>;
    for (const T value : {T(0.1), T(1) / T(3), T(-0.0), limits::max(), limits::lowest(),
                          limits::denorm_min(), limits::min(), limits::epsilon(),
                          limits::infinity(), -limits::infinity(), T(1e-7), T(123456789)}) {
        CAPTURE(value);
        CHECK(same_value(parse_csv_number<T>(csv_number(value)), value));
    }
    CHECK(csv_number(T(0.1)) == "0.1");
    CHECK(csv_number(limits::quiet_NaN()) == "nan");
    CHECK(csv_number(unrecorded_nan<T>()) == "nan");  // its sign bit set
    CHECK(csv_number(-limits::quiet_NaN()) == "nan");
    CHECK(std::isnan(parse_csv_number<T>("nan")));
    CHECK(csv_number(limits::infinity()) == "inf");
    CHECK(csv_number(std::uint32_t{4000000000u}) == "4000000000");
    CHECK_THROWS_AS(parse_csv_number<T>("0.1x"), std::invalid_argument);
    CHECK_THROWS_AS(parse_csv_number<T>(""), std::invalid_argument);
}

TEST_CASE("csv fields with commas, quotes and line breaks are quoted and read back") {
    scratch_directory scratch("csv-fields");
    const fs::path path = scratch.path() / "t.csv";
    const std::vector<std::string> header = {"name", "value"};
    const std::vector<std::string> names = {"plain", "a,b", "say \"hi\"", "two\nlines", ""};
    csv_writer out(path);
    out.field(header[0]).field(header[1]).end_row();
    for (std::size_t i = 0; i < names.size(); ++i) out.field(names[i]).field(i).end_row();
    out.close();
    CHECK(file_bytes(path).find("\"say \"\"hi\"\"\",2\n") != std::string::npos);

    const csv_table table = read_csv(path);
    CHECK(table.header == header);
    REQUIRE(table.rows.size() == names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        CHECK(table.rows[i][table.column("name")] == names[i]);
        CHECK(parse_csv_number<std::size_t>(table.rows[i][1]) == i);
    }
    CHECK_THROWS_AS(table.column("missing"), std::out_of_range);
}

TEST_CASE("csv errors name the file") {
    scratch_directory scratch("csv-errors");
    const fs::path path = scratch.path() / "t.csv";
    write_bytes(path, "a,b\n1,\"2\n");
    std::string message = error_of([&] { read_csv(path); });
    CHECK(mentions(message, path));
    CHECK(message.find("not closed") != std::string::npos);
    write_bytes(path, "a,b\n1,2\n3\n");
    message = error_of([&] { read_csv(path); });
    CHECK(mentions(message, path));
    CHECK(message.find("row 2 has 1 fields") != std::string::npos);
    write_bytes(path, "a,b\r\n1,2");  // CRLF, and no line break at the end
    CHECK(read_csv(path).rows == std::vector<std::vector<std::string>>{{"1", "2"}});

    const fs::path no_folder = scratch.path() / "no" / "t.csv";
    CHECK(mentions(error_of([&] { csv_writer{no_folder}; }), no_folder));
    CHECK(mentions(error_of([&] { read_csv(no_folder); }), no_folder));
}

TEST_CASE_TEMPLATE("npy result: an .npy file per array and legend, read back bit for bit", T, float,
                   double) {
    scratch_directory scratch("npy-result");
    const fs::path folder = scratch.path() / "made" / "here";
    const batch_result<T> r = example_result<T>();
    write_result(r, folder, result_format::npy);

    for (const char* name :
         {"final_states",    "state_names",       "initial_states",     "parameters",
          "parameter_names", "statuses",          "status_names",       "accepted_steps",
          "rejected_steps",  "newton_iterations", "linear_iterations",  "save_times",
          "saved",           "saved_variables",   "saved_counters",     "counter_names",
          "window_ends",     "summaries",         "summary_legend",     "event_counts",
          "event_names",     "event_times",       "event_record_names", "event_states"}) {
        CAPTURE(name);
        CHECK(fs::exists(folder / (std::string(name) + ".npy")));
    }
    CHECK(read_npy<T>(folder / "saved.npy").shape == std::vector<std::size_t>{4, 3, 3});
    CHECK(read_npy<T>(folder / "final_states.npy").shape == std::vector<std::size_t>{2, 3});
    CHECK(read_npy<std::uint32_t>(folder / "saved_counters.npy").shape ==
          std::vector<std::size_t>{4, 2, 3});
    CHECK(read_npy<T>(folder / "summaries.npy").shape == std::vector<std::size_t>{2, 3, 3});
    CHECK(read_npy<std::uint32_t>(folder / "event_counts.npy").shape ==
          std::vector<std::size_t>{2, 3});
    CHECK(read_npy<T>(folder / "event_times.npy").shape == std::vector<std::size_t>{3, 3});
    CHECK(read_npy<T>(folder / "event_states.npy").shape == std::vector<std::size_t>{3, 2, 3});
    CHECK(read_npy<std::string>(folder / "event_record_names.npy").data == r.event_record_names);
    CHECK(read_npy<std::uint8_t>(folder / "statuses.npy").data ==
          std::vector<std::uint8_t>{0, 0, 3});
    CHECK(read_npy<std::string>(folder / "saved_variables.npy").data == r.saved_variables);
    CHECK(read_npy<T>(folder / "parameters.npy").shape == std::vector<std::size_t>{2, 3});
    CHECK(read_npy<std::string>(folder / "parameter_names.npy").data ==
          std::vector<std::string>{"k", "ω"});
    // The statuses' legend names every code, at its code.
    const std::vector<std::string> legend = read_npy<std::string>(folder / "status_names.npy").data;
    REQUIRE(legend.size() == static_cast<std::size_t>(status::terminated_by_event) + 1);
    for (std::size_t code = 0; code < legend.size(); ++code)
        CHECK(legend[code] == to_string(static_cast<status>(code)));

    check_same_arrays(read_result_npy<T>(folder), r);
}

TEST_CASE_TEMPLATE("csv result: tidy tables, values to the last bit, statuses by name", T, float,
                   double) {
    scratch_directory scratch("csv-result");
    const batch_result<T> r = example_result<T>();
    write_result(r, scratch.path(), result_format::csv);
    const std::size_t n = r.n_trajectories;

    const csv_table final_table = read_csv(scratch.path() / "final.csv");
    CHECK(final_table.header == std::vector<std::string>{"trajectory", "status", "x", "θ",
                                                         "accepted_steps", "rejected_steps",
                                                         "newton_iterations", "linear_iterations",
                                                         "hit.count", "turn.count"});
    REQUIRE(final_table.rows.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto& row = final_table.rows[i];
        CHECK(parse_csv_number<std::size_t>(row[0]) == i);
        CHECK(row[1] == to_string(r.statuses[i]));
        for (int s = 0; s < r.n_states; ++s)
            CHECK(same_value(parse_csv_number<T>(row[2 + s]), r.final_state(s, i)));
        CHECK(parse_csv_number<std::uint32_t>(row[4]) == r.accepted_steps[i]);
        CHECK(parse_csv_number<std::uint32_t>(row[5]) == r.rejected_steps[i]);
        CHECK(parse_csv_number<std::uint32_t>(row[6]) == r.newton_iterations[i]);
        CHECK(parse_csv_number<std::uint32_t>(row[7]) == r.linear_iterations[i]);
        CHECK(parse_csv_number<std::uint32_t>(row[8]) == r.event_count("hit", i));
        CHECK(parse_csv_number<std::uint32_t>(row[9]) == r.event_count("turn", i));
    }
    CHECK(final_table.rows[2][1] == "nonfinite_state");
    CHECK(final_table.rows[2][2] == "nan");

    const csv_table inputs = read_csv(scratch.path() / "inputs.csv");
    CHECK(inputs.header == std::vector<std::string>{"trajectory", "x", "θ", "k", "ω"});
    REQUIRE(inputs.rows.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(parse_csv_number<std::size_t>(inputs.rows[i][0]) == i);
        for (std::size_t v = 0; v < 2; ++v) {
            CHECK(same_value(parse_csv_number<T>(inputs.rows[i][1 + v]),
                             r.initial_states[v * n + i]));
            CHECK(same_value(parse_csv_number<T>(inputs.rows[i][3 + v]), r.parameters[v * n + i]));
        }
    }

    check_time_table(
        scratch.path() / "series.csv",
        {"trajectory", "time", "x", "θ", "energy", "accepted_steps", "rejected_steps"},
        r.save_times, n, [&](const auto& row, std::size_t k, std::size_t i) {
            for (std::size_t v = 0; v < 3; ++v)
                CHECK(same_value(parse_csv_number<T>(row[2 + v]), r.saved_value(k, v, i)));
            for (std::size_t c = 0; c < 2; ++c)
                CHECK(parse_csv_number<std::uint32_t>(row[5 + c]) == r.saved_counter(k, c, i));
        });
    check_time_table(
        scratch.path() / "summaries.csv", {"trajectory", "window_end", "x.mean", "x.max", "θ.rms"},
        r.window_ends, n, [&](const auto& row, std::size_t w, std::size_t i) {
            for (std::size_t s = 0; s < 3; ++s)
                CHECK(same_value(parse_csv_number<T>(row[2 + s]), r.summary_value(w, s, i)));
        });

    // A row per kept occurrence: hit twice and once, turn once each for the last two.
    const csv_table events = read_csv(scratch.path() / "events.csv");
    CHECK(events.header ==
          std::vector<std::string>{"trajectory", "event", "occurrence", "time", "x", "θ"});
    const std::vector<std::tuple<std::size_t, std::string, std::size_t>> kept = {
        {0, "hit", 0}, {0, "hit", 1}, {1, "hit", 0}, {1, "turn", 0}, {2, "turn", 0}};
    REQUIRE(events.rows.size() == kept.size());
    for (std::size_t row = 0; row < kept.size(); ++row) {
        const auto& [i, event, k] = kept[row];
        const std::vector<std::string>& fields = events.rows[row];
        CHECK(parse_csv_number<std::size_t>(fields[0]) == i);
        CHECK(fields[1] == event);
        CHECK(parse_csv_number<std::size_t>(fields[2]) == k);
        CHECK(same_value(parse_csv_number<T>(fields[3]), r.event_time(event, k, i)));
        for (int s = 0; s < 2; ++s)
            CHECK(same_value(parse_csv_number<T>(fields[4 + static_cast<std::size_t>(s)]),
                             r.event_state(event, k, s, i)));
    }
}

TEST_CASE("a result without saves or summaries writes only what it has, and clears the rest") {
    scratch_directory scratch("bare-result");
    batch_result<double> bare = example_result<double>();
    for (auto* legend : {&bare.saved_variables, &bare.counter_names, &bare.summary_legend,
                         &bare.event_names, &bare.event_record_names})
        legend->clear();
    bare.event_counts.clear();
    bare.event_times.clear();
    bare.event_states.clear();
    bare.newton_iterations.clear();
    bare.linear_iterations.clear();
    bare.save_times.clear();
    bare.saved.clear();
    bare.saved_counters.clear();
    bare.window_ends.clear();
    bare.summaries.clear();
    bare.initial_states.clear();
    bare.parameters.clear();
    bare.parameter_names.clear();

    for (const result_format format : {result_format::csv, result_format::npy}) {
        const fs::path folder = scratch.path() / (format == result_format::csv ? "csv" : "npy");
        write_result(example_result<double>(), folder, format);
        write_result(bare, folder, format);
        std::vector<std::string> files;
        for (const auto& entry : fs::directory_iterator(folder))
            files.push_back(entry.path().filename().string());
        std::sort(files.begin(), files.end());
        CHECK(files == (format == result_format::csv
                            ? std::vector<std::string>{"final.csv"}
                            : std::vector<std::string>{"accepted_steps.npy", "final_states.npy",
                                                       "rejected_steps.npy", "state_names.npy",
                                                       "status_names.npy", "statuses.npy"}));
    }
    check_same_arrays(read_result_npy<double>(scratch.path() / "npy"), bare);
}

TEST_CASE("a result with saved variables but no saves keeps their legend") {
    scratch_directory scratch("no-saves");
    batch_result<float> r = example_result<float>();
    r.save_times.clear();
    r.saved.clear();
    r.saved_counters.clear();
    write_result(r, scratch.path(), result_format::npy);
    CHECK(read_npy<float>(scratch.path() / "saved.npy").shape == std::vector<std::size_t>{0, 3, 3});
    CHECK(read_npy<float>(scratch.path() / "save_times.npy").shape == std::vector<std::size_t>{0});
    check_same_arrays(read_result_npy<float>(scratch.path()), r);
}

TEST_CASE("result files: bad paths and inconsistent results are clear errors") {
    scratch_directory scratch("result-errors");
    const batch_result<double> r = example_result<double>();
    const fs::path file = scratch.path() / "a_file";
    write_bytes(file, "not a folder");
    for (const result_format format : {result_format::csv, result_format::npy}) {
        const std::string message = error_of([&] { write_result(r, file, format); });
        CHECK(mentions(message, file));
        CHECK_THROWS_AS(write_result(r, file, format), std::runtime_error);
    }
    const fs::path below_file = file / "out";
    CHECK(mentions(error_of([&] { write_result(r, below_file, result_format::npy); }), below_file));

    batch_result<double> broken = r;
    broken.saved.pop_back();
    std::string message =
        error_of([&] { write_result(broken, scratch.path() / "broken", result_format::npy); });
    CHECK(message.find("saved holds 35 values, its sizes and legends make it (4, 3, 3)") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(scratch.path() / "broken"));
    broken = r;
    broken.summary_legend.clear();
    CHECK(error_of([&] {
              write_result(broken, scratch.path(), result_format::csv);
          }).find("summaries holds 18 values but summary_legend is empty") != std::string::npos);
    broken = r;
    broken.state_names.pop_back();
    CHECK_THROWS_AS(write_result(broken, scratch.path(), result_format::csv),
                    std::invalid_argument);

    // A legend that does not match its array's file.
    write_result(r, scratch.path() / "npy", result_format::npy);
    const std::vector<std::string> two = {"x", "y"};
    write_npy<std::string>(scratch.path() / "npy" / "saved_variables.npy", two, {2});
    message = error_of([&] { read_result_npy<double>(scratch.path() / "npy"); });
    CHECK(mentions(message, scratch.path() / "npy" / "saved.npy"));
    CHECK(message.find("has shape (4, 3, 3), its legends make it (4, 2, 3)") != std::string::npos);
    fs::remove(scratch.path() / "npy" / "statuses.npy");
    CHECK(mentions(error_of([&] { read_result_npy<double>(scratch.path() / "npy"); }),
                   scratch.path() / "npy" / "statuses.npy"));
}

#if CUBIE_WITH_HDF5

TEST_CASE("hdf5 file: datasets with their shape, string and number attributes") {
    scratch_directory scratch("hdf5-file");
    const fs::path path = scratch.path() / "f.h5";
    const std::vector<double> values = {0.1,    -0.0, std::numeric_limits<double>::quiet_NaN(),
                                        1e-310, 5,    6};
    const std::vector<status> codes = {status::success, status::step_size_underflow};
    const std::vector<std::string> names = {"x", "θ", ""};
    const std::uint64_t big = std::uint64_t{1} << 40;
    {
        hdf5_file file = hdf5_file::create(path);
        file.write_dataset<double>("values", values, {3, 2});
        file.write_dataset<status>("codes", codes, {2});
        file.write_dataset<double>("one", std::span(values).first(1), {});
        file.write_strings_attribute("values", "names", names);
        file.write_string_attribute("/", "backend", "cuda:NVIDIA H100");
        file.write_number_attribute<std::uint64_t>("/", "count", big);
        file.close();
    }
    const hdf5_file file = hdf5_file::open(path);
    const shaped_array<double> read = file.read_dataset<double>("values");
    CHECK(read.shape == std::vector<std::size_t>{3, 2});
    CHECK(same_bits(read.data, values));
    CHECK(same_bits(file.read_dataset<status>("codes").data, codes));
    CHECK(file.read_dataset<double>("one").shape.empty());
    CHECK(file.read_dataset<double>("one").data == std::vector<double>{0.1});
    CHECK(file.read_strings_attribute("values", "names") == names);
    CHECK(file.read_string_attribute("/", "backend") == "cuda:NVIDIA H100");
    CHECK(file.read_number_attribute<std::uint64_t>("/", "count") == big);
    CHECK(file.contains("values"));
    CHECK_FALSE(file.contains("missing"));
}

TEST_CASE("hdf5 errors name the call, the object and the file") {
    scratch_directory scratch("hdf5-errors");
    const fs::path path = scratch.path() / "f.h5";
    const std::vector<float> values = {1, 2};
    {
        hdf5_file file = hdf5_file::create(path);
        file.write_dataset<float>("values", values, {2});
        const std::string message =
            error_of([&] { file.write_dataset<float>("values", values, {2}); });
        CHECK(message.find("H5Dcreate2 failed for dataset \"values\" of " + path.string()) !=
              std::string::npos);
        CHECK(error_of([&] {
                  file.write_dataset<float>("short", values, {3});
              }).find("2 values do not fill shape (3,)") != std::string::npos);
        file.write_string_attribute("values", "unit", "m");
        file.close();
    }
    const hdf5_file file = hdf5_file::open(path);
    std::string message = error_of([&] { file.read_dataset<float>("missing"); });
    CHECK(message.find("H5Dopen2 failed for dataset \"missing\" of " + path.string()) !=
          std::string::npos);
    message = error_of([&] { file.read_dataset<double>("values"); });
    CHECK(message.find("does not hold float64 values") != std::string::npos);
    CHECK(mentions(message, path));
    message = error_of([&] { file.read_strings_attribute("values", "unit"); });
    CHECK(message.find("attribute \"unit\" of \"values\"") != std::string::npos);
    CHECK(message.find("expected a 1-D array") != std::string::npos);
    CHECK(error_of([&] {
              file.read_number_attribute<std::uint64_t>("values", "unit");
          }).find("is not one uint64 value") != std::string::npos);
    CHECK(error_of([&] {
              file.read_string_attribute("values", "none");
          }).find("H5Aopen_by_name failed") != std::string::npos);

    const fs::path missing = scratch.path() / "missing.h5";
    message = error_of([&] { hdf5_file::open(missing); });
    CHECK(message.find("H5Fopen failed for " + missing.string()) != std::string::npos);
    const fs::path not_hdf5 = scratch.path() / "text.h5";
    write_bytes(not_hdf5, "plain text\n");
    CHECK(mentions(error_of([&] { hdf5_file::open(not_hdf5); }), not_hdf5));
}

TEST_CASE_TEMPLATE("hdf5 result: a dataset per array, legends as attributes, bit for bit", T, float,
                   double) {
    scratch_directory scratch("hdf5-result");
    const fs::path path = scratch.path() / "folder" / "result.h5";
    const batch_result<T> r = example_result<T>();
    write_result(r, path, result_format::hdf5);

    const hdf5_file file = hdf5_file::open(path);
    CHECK(file.read_dataset<T>("saved").shape == std::vector<std::size_t>{4, 3, 3});
    CHECK(file.read_dataset<std::uint8_t>("statuses").data == std::vector<std::uint8_t>{0, 0, 3});
    CHECK(file.read_strings_attribute("saved", "variables") == r.saved_variables);
    CHECK(file.read_strings_attribute("final_states", "states") == r.state_names);
    CHECK(file.read_strings_attribute("saved_counters", "counters") == r.counter_names);
    CHECK(file.read_strings_attribute("summaries", "rows") == r.summary_legend);
    CHECK(file.read_strings_attribute("event_counts", "events") == r.event_names);
    CHECK(file.read_strings_attribute("event_times", "records") == r.event_record_names);
    CHECK(file.read_strings_attribute("event_states", "states") == r.state_names);
    CHECK(file.read_dataset<T>("event_states").shape == std::vector<std::size_t>{3, 2, 3});
    CHECK(file.read_strings_attribute("parameters", "parameters") == r.parameter_names);
    CHECK(file.read_strings_attribute("initial_states", "states") == r.state_names);
    CHECK(file.read_strings_attribute("statuses", "status_names") == status_legend());
    CHECK(file.read_number_attribute<std::uint64_t>("/", "n_trajectories") == 3);
    CHECK(file.read_string_attribute("/", "backend") == "host");

    const batch_result<T> read = read_result_hdf5<T>(path);
    check_same_arrays(read, r);
    CHECK(read.backend == r.backend);

    // The folder it would go in is a file.
    CHECK(mentions(error_of([&] { write_result(r, path / "result.h5", result_format::hdf5); }),
                   path));
}

#endif

TEST_CASE("kept inputs must match the result, and a status legend must match the library's") {
    scratch_directory scratch("inputs-and-legend");
    batch_result<double> r = example_result<double>();
    const std::vector<double> two = {1, 2};
    CHECK_THROWS_AS(r.keep_inputs({1, two, two}, {"k", "ω"}), std::invalid_argument);
    CHECK_THROWS_AS(r.keep_inputs({3, r.initial_states, r.parameters}, {"k"}),
                    std::invalid_argument);

    write_result(r, scratch.path(), result_format::npy);
    std::vector<std::string> renumbered = status_legend();
    std::swap(renumbered[1], renumbered[2]);
    write_npy<std::string>(scratch.path() / "status_names.npy", renumbered, {renumbered.size()});
    CHECK(error_of([&] {
              read_result_npy<double>(scratch.path());
          }).find("the status codes are not this library's") != std::string::npos);
}

TEST_CASE("result files for the numpy and h5py check") {
    // Where the ctest fixture asks for them (reference/check_result_files.py reads them),
    // else in a scratch folder.
    scratch_directory scratch("python-check");
    const char* requested = std::getenv("CUBIE_RESULT_FILES_DIR");
    const fs::path root = requested ? fs::path(requested) : scratch.path();
    const auto write_all = [&](const auto& r, const fs::path& folder) {
        write_result(r, folder / "npy", result_format::npy);
        write_result(r, folder / "csv", result_format::csv);
        if constexpr (hdf5_available) write_result(r, folder / "result.h5", result_format::hdf5);
    };
    write_all(example_result<float>(), root / "float");
    write_all(example_result<double>(), root / "double");
    check_same_arrays(read_result_npy<float>(root / "float" / "npy"), example_result<float>());
    check_same_arrays(read_result_npy<double>(root / "double" / "npy"), example_result<double>());
}
