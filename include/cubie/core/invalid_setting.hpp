#pragma once
// The one way settings are rejected: std::invalid_argument whose message names the
// setting, its value (shortest form that reads back exactly) and the rule it breaks.

#include <charconv>
#include <stdexcept>
#include <string>

namespace cubie {

/// Shortest decimal text that reads back as exactly `value` ("0.1", "1e-50", "nan").
inline std::string format_value(double value) {
    char text[32];
    const auto [end, error] = std::to_chars(text, text + sizeof text, value);
    return std::string(text, error == std::errc{} ? end : text);
}

/// A count for messages: a whole number in full ("4294967300") while 64 bits hold it.
inline std::string format_count(double count) {
    return count >= 0 && count < 18446744073709551616.0
               ? std::to_string(static_cast<unsigned long long>(count))
               : format_value(count);
}

[[noreturn]] inline void invalid_setting(const std::string& name, double value,
                                         const std::string& rule) {
    throw std::invalid_argument("setting " + name + " = " + format_value(value) +
                                " is invalid: " + rule);
}

}  // namespace cubie
