#pragma once
// Internal to the topology library: text helpers shared by the file readers (files.cpp for DOT and
// GraphML, simgrid.cpp for SimGrid platforms).

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace starnet::topology::detail {

/// The white space of XML (and of DOT attribute values).
constexpr std::string_view XML_SPACE = " \t\r\n";

/// @p text without leading and trailing XML white space.
inline std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(XML_SPACE);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(XML_SPACE) - first + 1);
}

/// Line numbers of offsets into a text (pugixml gives offsets, messages give lines).
class Lines {
 public:
  explicit Lines(std::string_view text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(i + 1);
    }
  }
  /// The 1-based line of @p offset; 0 when pugixml gives none (-1).
  [[nodiscard]] std::size_t of(std::ptrdiff_t offset) const {
    if (offset < 0) return 0;
    return static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), static_cast<std::size_t>(offset)) -
                                    starts_.begin());
  }

 private:
  std::vector<std::size_t> starts_;
};

}  // namespace starnet::topology::detail
