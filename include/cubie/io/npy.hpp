#pragma once
// NumPy's .npy array files, version 1.0, which numpy.load reads without allow_pickle.
//
//   "\x93NUMPY" 1 0 | header length (uint16, little-endian) | header | data
//
// The header is the text of a Python dict,
//   {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and ended by a newline so that the data starts on a 64-byte
// boundary. Numbers are stored little-endian ('<f4', '<f8', '<u4', '|u1', ...); strings
// as fixed-width UTF-32 ('<U<width>', zero-padded), NumPy's own string arrays.
//
//   write_npy<double>(path, values, {n_states, n_trajectories});
//   const shaped_array<double> a = read_npy<double>(path);
//
// Both throw std::runtime_error naming the file on an I/O error, a malformed file, or a
// file whose element type or size is not what was asked for.

#include <algorithm>
#include <array>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "cubie/io/shaped_array.hpp"

namespace cubie {

/// What an .npy file holds here: numbers (and enumerations over them) or strings.
template <class T>
concept npy_element = array_element<T> || std::same_as<T, std::string>;

/// NumPy's type descriptor of a number: '<f8', '<u4', '|u1' ('|': one byte has no order).
template <array_element T>
std::string npy_descr() {
    using number = stored_number_t<T>;
    const char kind = std::floating_point<number> ? 'f' : std::is_signed_v<number> ? 'i' : 'u';
    return {sizeof(number) == 1 ? '|' : '<', kind, static_cast<char>('0' + sizeof(number))};
}

namespace detail {

inline constexpr std::string_view npy_magic = "\x93NUMPY";
inline constexpr std::size_t npy_alignment = 64;

[[noreturn]] inline void npy_fail(const std::filesystem::path& path, const std::string& what) {
    throw std::runtime_error(path.string() + ": " + what);
}

/// The version 1.0 preamble and header of an array, padded to the alignment.
inline std::string npy_header(std::string_view descr, std::span<const std::size_t> shape) {
    std::string dict = "{'descr': '";
    dict += descr;
    dict += "', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
    const std::size_t preamble = npy_magic.size() + 4;  // magic, version, header length
    const std::size_t unpadded = preamble + dict.size() + 1;
    const std::size_t length =
        (unpadded + npy_alignment - 1) / npy_alignment * npy_alignment - preamble;
    dict.resize(length - 1, ' ');
    dict += '\n';
    std::string header(npy_magic);
    header += {'\x01', '\x00', static_cast<char>(length & 0xff), static_cast<char>(length >> 8)};
    return header + dict;
}

/// Code points of UTF-8 text; empty when the text is not valid UTF-8.
inline std::optional<std::u32string> utf8_to_utf32(std::string_view text) {
    std::u32string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        std::size_t length = 0;
        char32_t code = 0, least = 0;
        if (lead < 0x80) {
            length = 1;
            code = lead;
        } else if (lead >= 0xc2 && lead <= 0xdf) {
            length = 2;
            code = lead & 0x1fu;
            least = 0x80;
        } else if (lead >= 0xe0 && lead <= 0xef) {
            length = 3;
            code = lead & 0x0fu;
            least = 0x800;
        } else if (lead >= 0xf0 && lead <= 0xf4) {
            length = 4;
            code = lead & 0x07u;
            least = 0x10000;
        } else {
            return std::nullopt;
        }
        if (i + length > text.size()) return std::nullopt;
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xc0) != 0x80) return std::nullopt;
            code = code << 6 | (next & 0x3fu);
        }
        // Overlong forms, surrogates and code points past Unicode's last are not UTF-8.
        if (code < least || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff)
            return std::nullopt;
        out += code;
        i += length;
    }
    return out;
}

/// UTF-8 text of code points; empty when one is not a Unicode scalar value.
inline std::optional<std::string> utf32_to_utf8(std::u32string_view codes) {
    std::string out;
    for (const char32_t c : codes) {
        if ((c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff) return std::nullopt;
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += {static_cast<char>(0xc0 | c >> 6), static_cast<char>(0x80 | (c & 0x3f))};
        } else if (c < 0x10000) {
            out += {static_cast<char>(0xe0 | c >> 12), static_cast<char>(0x80 | (c >> 6 & 0x3f)),
                    static_cast<char>(0x80 | (c & 0x3f))};
        } else {
            out +=
                {static_cast<char>(0xf0 | c >> 18), static_cast<char>(0x80 | (c >> 12 & 0x3f)),
                 static_cast<char>(0x80 | (c >> 6 & 0x3f)), static_cast<char>(0x80 | (c & 0x3f))};
        }
    }
    return out;
}

