#pragma once
// Which variables (states or observables) an output records: all of them, or a list given
// by index or by name, in the order the rows should appear.
//
//   settings.saved_states = {"x", "z"};   // or {0, 2}; empty: every state

#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cubie/core/invalid_setting.hpp"

namespace cubie {

class variable_selection {
public:
    variable_selection() = default;  ///< every variable
    variable_selection(std::initializer_list<int> indices) : indices_(indices) {}
    variable_selection(std::initializer_list<std::string> names) : names_(names) {}
    variable_selection(std::vector<int> indices) : indices_(std::move(indices)) {}
    variable_selection(std::vector<std::string> names) : names_(std::move(names)) {}

    bool selects_all() const { return indices_.empty() && names_.empty(); }

    /// The selected indices into `names` (a system's variable names), in the order given.
    /// Throws std::invalid_argument naming `setting` for an unknown name, an index out of
    /// range or a variable selected twice.
    std::vector<int> resolve(const std::vector<std::string>& names,
                             const std::string& setting) const {
        const int n = static_cast<int>(names.size());
        std::vector<int> chosen;
        if (selects_all()) {
            for (int i = 0; i < n; ++i) chosen.push_back(i);
            return chosen;
        }
        for (int i : indices_) {
            if (i < 0 || i >= n)
                invalid_setting(setting, i,
                                "is not an index of the " + std::to_string(n) + " variables");
            chosen.push_back(i);
        }
        for (const std::string& name : names_) {
            int found = -1;
            for (int i = 0; i < n; ++i)
                if (names[static_cast<std::size_t>(i)] == name) found = i;
            if (found < 0) {
                std::string known;
                for (const std::string& k : names) known += (known.empty() ? "" : ", ") + k;
                throw std::invalid_argument("setting " + setting + " names \"" + name +
                                            "\", which is not one of: " + known);
            }
            chosen.push_back(found);
        }
        for (std::size_t a = 0; a < chosen.size(); ++a)
            for (std::size_t b = a + 1; b < chosen.size(); ++b)
                if (chosen[a] == chosen[b])
                    invalid_setting(setting, chosen[a], "selects the same variable twice");
        return chosen;
    }

private:
    std::vector<int> indices_;
    std::vector<std::string> names_;
};

}  // namespace cubie
