#pragma once
// The benchmarks' command lines: `--name value` flags and `--name` switches, each handed to
// its own callable, and comma-separated lists of numbers or names.

#include <cstdio>
#include <exception>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace bench {

/// "a,b,c" split at the commas.
inline std::vector<std::string> parse_names(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) out.push_back(item);
    return out;
}

/// "1,2,3" as numbers.
template <class Number>
std::vector<Number> parse_list(const std::string& text) {
    std::vector<Number> out;
    for (const std::string& item : parse_names(text))
        out.push_back(static_cast<Number>(std::stod(item)));
    return out;
}

struct flag {
    const char* name;                              ///< with its dashes: "--repeat"
    std::function<void(const std::string&)> take;  ///< given the value ("" for a switch)
    bool takes_value = true;
};

/// Hands each flag of the command line to its callable. An unknown flag, a missing value
/// or a value its callable throws on prints `usage` to stderr and returns false.
inline bool parse_flags(int argc, char** argv, const std::vector<flag>& flags, const char* usage) {
    for (int i = 1; i < argc; ++i) {
        const std::string name = argv[i];
        const flag* match = nullptr;
        for (const flag& f : flags)
            if (name == f.name) match = &f;
        if (!match || (match->takes_value && i + 1 >= argc)) {
            std::fprintf(stderr, "%s\n", usage);
            return false;
        }
        try {
            match->take(match->takes_value ? argv[++i] : "");
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: %s\n%s\n", name.c_str(), e.what(), usage);
            return false;
        }
    }
    return true;
}

}  // namespace bench
