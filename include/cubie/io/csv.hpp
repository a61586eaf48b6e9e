#pragma once
// Comma-separated tables (RFC 4180) that pandas, R and spreadsheets read directly.
//
// Numbers are written in the shortest form that reads back as the same value
// (std::to_chars), so a float or double survives the trip through text exactly; NaN and
// infinities are written "nan", "inf" and "-inf", which pandas reads as such. A field
// holding a comma, a quote or a line break is quoted.
//
//   csv_writer out(path);
//   out.field("trajectory").field("x").end_row();
//   out.field(0).field(0.1).end_row();
//   out.close();  // throws if anything failed to reach the file
//
// read_csv(path) reads such a table back (a header line, then rows of as many fields),
// and parse_csv_number<T>(field) its numbers.

#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace cubie {

/// Numbers a table holds: std::to_chars and std::from_chars take every one but bool.
template <class T>
concept csv_arithmetic = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

/// The shortest text that reads back as value; "nan" for every NaN, whatever its sign and
/// payload (what a trajectory never recorded holds has its sign bit set:
/// core/unrecorded_nan.hpp).
template <csv_arithmetic T>
std::string csv_number(T value) {
    if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(value)) return "nan";
    char text[64];
    const auto [end, error] = std::to_chars(std::begin(text), std::end(text), value);
    if (error != std::errc()) throw std::logic_error("csv_number: buffer too short");
    return std::string(text, end);
}

/// The number a whole field holds, as csv_number writes it; throws std::invalid_argument
/// naming the field otherwise.
template <csv_arithmetic T>
T parse_csv_number(std::string_view field) {
    T value{};
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (error != std::errc() || end != field.data() + field.size())
        throw std::invalid_argument("\"" + std::string(field) + "\" is not a number of this type");
    return value;
}

/// Writes a table row by row; every write is checked.
class csv_writer {
public:
    explicit csv_writer(std::filesystem::path path) : path_(std::move(path)), out_(path_) {
        if (!out_) throw std::runtime_error(path_.string() + ": cannot open for writing");
    }

    csv_writer& field(std::string_view text) {
        separate();
        if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
            out_ << text;
        } else {
            out_ << '"';
            for (const char c : text) out_ << (c == '"' ? "\"\"" : std::string_view(&c, 1));
            out_ << '"';
        }
        return check();
    }
    template <csv_arithmetic T>
    csv_writer& field(T number) {
        separate();
        out_ << csv_number(number);
        return check();
    }
    csv_writer& end_row() {
        out_ << '\n';
        first_in_row_ = true;
        return check();
    }
    /// Flushes and closes the file; throws if that failed.
    void close() {
        out_.close();
        check();
    }

private:
    void separate() {
        if (!first_in_row_) out_ << ',';
        first_in_row_ = false;
    }
    csv_writer& check() {
        if (!out_) throw std::runtime_error(path_.string() + ": write failed");
        return *this;
    }

    std::filesystem::path path_;
    std::ofstream out_;
    bool first_in_row_ = true;
};

struct csv_table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;

    /// Index of the column called name; throws std::out_of_range when there is none.
    std::size_t column(std::string_view name) const {
        for (std::size_t i = 0; i < header.size(); ++i)
            if (header[i] == name) return i;
        throw std::out_of_range("no column \"" + std::string(name) + "\"");
    }
};

/// Reads a table with a header line; throws std::runtime_error naming the file when it
/// cannot be read, a quote is not closed, or a row has not as many fields as the header.
inline csv_table read_csv(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open for reading");
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) throw std::runtime_error(path.string() + ": read failed");

    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false;
    const auto end_field = [&] { record.push_back(std::exchange(field, {})); };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c != '"') {
                field += c;
            } else if (i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else {
                quoted = false;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            end_field();
        } else if (c == '\n' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
            if (c == '\r') ++i;
            end_field();
            records.push_back(std::exchange(record, {}));
        } else {
            field += c;
        }
    }
    if (quoted) throw std::runtime_error(path.string() + ": a quoted field is not closed");
    if (!field.empty() || !record.empty()) {  // a last line without its line break
        end_field();
        records.push_back(std::move(record));
    }
    if (records.empty()) throw std::runtime_error(path.string() + ": no header line");

    csv_table table{std::move(records.front()), {}};
    for (std::size_t r = 1; r < records.size(); ++r) {
        if (records[r].size() != table.header.size())
            throw std::runtime_error(path.string() + ": row " + std::to_string(r) + " has " +
                                     std::to_string(records[r].size()) + " fields, the header " +
                                     std::to_string(table.header.size()));
        table.rows.push_back(std::move(records[r]));
    }
    return table;
}

}  // namespace cubie
