#pragma once
// The program that `cubie run` compiles for one model, method, controller, precision and set
// of outputs: its main.cpp names them, cubie_solver::run<Solver, System>(argc, argv). Everything
// that only changes numbers is read at run time from the run folder the cubie command
// writes, so that a changed run file never needs another compile:
//
//   settings.txt        a setting a line: its name, then its values, separated by tabs
//   initial_states.npy  [state][trajectory], in the working precision
//   parameters.npy      [parameter][trajectory]
//   driver<k>_t.npy, driver<k>_values.npy    the samples of driver k (float64)
//
//   solver RUN_FOLDER     solves and writes the result where settings.txt says
//   solver --describe     prints what this build can do ("hdf5 1", "cuda 0")
//
// Exit status: 0 solved (whatever the trajectories' statuses), 2 a setting or input the
// library refused (the cubie command points at the run file's line), 1 any other error
// (either message in RUN_FOLDER/error.txt), 130 cancelled by SIGINT: the result is
// written, and the trajectories never started have status cancelled.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cubie/cubie.hpp"

namespace cubie_solver {

/// settings.txt: each line a name and its values, tab-separated.
class settings_file {
public:
    explicit settings_file(const std::filesystem::path& path) {
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot read " + path.string());
        std::string line;
        while (std::getline(in, line)) {
            std::vector<std::string> fields;
            std::size_t start = 0;
            for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos;
                 start = tab + 1)
                fields.push_back(line.substr(start, tab - start));
            fields.push_back(line.substr(start));
            const std::string name = fields.front();
            fields.erase(fields.begin());
            entries_[name] = std::move(fields);
        }
    }

    bool has(const std::string& name) const { return entries_.count(name) > 0; }

    const std::vector<std::string>& words(const std::string& name) const {
        const auto found = entries_.find(name);
        if (found == entries_.end()) throw std::runtime_error("settings.txt has no " + name);
        return found->second;
    }
    std::string text(const std::string& name) const { return words(name).at(0); }
    std::vector<double> numbers(const std::string& name) const {
        std::vector<double> values;
        for (const std::string& word : words(name)) values.push_back(parse<double>(name, word));
        return values;
    }
    double number(const std::string& name) const { return parse<double>(name, text(name)); }
    std::uint64_t count(const std::string& name) const {
        return parse<std::uint64_t>(name, text(name));
    }
    bool flag(const std::string& name) const { return has(name) && text(name) == "1"; }

    /// Sets `value` from the setting `name` where settings.txt has it.
    template <class V>
    void apply(const std::string& name, V& value) const {
        if (!has(name)) return;
        if constexpr (std::is_same_v<V, bool>)
            value = flag(name);
        else if constexpr (std::is_same_v<V, std::vector<double>>)
            value = numbers(name);
        else if constexpr (std::is_same_v<V, cubie::variable_selection>)
            value = cubie::variable_selection(words(name));
        else if constexpr (std::is_integral_v<V>)
            value = count(name);
        else
            value = number(name);
    }

private:
    template <class N>
    static N parse(const std::string& name, const std::string& word) {
        N value{};
        const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
        if (error != std::errc{} || end != word.data() + word.size())
            throw std::runtime_error("settings.txt: " + name + " has '" + word + "', not a number");
        return value;
    }

    std::map<std::string, std::vector<std::string>> entries_;
};

/// Set by the first SIGINT: the progress callback then cancels the chunks not yet started.
/// A second SIGINT ends the program at once (the handler restores the default action).
inline std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" inline void on_interrupt(int) {
    interrupted.store(true);
    std::signal(SIGINT, SIG_DFL);
}

/// Draws the solve's progress on one line of stderr where it is a terminal, once the solve
/// has run for a second: short solves print nothing. Returns false once interrupted.
class progress_bar {
public:
    bool operator()(const cubie::solve_progress& p) {
        if (interrupted.load()) {
            finish();
            if (!told_) std::fputs("cancelling: the chunks in flight finish first\n", stderr);
            told_ = true;
            return false;
        }
        if (!terminal_ || (p.elapsed_seconds < 1 && !drawn_)) return true;
        constexpr int width = 40;
        const int filled = static_cast<int>(width * p.done / p.total);
        std::fprintf(stderr, "\r[%.*s%*s] %3zu%%  %.3g trajectories/s  %.1f s left ", filled,
                     "========================================", width - filled, "",
                     100 * p.done / p.total, p.rate(), p.seconds_left());
        drawn_ = true;
        if (p.done == p.total) finish();
        return true;
    }

    /// Ends the line the bar was drawn on.
    void finish() {
        if (drawn_) std::fputc('\n', stderr);
        drawn_ = false;
    }

private:
    bool terminal_ = isatty(STDERR_FILENO) != 0;
    bool drawn_ = false;
    bool told_ = false;
};

