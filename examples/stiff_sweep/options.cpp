#include "stiff_sweep/options.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>

#include "stiff_sweep/methods.hpp"

namespace stiff_sweep {

#define LISTED_NAME(folder, name) " " #name
const char* const usage =
    "usage: stiff_sweep [--n N] [--method NAME] [--rtol RTOL] [--atol ATOL]\n"
    "                   [--precision float|double] [--backend auto|host|cuda]\n"
    "                   [--devices all|LIST] [--repeat R]\n"
    "Integrates the Pollution problem (Bari POLLU, 20 species) over t in [0, 60] for N values\n"
    "of the photolysis rate k1, log-spaced over [3.5e-2, 3.5], from the Bari initial state;\n"
    "PI controller, initial dt = 60 / 1024.\n"
    "  --method NAME   default rodas5p; one of\n"
    "                 " STIFF_SWEEP_METHODS(LISTED_NAME) "\n"
    "  --rtol, --atol  tolerances (default 1e-5 both)\n"
    "  --precision     default double\n"
    "  --repeat R      solves R times and reports the fastest (the first includes start-up)\n"
    "  --devices all|LIST  the cuda backend splits the batch over every device or over the\n"
    "                      comma-separated device ordinals (default: device 0 alone)\n";
#undef LISTED_NAME

namespace {

double parse_tolerance(std::string_view flag, const char* text) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(v) || v < 0)
        throw usage_error(std::string(flag) + " expects a non-negative number, got '" + text + "'");
    return v;
}

template <class Int>
Int parse_integer(std::string_view flag, const char* text) {
    Int v{};
    const char* last = text + std::strlen(text);
    const auto [ptr, ec] = std::from_chars(text, last, v);
    if (ec != std::errc{} || ptr != last)
        throw usage_error(std::string(flag) + " expects a non-negative integer, got '" + text +
                          "'");
    return v;
}

void parse_devices(const char* text, options& o) {
    o.all_devices = std::string_view(text) == "all";
    if (o.all_devices) return;
    std::stringstream list(text);
    for (std::string d; std::getline(list, d, ',');)
        o.devices.push_back(parse_integer<int>("--devices", d.c_str()));
}

}  // namespace

options parse_options(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "--help" || flag == "-h") throw usage_error("");
        if (i + 1 >= argc) throw usage_error("missing value after " + std::string(flag));
        const char* value = argv[++i];
        if (flag == "--n")
            o.n = parse_integer<std::size_t>(flag, value);
        else if (flag == "--method")
            o.method = value;
        else if (flag == "--rtol")
            o.rtol = parse_tolerance(flag, value);
        else if (flag == "--atol")
            o.atol = parse_tolerance(flag, value);
        else if (flag == "--backend")
            o.backend = value;
        else if (flag == "--devices")
            parse_devices(value, o);
        else if (flag == "--repeat")
            o.repeat = parse_integer<int>(flag, value);
        else if (flag == "--precision") {
            const std::string_view p = value;
            if (p == "float")
                o.prec = precision::single;
            else if (p == "double")
                o.prec = precision::double_;
            else
                throw usage_error("--precision must be float or double, got '" + std::string(p) +
                                  "'");
        } else {
            throw usage_error("unknown flag " + std::string(flag));
        }
    }
    if (o.n == 0) throw usage_error("--n must be at least 1");
    if (o.backend != "auto" && o.backend != "host" && o.backend != "cuda")
        throw usage_error("--backend must be auto, host or cuda, got '" + o.backend + "'");
    if (o.repeat < 1) throw usage_error("--repeat must be at least 1");
    if ((o.all_devices || !o.devices.empty()) && o.backend == "host")
        throw usage_error("--devices chooses GPUs: it needs --backend cuda or auto");
    return o;
}

}  // namespace stiff_sweep
