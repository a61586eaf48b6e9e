// doctest runner. Test binaries of the cuda backend exit with 77 (ctest's skip code) when
// no CUDA device is present, except when asked to list their tests.

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>

#if CUBIE_TEST_REQUIRES_CUDA
#include <cuda_runtime_api.h>

static bool listing_requested(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--list", 6) == 0 || std::strncmp(argv[i], "-l", 2) == 0)
            return true;
    return false;
}
#endif

int main(int argc, char** argv) {
#if CUBIE_TEST_REQUIRES_CUDA
    int devices = 0;
    if (!listing_requested(argc, argv) &&
        (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)) {
        std::puts("no CUDA device: skipping the cuda backend's tests");
        return 77;
    }
#endif
    doctest::Context context(argc, argv);
    return context.run();
}
