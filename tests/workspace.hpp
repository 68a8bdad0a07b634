// A fresh temporary folder per test, removed with everything in it at the end of the test.
#pragma once
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include <unistd.h>

namespace ozref::test {

struct Workspace {
  std::filesystem::path dir;
  Workspace() {
    static std::atomic<int> count{0};
    dir = std::filesystem::temp_directory_path() /
          ("ozref-test-" + std::to_string(::getpid()) + "-" + std::to_string(count.fetch_add(1)));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Workspace() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  // Writes `bytes` to `name` (plainly, not through the code under test); returns its path.
  std::string file(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }
  // The names in the folder (not recursive), sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

}  // namespace ozref::test
