#pragma once
// scratch_dir(prefix): a folder of this test process's own for the files a test writes, made
// empty on first use and removed with its contents when the process ends (ctest runs each test
// in a process of its own, so a folder per process and prefix is a folder per test).

#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <system_error>

namespace starnet::testing {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix)
      : path_(std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(::getpid()))), owner_(::getpid()) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    // Only the process that made it: a forked child that exits must not take it away.
    std::error_code ignored;
    if (::getpid() == owner_) std::filesystem::remove_all(path_, ignored);
  }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  pid_t owner_;
};

/// The scratch folder of @p prefix, e.g. "starnet_viz": /tmp/starnet_viz_<pid>.
inline const std::filesystem::path& scratch_dir(const std::string& prefix) {
  static std::map<std::string, std::unique_ptr<ScratchDir>> dirs;
  auto& dir = dirs[prefix];
  if (!dir) dir = std::make_unique<ScratchDir>(prefix);
  return dir->path();
}

}  // namespace starnet::testing
