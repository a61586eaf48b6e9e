#include <cstdio>
#include <memory>
#include <stdexcept>

#include "lorenz_sweep/sweep_outcome.hpp"

namespace lorenz_sweep {

void write_csv(const sweep_outcome& outcome, const std::string& path) {
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "w"),
                                                               &std::fclose);
    if (!file) throw std::runtime_error("cannot open " + path + " for writing");
    std::fputs("trajectory,rho,x,y,z,status\n", file.get());
    const int d = outcome.digits;
    for (std::size_t i = 0; i < outcome.rho.size(); ++i)
        std::fprintf(file.get(), "%zu,%.*g,%.*g,%.*g,%.*g,%s\n", i, d, outcome.rho[i], d,
                     outcome.x[i], d, outcome.y[i], d, outcome.z[i],
                     cubie::to_string(outcome.statuses[i]));
    if (std::ferror(file.get())) throw std::runtime_error("error writing " + path);
}

}  // namespace lorenz_sweep