inline void npy_write_bytes(std::ofstream& out, const void* bytes, std::size_t size,
                            const std::filesystem::path& path) {
    out.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(size));
    if (!out) npy_fail(path, "write failed");
}

inline void npy_read_bytes(std::ifstream& in, void* bytes, std::size_t size,
                           const std::filesystem::path& path, const char* what) {
    in.read(static_cast<char*>(bytes), static_cast<std::streamsize>(size));
    if (!in) npy_fail(path, std::string("file ends inside the ") + what);
}

/// The fields of an .npy header dict that this reader needs.
struct npy_header_fields {
    std::string descr;
    bool fortran_order = false;
    std::vector<std::size_t> shape;
};

/// Reads the dict NumPy writes (keys in any order, Python literal syntax).
class npy_header_parser {
public:
    npy_header_parser(std::string_view text, const std::filesystem::path& path)
        : text_(text), path_(path) {}

    npy_header_fields parse() {
        npy_header_fields fields;
        bool descr = false, order = false, shape = false;
        expect('{');
        while (!accept('}')) {
            const std::string key = quoted();
            expect(':');
            if (key == "descr") {
                fields.descr = quoted();
                descr = true;
            } else if (key == "fortran_order") {
                fields.fortran_order = boolean();
                order = true;
            } else if (key == "shape") {
                fields.shape = tuple();
                shape = true;
            } else {
                fail("unknown key '" + key + "'");
            }
            if (!accept(',')) {
                expect('}');
                break;
            }
        }
        if (!descr || !order || !shape) fail("needs 'descr', 'fortran_order' and 'shape'");
        return fields;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        npy_fail(path_, "malformed .npy header (" + what + "): " + std::string(text_));
    }
    void skip_spaces() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n')) ++at_;
    }
    bool accept(char c) {
        skip_spaces();
        if (at_ >= text_.size() || text_[at_] != c) return false;
        ++at_;
        return true;
    }
    void expect(char c) {
        if (!accept(c)) fail(std::string("expected '") + c + "'");
    }
    std::string quoted() {
        skip_spaces();
        if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"'))
            fail("expected a string");
        const char quote = text_[at_++];
        const std::size_t end = text_.find(quote, at_);
        if (end == std::string_view::npos) fail("unterminated string");
        const std::string value(text_.substr(at_, end - at_));
        at_ = end + 1;
        return value;
    }
    bool boolean() {
        skip_spaces();
        for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
            if (text_.substr(at_).starts_with(word)) {
                at_ += std::string_view(word).size();
                return value;
            }
        }
        fail("expected True or False");
    }
    std::vector<std::size_t> tuple() {
        std::vector<std::size_t> values;
        expect('(');
        while (!accept(')')) {
            skip_spaces();
            std::size_t value = 0;
            const auto [end, error] =
                std::from_chars(text_.data() + at_, text_.data() + text_.size(), value);
            if (error != std::errc()) fail("expected a size");
            at_ = static_cast<std::size_t>(end - text_.data());
            values.push_back(value);
            if (!accept(',')) {
                expect(')');
                break;
            }
        }
        return values;
    }

    std::string_view text_;
    const std::filesystem::path& path_;
    std::size_t at_ = 0;
};

/// Width in characters of a '<U<width>' descriptor; 0 when it is not one.
inline std::size_t npy_string_width(std::string_view descr) {
    std::size_t width = 0;
    if (!descr.starts_with("<U")) return 0;
    const auto [end, error] = std::from_chars(descr.data() + 2, descr.data() + descr.size(), width);
    return error == std::errc() && end == descr.data() + descr.size() ? width : 0;
}

}  // namespace detail

