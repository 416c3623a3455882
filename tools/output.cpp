#include "command.hpp"

#include <starnet/api/core.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace starnet::tools {

namespace {

namespace fs = std::filesystem;

/// The folder @p target is written in.
fs::path folder_of(const fs::path& target) { return target.has_parent_path() ? target.parent_path() : fs::path("."); }

/// A write that failed once the file was open: the disk is full or failing, a runtime failure.
[[noreturn]] void writing_failed(const std::string& path) {
  throw Error(fmt::format("output file \"{}\": writing failed ({})", path, std::strerror(errno)));
}

/// Writes @p content into the existing device or FIFO @p path in place: a rename would replace the
/// node itself (as root, /dev/null with a regular file).
void write_in_place(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    throw UsageError(fmt::format("output file \"{}\": cannot be written ({}; expected a writable path)", path,
                                 std::strerror(errno)));
  }
  out << content;
  out.flush();
  if (!out) writing_failed(path);
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  if (path == "-") {
    std::cout << content << std::flush;
    if (!std::cout) throw TransportError(fmt::format("standard output: writing failed ({})", std::strerror(errno)));
    return;
  }
  const fs::path target(path);
  std::error_code ec;
  const auto type = fs::status(target, ec).type();
  if (type == fs::file_type::directory) {
    throw UsageError(fmt::format("output file \"{}\": is a directory (expected a file name)", path));
  }
  if (type == fs::file_type::character || type == fs::file_type::block || type == fs::file_type::fifo) {
    write_in_place(path, content);
    return;
  }
  const fs::path tmp = folder_of(target) / fmt::format(".{}.tmp{}", target.filename().string(), ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw UsageError(fmt::format("output file \"{}\": cannot be written ({}; expected a writable path)", path,
                                   std::strerror(errno)));
    }
    out << content;
    out.flush();
    if (!out) {
      const int error = errno;
      fs::remove(tmp, ec);
      errno = error;
      writing_failed(path);
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw UsageError(fmt::format("output file \"{}\": cannot be written ({})", path, ec.message()));
  }
}

CLI::Validator output_file(std::vector<std::string> extensions, bool standard_output) {
  std::string expected = "a file name";
  for (std::size_t i = 0; i < extensions.size(); ++i) {
    expected += fmt::format("{}{}", i == 0 ? " ending in " : " or ", extensions[i]);
  }
  if (standard_output) expected += ", or - for standard output";
  auto check = [extensions = std::move(extensions), standard_output, expected](const std::string& path) -> std::string {
    if (path == "-") return standard_output ? "" : fmt::format("\"-\": expected {}", expected);
    if (path.empty()) return fmt::format("\"\": expected {}", expected);
    if (!extensions.empty() &&
        std::none_of(extensions.begin(), extensions.end(), [&](const std::string& e) { return path.ends_with(e); })) {
      return fmt::format("output file \"{}\": expected {}", path, expected);
    }
    const fs::path target(path);
    std::error_code ec;
    if (fs::is_directory(target, ec)) return fmt::format("output file \"{}\": is a directory (expected {})", path, expected);
    const fs::path folder = folder_of(target);
    if (!fs::is_directory(folder, ec) || ::access(folder.c_str(), W_OK | X_OK) != 0) {
      return fmt::format("output file \"{}\": its folder \"{}\" {} (expected a writable path)", path, folder.string(),
                         fs::exists(folder, ec) ? "is not a writable folder" : "does not exist");
    }
    return "";
  };
  return {check, "FILE"};
}

namespace {

/// Length of the UTF-8 sequence at the start of @p s, or 0 when it is not one (overlong forms,
/// surrogates and code points above U+10FFFF included).
std::size_t utf8_length(std::string_view s) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = byte(0);
  std::size_t n = 0;
  unsigned min = 0;
  unsigned code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2, min = 0x80, code = lead & 0x1FU;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3, min = 0x800, code = lead & 0x0FU;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4, min = 0x10000, code = lead & 0x07U;
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i) {
    if ((byte(i) & 0xC0U) != 0x80U) return 0;
    code = (code << 6U) | (byte(i) & 0x3FU);
  }
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  return code < min || surrogate || code > 0x10FFFF ? 0 : n;
}

}  // namespace

std::string printable(std::string_view text, Lines lines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' && lines == Lines::ONE) {
      out += "\\n";
      ++i;
    } else if (c == '\n' || (c >= 0x20 && c < 0x7F)) {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(text.substr(i)) : 0; n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  return out;
}

}  // namespace starnet::tools
