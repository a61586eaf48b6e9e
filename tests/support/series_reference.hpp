#pragma once
// Reference Lorenz series written by tests/reference/make_*_series_reference.py: rows
// trajectory,rho,t,x,y,z in trajectory-major order.

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cubie::testing {

struct series_reference {
    std::vector<double> rho, t, x, y, z;
};

inline series_reference read_series_reference(const std::string& file, std::size_t rows) {
    std::ifstream in(std::string(CUBIE_TEST_DATA_DIR) + "/" + file);
    REQUIRE(in.good());
    series_reference r;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::string cell[6];
        for (auto& c : cell) std::getline(row, c, ',');
        r.rho.push_back(std::stod(cell[1]));
        r.t.push_back(std::stod(cell[2]));
        r.x.push_back(std::stod(cell[3]));
        r.y.push_back(std::stod(cell[4]));
        r.z.push_back(std::stod(cell[5]));
    }
    REQUIRE(r.t.size() == rows);
    return r;
}

}  // namespace cubie::testing
