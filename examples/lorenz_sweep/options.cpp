#include "lorenz_sweep/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string_view>

#include "lorenz_sweep/methods.hpp"

namespace lorenz_sweep {

#define LISTED_NAME(folder, name) " " #name
const char* const usage =
    "usage: lorenz_sweep [--n N] [--method NAME] (--dt DT | --tol TOL)\n"
    "                    [--controller fixed|i|pi|pid|gustafsson] [--backend auto|host|cuda]\n"
    "                    [--precision float|double] [--repeat R] [--progress]\n"
    "                    [--devices all|LIST]\n"
    "                    [--save-every S] [--summaries LIST [--summarise-every W]\n"
    "                    [--sample-every S]] [--out PATH [--format csv|npy|h5]]\n"
    "Integrates the Lorenz system for N values of rho in [0, 21], x0 = (1, 0, 0), t in [0, 1].\n"
    "  --dt DT    fixed step DT (controller: fixed)\n"
    "  --tol TOL  adaptive, atol = rtol = TOL, initial dt 2^-10 (controller default: pi)\n"
    "  methods:" LORENZ_SWEEP_METHODS(LISTED_NAME) "\n"
    "  --repeat R solves R times and reports the fastest (the first includes start-up)\n"
    "  --progress shows a progress bar (the batch goes in about 100 chunks)\n"
    "  --devices all|LIST  the cuda backend splits the batch over every device or over the\n"
    "                      comma-separated device ordinals (default: device 0 alone)\n"
    "  --save-every S      saves x, y, z and the step counts every S (a whole number of\n"
    "                      steps with --dt; interpolated between steps where the method can)\n"
    "  --summaries LIST    comma-separated metrics of x, y, z over windows, e.g. mean,extrema:\n"
    "                      mean std rms max min extrema max_magnitude peaks negative_peaks\n"
    "                      dxdt_max dxdt_min dxdt_extrema d2xdt2_max d2xdt2_min d2xdt2_extrema\n"
    "                      (peaks: the first 4 per window)\n"
    "  --summarise-every W window length (default 1: one window)\n"
    "  --sample-every S    interval of the samples summaries see (default: about 1/64 of a\n"
    "                      window, in whole steps with --dt)\n"
    "  --out PATH          writes the result: a folder of CSV tables or NPY arrays, or one\n"
    "                      HDF5 file (--format h5)\n"
    "  Saving and summaries run with the fixed and pi controllers, in one kernel that keeps\n"
    "  every metric (a program that lists only the metrics it needs gets a leaner one).\n";
#undef LISTED_NAME

const std::vector<std::string> summary_metric_names = {
    "mean",          "std",        "rms",
    "max",           "min",        "extrema",
    "max_magnitude", "peaks",      "negative_peaks",
    "dxdt_max",      "dxdt_min",   "dxdt_extrema",
    "d2xdt2_max",    "d2xdt2_min", "d2xdt2_extrema"};

namespace {

double parse_number(std::string_view flag, const char* text) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(v))
        throw usage_error(std::string(flag) + " expects a number, got '" + text + "'");
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

std::vector<std::string> parse_metric_list(const char* text) {
    std::vector<std::string> names;
    std::stringstream in(text);
    for (std::string name; std::getline(in, name, ',');) {
        if (std::find(summary_metric_names.begin(), summary_metric_names.end(), name) ==
            summary_metric_names.end())
            throw usage_error("unknown summary metric '" + name + "'");
        names.push_back(name);
    }
    if (names.empty()) throw usage_error("--summaries expects a list of metrics");
    return names;
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
        if (flag == "--progress") {
            o.progress = true;
            continue;
        }
        if (i + 1 >= argc) throw usage_error("missing value after " + std::string(flag));
        const char* value = argv[++i];
        if (flag == "--n")
            o.n = parse_integer<std::size_t>(flag, value);
        else if (flag == "--method")
            o.method = value;
        else if (flag == "--dt")
            o.dt = parse_number(flag, value);
        else if (flag == "--tol")
            o.tol = parse_number(flag, value);
        else if (flag == "--controller")
            o.controller = value;
        else if (flag == "--backend")
            o.backend = value;
        else if (flag == "--out")
            o.out = value;
        else if (flag == "--format")
            o.format = value;
        else if (flag == "--save-every")
            o.save_every = parse_number(flag, value);
        else if (flag == "--summarise-every")
            o.summarise_every = parse_number(flag, value);
        else if (flag == "--sample-every")
            o.sample_every = parse_number(flag, value);
        else if (flag == "--summaries")
            o.summaries = parse_metric_list(value);
        else if (flag == "--repeat")
            o.repeat = parse_integer<int>(flag, value);
        else if (flag == "--devices")
            parse_devices(value, o);
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
    if (o.dt.has_value() == o.tol.has_value())
        throw usage_error("give exactly one of --dt (fixed step) and --tol (adaptive)");
    if (o.controller.empty()) o.controller = o.dt ? "fixed" : "pi";
    if (o.dt && o.controller != "fixed")
        throw usage_error("--dt takes the fixed controller; use --tol for '" + o.controller + "'");
    if (o.tol && o.controller == "fixed")
        throw usage_error("--tol needs an adaptive controller: i, pi, pid or gustafsson");
    if (o.controller != "fixed" && o.controller != "i" && o.controller != "pi" &&
        o.controller != "pid" && o.controller != "gustafsson")
        throw usage_error("unknown controller '" + o.controller + "'");
    if (o.backend != "auto" && o.backend != "host" && o.backend != "cuda")
        throw usage_error("--backend must be auto, host or cuda, got '" + o.backend + "'");
    if (o.repeat < 1) throw usage_error("--repeat must be at least 1");
    if ((o.all_devices || !o.devices.empty()) && o.backend == "host")
        throw usage_error("--devices chooses GPUs: it needs --backend cuda or auto");
    if (o.records_outputs() && o.controller != "fixed" && o.controller != "pi")
        throw usage_error("--save-every and --summaries run with the fixed and pi controllers");
    if ((o.summarise_every || o.sample_every) && o.summaries.empty())
        throw usage_error("--summarise-every and --sample-every need --summaries");
    if (o.format != "csv" && o.format != "npy" && o.format != "h5")
        throw usage_error("--format must be csv, npy or h5, got '" + o.format + "'");
    return o;
}

}  // namespace lorenz_sweep
