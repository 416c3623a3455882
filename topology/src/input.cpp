// Reading user inputs under limits (input.hpp).
#include <starnet/core/error.hpp>
#include <starnet/topology/input.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace starnet {
namespace {

/// What a path is, for a message that says why it is not read.
std::string_view kind_of(const std::filesystem::file_status& status) {
  namespace fs = std::filesystem;
  switch (status.type()) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::fifo: return "a FIFO";
    case fs::file_type::character:
    case fs::file_type::block: return "a device";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

InputError too_large(std::string_view what) {
  return InputError(fmt::format("{}: larger than the limit of {} MiB (expected a smaller file)", what, MAX_INPUT_BYTES >> 20));
}

/// Reads @p in to its end, refusing more than MAX_INPUT_BYTES.
std::string read_all(std::istream& in, std::string_view what) {
  constexpr std::size_t CHUNK = std::size_t{1} << 16;
  std::array<char, CHUNK> buffer{};
  std::string text;
  while (in) {
    in.read(buffer.data(), buffer.size());
    const auto got = static_cast<std::size_t>(in.gcount());
    if (text.size() + got > MAX_INPUT_BYTES) throw too_large(what);
    text.append(buffer.data(), got);
  }
  if (in.bad()) throw InputError(fmt::format("{}: reading failed ({})", what, std::strerror(errno)));
  return text;
}

[[noreturn]] void too_deep(std::string_view text, std::size_t at, std::string_view what, std::size_t limit,
                           std::string_view unit) {
  const auto line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n'));
  throw InputError(fmt::format("{} line {}: nesting deeper than {} levels of {} (expected at most {}; the limit "
                               "keeps parsers off the end of their stack)",
                               what, line, limit, unit, limit));
}

/// Index just past the end of @p close searched from @p from, or the text's end.
std::size_t past(std::string_view text, std::size_t from, std::string_view close) {
  const auto end = text.find(close, from);
  return end == std::string_view::npos ? text.size() : end + close.size();
}

/// Index just past a quoted string opening at @p at (backslash escapes the next byte in DOT).
std::size_t past_quoted(std::string_view text, std::size_t at, char quote, bool escapes) {
  for (std::size_t i = at + 1; i < text.size(); ++i) {
    if (escapes && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      return i + 1;
    }
  }
  return text.size();
}

/// Index just past an HTML string `<…>` of DOT, whose angle brackets nest.
std::size_t past_html(std::string_view text, std::size_t at) {
  std::size_t depth = 0;
  for (std::size_t i = at; i < text.size(); ++i) {
    if (text[i] == '<') ++depth;
    if (text[i] == '>' && --depth == 0) return i + 1;
  }
  return text.size();
}

void check_dot(std::string_view text, std::string_view what, std::size_t limit) {
  std::size_t depth = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const bool line_start = i == 0 || text[i - 1] == '\n';
    if (c == '"') {
      i = past_quoted(text, i, '"', true);
    } else if (c == '<') {
      i = past_html(text, i);
    } else if (text.substr(i, 2) == "/*") {
      i = past(text, i + 2, "*/");
    } else if (text.substr(i, 2) == "//" || (c == '#' && line_start)) {
      i = past(text, i, "\n");
    } else {
      if (c == '{' && ++depth > limit) too_deep(text, i, what, limit, "braces");
      if (c == '}' && depth > 0) --depth;
      ++i;
    }
  }
}

/// Index just past the tag opening at @p at (quoted attribute values may hold '>').
std::size_t past_tag(std::string_view text, std::size_t at) {
  for (std::size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == '"' || text[i] == '\'') i = past_quoted(text, i, text[i], false) - 1;
    else if (text[i] == '>') return i + 1;
  }
  return text.size();
}

void check_xml(std::string_view text, std::string_view what, std::size_t limit) {
  std::size_t depth = 0;
  std::size_t i = text.find('<');
  while (i < text.size()) {
    const std::string_view rest = text.substr(i);
    if (rest.starts_with("<!--")) {
      i = past(text, i + 4, "-->");
    } else if (rest.starts_with("<![CDATA[")) {
      i = past(text, i + 9, "]]>");
    } else if (rest.starts_with("<?")) {
      i = past(text, i + 2, "?>");
    } else if (rest.starts_with("<!")) {
      i = past_html(text, i);  // a DOCTYPE: its internal subset nests brackets as DOT's HTML does
    } else if (rest.starts_with("</")) {
      if (depth > 0) --depth;
      i = past_tag(text, i);
    } else {
      const std::size_t end = past_tag(text, i);
      const bool empty = end >= 2 && text[end - 2] == '/' && text[end - 1] == '>';
      if (!empty && ++depth > limit) too_deep(text, i, what, limit, "elements");
      i = end;
    }
    i = text.find('<', i);
  }
}

}  // namespace

std::string read_input(const std::string& path, std::string_view what, std::string_view expected) {
  namespace fs = std::filesystem;
  if (path == "-") return read_all(std::cin, what);
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) {
    throw InputError(fmt::format("{}: does not exist (expected {})", what, expected));
  }
  if (!fs::is_regular_file(status)) {
    throw InputError(fmt::format("{}: is {} (expected {}: a regular file, or - for standard input)", what,
                                 kind_of(status), expected));
  }
  if (const auto size = fs::file_size(path, ec); !ec && size > MAX_INPUT_BYTES) throw too_large(what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot be read ({}; expected {})", what, std::strerror(errno), expected));
  return read_all(in, what);
}

void check_nesting(std::string_view text, Nesting syntax, std::string_view what, std::size_t limit) {
  if (syntax == Nesting::DOT) {
    check_dot(text, what, limit);
  } else {
    check_xml(text, what, limit);
  }
}

}  // namespace starnet
