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

[[noreturn]] inline void invalid_setting(const std::string& name, double value,
                                         const std::string& rule) {
    throw std::invalid_argument("setting " + name + " = " + format_value(value) +
                                " is invalid: " + rule);
}

}  // namespace cubie
