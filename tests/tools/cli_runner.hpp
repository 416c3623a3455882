#pragma once
// Runs build/bin/starnet as a user would and captures what it prints, for the CLI tests.

#include "starnet_test_paths.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace starnet::tools::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  [[nodiscard]] nlohmann::json json() const { return nlohmann::json::parse(out); }
};

/// The text of file @p p ("" when it cannot be read).
inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Runs the shell command @p command with its standard error into @p err_path, and captures both.
inline CliResult run_shell(const std::string& command, const std::filesystem::path& err_path) {
  const std::string cmd = command + " 2>" + err_path.string();
  CliResult r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 65536> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read(err_path);
  std::filesystem::remove(err_path);
  return r;
}

/// Runs `starnet ARGS` through the shell (ARGS is a shell fragment, quoted by the caller).
inline CliResult run_starnet(const std::string& args) {
  const auto err_path = std::filesystem::temp_directory_path() / ("starnet_cli_err_" + std::to_string(::getpid()));
  return run_shell(std::string(STARNET_EXE) + " " + args, err_path);
}

/// The exact text of the rational field @p key of a JSON document (docs/json.md): KEY_exact when
/// the value is not an integer (then KEY must be a number near it), else the integer KEY.
inline std::string exact(const nlohmann::json& j, const std::string& key) {
  if (j.contains(key + "_exact")) {
    if (!j.at(key).is_number_float()) return "(" + key + " is not a number beside " + key + "_exact)";
    return j.at(key + "_exact").get<std::string>();
  }
  if (!j.at(key).is_number_integer()) return "(" + key + " is neither an integer nor given with " + key + "_exact)";
  return std::to_string(j.at(key).get<std::int64_t>());
}

/// The stored transcript tests/tools/golden/NAME. Set STARNET_UPDATE_GOLDEN=1 to rewrite it
/// from @p actual (then review the diff before committing).
inline std::string golden(const std::string& name, const std::string& actual) {
  const std::filesystem::path path = std::filesystem::path(STARNET_SOURCE_DIR) / "tests/tools/golden" / name;
  if (std::getenv("STARNET_UPDATE_GOLDEN") != nullptr) std::ofstream(path) << actual;
  return read(path);
}

}  // namespace starnet::tools::testing