/// Trajectories 0, n/4, n/2, 3n/4 and n - 1 (each once), for the table of results.
inline std::vector<std::size_t> table_rows(std::size_t n) {
    std::vector<std::size_t> rows;
    for (std::size_t quarter = 0; quarter <= 4 && n > 0; ++quarter) {
        const std::size_t i = quarter == 4 ? n - 1 : quarter * n / 4;
        if (rows.empty() || rows.back() != i) rows.push_back(i);
    }
    return rows;
}

/// One column of the table of results: a name and a [row][trajectory] array's row.
template <class T>
struct table_column {
    std::string name;
    const T* values;  ///< n_trajectories values
};

/// The inputs that differ between trajectories (at most 3: what the batch swept; initial
/// values as "x(t0)"), then the final states (at most 6), for a few trajectories across the
/// batch.
template <class T>
void print_table(const cubie::batch_result<T>& r, double t_end) {
    const std::size_t n = r.n_trajectories;
    std::vector<table_column<T>> inputs;
    const auto add_varying = [&](const std::vector<std::string>& names, const auto& values,
                                 const char* suffix) {
        for (std::size_t row = 0; row < names.size() && inputs.size() < 3; ++row) {
            const T* first = values.data() + row * n;
            if (std::any_of(first, first + n, [&](T v) { return !(v == first[0]); }))
                inputs.push_back({names[row] + suffix, first});
        }
    };
    add_varying(r.parameter_names, r.parameters, "");
    add_varying(r.state_names, r.initial_states, "(t0)");
    constexpr std::size_t shown_states = 6;
    const std::size_t states = std::min<std::size_t>(r.state_names.size(), shown_states);

    std::printf("\nfinal values at t = %g", t_end);
    if (r.state_names.size() > states)
        std::printf(" (the first %zu of %zu states)", states, r.state_names.size());
    std::printf(":\n%10s", "trajectory");
    for (const auto& column : inputs) std::printf(" %12.12s", column.name.c_str());
    for (std::size_t s = 0; s < states; ++s) std::printf(" %12.12s", r.state_names[s].c_str());
    std::printf("  status\n");
    for (const std::size_t i : table_rows(n)) {
        std::printf("%10zu", i);
        for (const auto& column : inputs) std::printf(" %12.6g", double(column.values[i]));
        for (std::size_t s = 0; s < states; ++s)
            std::printf(" %12.6g", double(r.final_state(static_cast<int>(s), i)));
        std::printf("  %s\n", cubie::to_string(r.statuses[i]));
    }
}

/// "4090 success, 6 max_steps_exceeded": how many trajectories ended with each status.
template <class T>
std::string status_counts(const cubie::batch_result<T>& r) {
    std::vector<std::size_t> counts(std::size(cubie::status_names), 0);
    for (const cubie::status s : r.statuses) ++counts[static_cast<std::size_t>(s)];
    std::string text;
    for (std::size_t code = 0; code < counts.size(); ++code)
        if (counts[code] > 0)
            text += (text.empty() ? "" : ", ") + std::to_string(counts[code]) + " " +
                    cubie::status_names[code];
    return text.empty() ? "none" : text;
}

template <class T>
cubie::shaped_array<T> read_rows(const std::filesystem::path& path, std::size_t rows) {
    cubie::shaped_array<T> array = cubie::read_npy<T>(path);
    if (array.shape.size() != 2 || array.shape[0] != rows)
        throw std::runtime_error(path.string() + " is not an array of " + std::to_string(rows) +
                                 " rows");
    return array;
}

/// The driver splines, fitted on their samples in the system's driver order.
template <class System>
std::vector<cubie::cubic_spline<typename System::value_type>> read_drivers(
    const settings_file& settings, const std::filesystem::path& folder) {
    std::vector<cubie::cubic_spline<typename System::value_type>> splines;
    for (int k = 0; k < System::n_drivers; ++k) {
        const std::string name = System::driver_names[k];
        const std::string stem = "driver" + std::to_string(k);
        const std::vector<std::string>& fields = settings.words(stem);  // boundary, wrap
        cubie::spline_options options;
        const std::string& boundary = fields.at(0);
        options.boundary = boundary == "natural"    ? cubie::spline_boundary::natural
                           : boundary == "clamped"  ? cubie::spline_boundary::clamped
                           : boundary == "periodic" ? cubie::spline_boundary::periodic
                                                    : cubie::spline_boundary::not_a_knot;
        options.wrap = fields.at(1) == "1";
        settings.apply(stem + "_start_slope", options.start_slope);
        settings.apply(stem + "_end_slope", options.end_slope);
        const auto t = cubie::read_npy<double>(folder / (stem + "_t.npy"));
        const auto values = cubie::read_npy<double>(folder / (stem + "_values.npy"));
        try {
            splines.emplace_back(t.data, values.data, options);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("driver " + name + ": " + e.what());
        }
    }
    return splines;
}

