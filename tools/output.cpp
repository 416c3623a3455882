#include "command.hpp"

#include <starnet/topology/error.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace starnet::tools {

void write_file_atomically(const std::string& path, const std::string& content) {
  if (path == "-") {
    std::cout << content << std::flush;
    if (!std::cout) throw TransportError(fmt::format("standard output: writing failed ({})", std::strerror(errno)));
    return;
  }
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const fs::path tmp = dir / fmt::format(".{}.tmp{}", target.filename().string(), ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw UsageError(fmt::format("output file \"{}\": cannot be written ({}; expected a writable path)", path,
                                   std::strerror(errno)));
    }
    out << content;
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw UsageError(fmt::format("output file \"{}\": writing failed ({})", path, std::strerror(errno)));
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw UsageError(fmt::format("output file \"{}\": cannot be written ({})", path, ec.message()));
  }
}

}  // namespace starnet::tools