/// Writes data, of the given shape, to an .npy file at path (replacing it).
template <npy_element T>
void write_npy(const std::filesystem::path& path, std::span<const T> data,
               const std::vector<std::size_t>& shape) {
    if (element_count(shape) != data.size())
        detail::npy_fail(
            path, std::to_string(data.size()) + " values do not fill shape " + shape_text(shape));
    std::vector<std::u32string> strings;  // strings as the code points they are stored as
    std::string descr;
    if constexpr (std::same_as<T, std::string>) {
        std::size_t width = 1;  // NumPy's narrowest string type, also for empty strings
        for (std::size_t i = 0; i < data.size(); ++i) {
            auto codes = detail::utf8_to_utf32(data[i]);
            if (!codes)
                detail::npy_fail(path, "string " + std::to_string(i) + " is not valid UTF-8");
            width = std::max(width, codes->size());
            strings.push_back(std::move(*codes));
        }
        descr = "<U" + std::to_string(width);
    } else {
        descr = npy_descr<T>();
    }
    const std::string header = detail::npy_header(descr, shape);
    if (header.size() - detail::npy_magic.size() - 4 > 0xffff)
        detail::npy_fail(path, "shape " + shape_text(shape) + " is too long for .npy 1.0");

    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) detail::npy_fail(path, "cannot open for writing");
    detail::npy_write_bytes(out, header.data(), header.size(), path);
    if constexpr (std::same_as<T, std::string>) {
        const std::size_t width = detail::npy_string_width(descr);
        for (std::u32string& codes : strings) {
            codes.resize(width, U'\0');
            detail::npy_write_bytes(out, codes.data(), width * sizeof(char32_t), path);
        }
    } else {
        detail::npy_write_bytes(out, data.data(), data.size_bytes(), path);
    }
    out.close();
    if (!out) detail::npy_fail(path, "write failed");
}

/// Reads an .npy file whose elements are T (the same descriptor write_npy<T> writes; for
/// strings any '<U' width).
template <npy_element T>
shaped_array<T> read_npy(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) detail::npy_fail(path, "cannot open for reading");
    std::error_code error;
    const std::uintmax_t file_size = std::filesystem::file_size(path, error);
    if (error) detail::npy_fail(path, "cannot read its size: " + error.message());
    std::array<char, 8> preamble{};  // magic and version
    detail::npy_read_bytes(in, preamble.data(), preamble.size(), path, "preamble");
    if (std::string_view(preamble.data(), detail::npy_magic.size()) != detail::npy_magic)
        detail::npy_fail(path, "not an .npy file");
    // Versions 2 and 3 differ from 1 only in a 4-byte header length (and 3 in UTF-8 text).
    const auto major = static_cast<unsigned char>(preamble[6]);
    if (major < 1 || major > 3)
        detail::npy_fail(path, "unsupported .npy version " + std::to_string(major));
    std::array<unsigned char, 4> length_bytes{};
    const std::size_t length_size = major == 1 ? 2 : 4;
    detail::npy_read_bytes(in, length_bytes.data(), length_size, path, "preamble");
    std::size_t length = 0;
    for (std::size_t i = length_size; i-- > 0;) length = length << 8 | length_bytes[i];
    const std::size_t header_end = preamble.size() + length_size + length;
    if (header_end > file_size) detail::npy_fail(path, "file ends inside the header");

    std::string text(length, '\0');
    detail::npy_read_bytes(in, text.data(), text.size(), path, "header");
    const detail::npy_header_fields header = detail::npy_header_parser(text, path).parse();
    if (header.fortran_order) detail::npy_fail(path, "Fortran-ordered arrays are not supported");

    std::size_t element_size = 0;
    if constexpr (std::same_as<T, std::string>) {
        element_size = detail::npy_string_width(header.descr) * sizeof(char32_t);
        if (element_size == 0)
            detail::npy_fail(path, "holds '" + header.descr + "' values, expected strings '<U'");
    } else {
        if (header.descr != npy_descr<T>())
            detail::npy_fail(
                path, "holds '" + header.descr + "' values, expected '" + npy_descr<T>() + "'");
        element_size = sizeof(T);
    }
    const std::optional<std::size_t> count = element_count(header.shape);
    const std::uintmax_t data_size = file_size - header_end;
    if (!count || data_size / element_size != *count || data_size % element_size != 0)
        detail::npy_fail(path, "shape " + shape_text(header.shape) + " of '" + header.descr +
                                   "' does not match the " + std::to_string(data_size) +
                                   " bytes of data the file holds");

    shaped_array<T> array{header.shape, std::vector<T>(*count)};
    if constexpr (std::same_as<T, std::string>) {
        const std::size_t width = element_size / sizeof(char32_t);
        std::u32string codes(width, U'\0');
        for (std::size_t i = 0; i < *count; ++i) {
            detail::npy_read_bytes(in, codes.data(), element_size, path, "data");
            // NumPy pads with zeros, and strips them on reading, as here.
            const std::size_t end = codes.find_last_not_of(U'\0');
            auto text_i = detail::utf32_to_utf8(
                std::u32string_view(codes).substr(0, end == std::u32string::npos ? 0 : end + 1));
            if (!text_i)
                detail::npy_fail(path, "string " + std::to_string(i) + " is not valid UTF-32");
            array.data[i] = std::move(*text_i);
        }
    } else {
        detail::npy_read_bytes(in, array.data.data(), *count * element_size, path, "data");
    }
    return array;
}

}  // namespace cubie
