#pragma once
// batch_grid: a batch's inputs built from a list of values per state or parameter.
//
//   cubie::batch_grid<cubie::catalogue::lorenz<float>> grid;
//   grid.set("x", {1}).set("y", {0}).set("z", {0, 10}).set("rho", rho_values);
//   const auto batch = grid.combinatorial();    // every rho with every z
//   auto result = solver.solve(batch.inputs(), settings);
//
// combinatorial(): the Cartesian product of the lists, in the system's order (states, then
// parameters), the last listed variable varying fastest (numpy.meshgrid(indexing="ij")
// raveled). verbatim(): the lists paired column by column; every list has the batch's
// length or a single value, which is broadcast. A variable that is not set takes the
// system's default (default_state, default_parameters of generated systems); without one
// it is an error. Errors are std::invalid_argument naming the variables, before any work.

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cubie/batch/batch_inputs.hpp"
#include "cubie/drivers/cubic_spline_fit.hpp"
#include "cubie/systems/ode_system.hpp"
#include "cubie/systems/variable_names.hpp"

namespace cubie {

/// Inputs a grid built: owning [variable][trajectory] arrays, viewed by inputs().
template <class T>
struct grid_batch {
    std::size_t n_trajectories = 0;
    std::vector<T> initial_states;  ///< [state][trajectory]
    std::vector<T> parameters;      ///< [parameter][trajectory]
    std::vector<cubic_spline<T>> drivers;

    batch_inputs<T> inputs() const { return {n_trajectories, initial_states, parameters, drivers}; }
};

template <ode_system System>
class batch_grid {
    using T = typename System::value_type;

public:
    batch_grid() : names_(state_names<System>()) {
        for (const std::string& p : parameter_names<System>()) names_.push_back(p);
        values_.resize(names_.size());
    }

    /// The values of the state or parameter called name (states are looked up first).
    batch_grid& set(const std::string& name, std::vector<T> values) {
        for (std::size_t v = 0; v < names_.size(); ++v)
            if (names_[v] == name) return set_variable(v, std::move(values));
        std::string known;
        for (const std::string& k : names_) known += (known.empty() ? "" : ", ") + k;
        throw std::invalid_argument("batch grid: no state or parameter is called \"" + name +
                                    "\"; the system has: " + known);
    }
    batch_grid& set_state(int index, std::vector<T> values) {
        check_index(index, System::n_states, "state");
        return set_variable(static_cast<std::size_t>(index), std::move(values));
    }
    batch_grid& set_parameter(int index, std::vector<T> values) {
        check_index(index, System::n_parameters, "parameter");
        return set_variable(static_cast<std::size_t>(System::n_states + index), std::move(values));
    }
    /// The drivers' splines, shared by every trajectory.
    batch_grid& set_drivers(std::vector<cubic_spline<T>> drivers) {
        drivers_ = std::move(drivers);
        return *this;
    }

    /// Every combination of the lists' values.
    grid_batch<T> combinatorial() const {
        const std::vector<std::vector<T>> lists = completed();
        double count = 1;
        for (const auto& list : lists) count *= static_cast<double>(list.size());
        const std::size_t n = checked_count(count);
        grid_batch<T> batch = allocate(n);
        // stride: how many trajectories one value of a variable spans.
        std::size_t stride = n;
        for (std::size_t v = 0; v < lists.size(); ++v) {
            const std::size_t length = lists[v].size();
            stride /= length;
            T* column = destination(batch, v);
            for (std::size_t i = 0; i < n; ++i) column[i] = lists[v][(i / stride) % length];
        }
        return batch;
    }

    /// The lists paired column by column; single values are broadcast.
    grid_batch<T> verbatim() const {
        const std::vector<std::vector<T>> lists = completed();
        std::size_t n = 1;
        std::size_t longest = 0;
        for (std::size_t v = 0; v < lists.size(); ++v) {
            const std::size_t length = lists[v].size();
            if (length == 1) continue;
            if (n != 1 && length != n)
                throw std::invalid_argument(
                    "batch grid: verbatim pairing needs lists of one length (or single "
                    "values): " +
                    names_[longest] + " has " + std::to_string(n) + " values, " + names_[v] +
                    " has " + std::to_string(length));
            n = length;
            longest = v;
        }
        grid_batch<T> batch = allocate(n);
        for (std::size_t v = 0; v < lists.size(); ++v) {
            T* column = destination(batch, v);
            for (std::size_t i = 0; i < n; ++i) column[i] = lists[v][lists[v].size() == 1 ? 0 : i];
        }
        return batch;
    }

private:
    batch_grid& set_variable(std::size_t v, std::vector<T> values) {
        if (values.empty())
            throw std::invalid_argument("batch grid: " + names_[v] + " is given no values");
        values_[v] = std::move(values);
        return *this;
    }

    static void check_index(int index, int count, const char* kind) {
        if (index < 0 || index >= count)
            throw std::invalid_argument("batch grid: " + std::string(kind) + " index " +
                                        std::to_string(index) + " is not one of the system's " +
                                        std::to_string(count));
    }

    /// Every variable's list, the system's default where none was set.
    std::vector<std::vector<T>> completed() const {
        std::vector<std::vector<T>> lists = values_;
        for (std::size_t v = 0; v < lists.size(); ++v) {
            if (!lists[v].empty()) continue;
            const std::optional<T> fallback = default_value(v);
            if (!fallback)
                throw std::invalid_argument("batch grid: " + names_[v] +
                                            " is not set and the system gives no default");
            lists[v] = {*fallback};
        }
        return lists;
    }

    static std::optional<T> default_value(std::size_t v) {
        const int i = static_cast<int>(v);
        if (i < System::n_states) {
            if constexpr (requires { System::default_state[0]; })
                return static_cast<T>(System::default_state[i]);
        } else {
            if constexpr (requires { System::default_parameters[0]; })
                return static_cast<T>(System::default_parameters[i - System::n_states]);
        }
        return std::nullopt;
    }

    static std::size_t checked_count(double count) {
        // The widest array, [variable][trajectory], must be addressable.
        const double widest = std::max(System::n_states, std::max(System::n_parameters, 1));
        if (count * widest * sizeof(T) >
            static_cast<double>(std::numeric_limits<std::ptrdiff_t>::max()))
            throw std::invalid_argument("batch grid: " + std::to_string(count) +
                                        " combinations are more than memory can address");
        return static_cast<std::size_t>(count);
    }

    grid_batch<T> allocate(std::size_t n) const {
        grid_batch<T> batch;
        batch.n_trajectories = n;
        batch.initial_states.resize(static_cast<std::size_t>(System::n_states) * n);
        batch.parameters.resize(static_cast<std::size_t>(System::n_parameters) * n);
        batch.drivers = drivers_;
        return batch;
    }

    static T* destination(grid_batch<T>& batch, std::size_t v) {
        const std::size_t n = batch.n_trajectories;
        const int i = static_cast<int>(v);
        return i < System::n_states
                   ? batch.initial_states.data() + v * n
                   : batch.parameters.data() + static_cast<std::size_t>(i - System::n_states) * n;
    }

    std::vector<std::string> names_;      ///< states, then parameters
    std::vector<std::vector<T>> values_;  ///< empty: not set
    std::vector<cubic_spline<T>> drivers_;
};

}  // namespace cubie
