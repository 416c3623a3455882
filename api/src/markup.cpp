#include <starnet/api/markup.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace starnet::api {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string payload_text(std::string_view payload) {
  // A word of the built-ins: at most this many bytes, read little-endian.
  constexpr std::size_t WORD_BYTES = 8;
  constexpr unsigned char FIRST_PRINTABLE = 0x20;
  constexpr unsigned char DEL = 0x7f;
  if (!payload.empty() && std::all_of(payload.begin(), payload.end(), [](unsigned char c) {
        return c >= FIRST_PRINTABLE && c < DEL;
      })) {
    return std::string(payload);
  }
  if (payload.empty() || payload.size() > WORD_BYTES) return plural(payload.size(), "byte", "bytes");
  std::uint64_t word = 0;
  for (std::size_t i = payload.size(); i-- > 0;) word = (word << 8) | static_cast<unsigned char>(payload[i]);
  return std::to_string(word);
}

std::string shorten(std::string_view text, std::size_t max_chars) {
  const auto starts_char = [](char c) { return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U; };
  std::size_t chars = 0;
  std::size_t cut = text.size();  // where the (max_chars − 1)th character ends
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!starts_char(text[i])) continue;
    if (chars + 1 == max_chars) cut = i;
    if (++chars > max_chars) return max_chars == 0 ? std::string() : std::string(text.substr(0, cut)) + "…";
  }
  return std::string(text);
}

std::string plural(std::uint64_t count, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", count, count == 1 ? one : many);
}

}  // namespace starnet::api
