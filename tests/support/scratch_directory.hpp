#pragma once
// A fresh folder under the system's temporary folder for one test, removed with everything
// in it when the test ends. Its name is random, so that test binaries running side by side
// never share one.

#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace cubie::testing {

class scratch_directory {
public:
    explicit scratch_directory(const std::string& tag) {
        std::random_device random;
        path_ = std::filesystem::temp_directory_path() /
                ("cubie-" + tag + "-" + std::to_string(random()) + std::to_string(random()));
        std::filesystem::create_directories(path_);
    }
    ~scratch_directory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    scratch_directory(const scratch_directory&) = delete;
    scratch_directory& operator=(const scratch_directory&) = delete;

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace cubie::testing
