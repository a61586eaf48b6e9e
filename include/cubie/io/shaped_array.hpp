#pragma once
// An n-dimensional array as array files store it: a shape and the values in row-major
// (C) order, the last index fastest. Result arrays keep the trajectory index last, so a
// [save][variable][trajectory] array is stored as it lies in memory.

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace cubie {

template <class T>
struct shaped_array {
    std::vector<std::size_t> shape;
    std::vector<T> data;  ///< row-major: the last index varies fastest
};

/// The numbers array files hold as they lie in memory: IEEE floats and fixed-width
/// integers.
template <class T>
concept array_number = std::same_as<T, float> || std::same_as<T, double> ||
    std::same_as<T, std::int8_t> || std::same_as<T, std::int16_t> ||
    std::same_as<T, std::int32_t> || std::same_as<T, std::int64_t> ||
    std::same_as<T, std::uint8_t> || std::same_as<T, std::uint16_t> ||
    std::same_as<T, std::uint32_t> || std::same_as<T, std::uint64_t>;

/// An array number, or an enumeration stored as its underlying number (status codes).
template <class T>
concept array_element = array_number<T> ||
    (std::is_enum_v<T>&& array_number<std::underlying_type_t<T>>);

/// The number an element is stored as.
template <array_element T>
using stored_number_t = typename std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>,
                                                    std::type_identity<T>>::type;

// Files are read and written byte for byte as they lie in memory: little-endian, as the
// formats are written here.
static_assert(std::endian::native == std::endian::little,
              "cubie's array files are written for little-endian hosts only");

/// How many elements an array of this shape holds (1 for the empty shape of a scalar);
/// empty where the count overflows std::size_t.
inline std::optional<std::size_t> element_count(std::span<const std::size_t> shape) {
    std::size_t count = 1;
    for (const std::size_t extent : shape) {
        if (extent != 0 && count > std::numeric_limits<std::size_t>::max() / extent)
            return std::nullopt;
        count *= extent;
    }
    return count;
}

/// "(2, 3)": a shape as Python writes a tuple, for messages and NPY headers.
inline std::string shape_text(std::span<const std::size_t> shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i > 0) text += ", ";
        text += std::to_string(shape[i]);
    }
    if (shape.size() == 1) text += ",";
    return text + ")";
}

}  // namespace cubie