template <class Settings>
void read_settings(const settings_file& in, Settings& s) {
    in.apply("t0", s.t0);
    in.apply("t_end", s.t_end);
    in.apply("dt", s.dt);
    in.apply("dt_min", s.dt_min);
    in.apply("dt_max", s.dt_max);
    in.apply("max_steps", s.max_steps);
    in.apply("atol", s.atol);
    in.apply("rtol", s.rtol);
    if constexpr (requires { s.controller.limits; }) {
        in.apply("safety", s.controller.limits.safety);
        in.apply("min_factor", s.controller.limits.min_factor);
        in.apply("max_factor", s.controller.limits.max_factor);
    }
    if constexpr (requires { s.controller.beta; }) {
        if (in.has("beta")) {
            const std::vector<double> beta = in.numbers("beta");
            if (beta.size() != s.controller.beta.size())
                throw std::invalid_argument("setting beta has " + std::to_string(beta.size()) +
                                            " gains; this controller takes " +
                                            std::to_string(s.controller.beta.size()));
            for (std::size_t i = 0; i < beta.size(); ++i) s.controller.beta[i] = beta[i];
        }
    }
    in.apply("save_every", s.save_every);
    in.apply("save_initial", s.save_initial);
    in.apply("save_final", s.save_final);
    in.apply("saved_states", s.saved_states);
    in.apply("saved_observables", s.saved_observables);
    in.apply("summarise_every", s.summarise_every);
    in.apply("sample_summaries_every", s.sample_summaries_every);
}

/// Solves what the run folder describes with Solver; see the top of this file.
template <class Solver, class System>
int solve(const std::filesystem::path& folder) {
    using T = typename Solver::value_type;
    std::signal(SIGINT, on_interrupt);  // from the start: a Ctrl-C while reading cancels too
    const settings_file in(folder / "settings.txt");
    typename Solver::settings_type settings;
    read_settings(in, settings);
    const std::filesystem::path output = in.text("output");
    const cubie::result_format format = cubie::parse_result_format(in.text("format"));

    const std::size_t n = in.count("trajectories");
    const auto y0 = read_rows<T>(folder / "initial_states.npy", System::n_states);
    const auto p = read_rows<T>(folder / "parameters.npy", System::n_parameters);
    cubie::batch_inputs<T> inputs{n, y0.data, p.data, read_drivers<System>(in, folder)};

    progress_bar bar;
    cubie::solve_control control;
    control.progress = [&bar](const cubie::solve_progress& progress) { return bar(progress); };
#if defined(__CUDACC__)
    // About 100 chunks report progress, but none smaller than a device is kept busy by.
    control.chunk_trajectories = std::max<std::size_t>((n + 99) / 100, 65536);
#endif

    const Solver solver;
    cubie::batch_result<T> result;
    const auto start = std::chrono::steady_clock::now();
#if defined(__CUDACC__)
    if (in.text("backend") == "cuda")
        solver.solve(inputs, settings, result, cubie::backends::cuda{}, control);
    else
#endif
        solver.solve(inputs, settings, result, cubie::backends::automatic{}, control);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    bar.finish();

    result.keep_inputs(inputs, cubie::parameter_names<System>());
    cubie::write_result(result, output, format);
    std::printf("backend       %s\n", result.backend.c_str());
    std::printf("trajectories  %zu\n", n);
    std::printf("solved in     %.3g s\n", seconds.count());
    std::printf("statuses      %s\n", status_counts(result).c_str());
    std::printf("written       %s (%s)\n", output.c_str(), in.text("format").c_str());
    print_table(result, settings.t_end);
    return interrupted.load() ? 130 : 0;
}

/// Writes why the solve failed to error.txt, for the cubie command to show (or to stderr,
/// where the folder is gone); returns the exit status.
inline int report(const std::filesystem::path& folder, const char* what, int status) {
    std::ofstream out(folder / "error.txt");
    out << what << '\n';
    if (!out) std::fprintf(stderr, "solver: %s\n", what);
    return status;
}

template <class Solver, class System>
int run(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--describe") {
        std::printf("hdf5 %d\n", cubie::hdf5_available ? 1 : 0);
#if defined(__CUDACC__)
        std::printf("cuda 1\n");
#else
        std::printf("cuda 0\n");
#endif
        return 0;
    }
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s RUN_FOLDER (written by the cubie command)\n", argv[0]);
        return 1;
    }
    const std::filesystem::path folder = argv[1];
    try {
        return solve<Solver, System>(folder);
    } catch (const std::invalid_argument& e) {
        return report(folder, e.what(), 2);
    } catch (const std::exception& e) {
        return report(folder, e.what(), 1);
    }
}

}  // namespace cubie_solver
