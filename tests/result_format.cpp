// The result formats by name, and what a program built without HDF5 answers when asked
// for it. This suite is built without cubie::hdf5, so the HDF5 errors are checked
// wherever the suite runs; result_files checks HDF5 itself.

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "cubie/io/write_result.hpp"
#include "support/example_result.hpp"
#include "support/scratch_directory.hpp"

using namespace cubie;

TEST_CASE("result formats by name") {
    CHECK(parse_result_format("csv") == result_format::csv);
    CHECK(parse_result_format("npy") == result_format::npy);
    CHECK_THROWS_WITH_AS(parse_result_format("xlsx"),
                         "unknown result format \"xlsx\": choose csv, npy, h5 or hdf5",
                         std::invalid_argument);
    CHECK_THROWS_AS(parse_result_format("CSV"), std::invalid_argument);
    CHECK_THROWS_AS(parse_result_format(""), std::invalid_argument);
}

TEST_CASE("asking for HDF5 in a program built without it says so") {
#if CUBIE_WITH_HDF5
    CHECK(hdf5_available);
    CHECK(parse_result_format("h5") == result_format::hdf5);
    CHECK(parse_result_format("hdf5") == result_format::hdf5);
#else
    CHECK_FALSE(hdf5_available);
    for (const char* name : {"h5", "hdf5"}) {
        CAPTURE(name);
        CHECK_THROWS_WITH_AS(parse_result_format(name),
                             doctest::Contains("HDF5 was not found when this program was built"),
                             std::runtime_error);
    }
    cubie::testing::scratch_directory scratch("no-hdf5");
    const std::filesystem::path path = scratch.path() / "result.h5";
    const std::string expected =
        "writing " + path.string() + " as HDF5: HDF5 was not found when this program was built";
    CHECK_THROWS_WITH_AS(
        write_result(cubie::testing::example_result<double>(), path, result_format::hdf5),
        doctest::Contains(expected.c_str()), std::runtime_error);
    CHECK_FALSE(std::filesystem::exists(path));
#endif
}
