#include <cstdio>

#include "cubie/catalogue/decay.hpp"

int main() {
    cubie::state_t<cubie::catalogue::decay<double>> f;
    cubie::catalogue::decay<double>{}.rhs(0, {2}, {0.5}, {}, f);
    std::printf("%g\n", f[0]);
}
