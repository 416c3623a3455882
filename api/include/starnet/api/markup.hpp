#pragma once
/// @file
/// Text inside the SVG and HTML that starnet writes (the Gantt chart, the topology drawing, the
/// teaching pages): names and payloads come from users' files and programs; and counts as both
/// faces write them.

#include <cstdint>
#include <string>
#include <string_view>

namespace starnet::api {

/// Escapes text for XML content and attribute values (&, <, >, ", ').
[[nodiscard]] std::string xml_escape(std::string_view text);

/// "1 node", "3 nodes": @p count and the word that fits it.
[[nodiscard]] std::string plural(std::uint64_t count, std::string_view one, std::string_view many);

}  // namespace starnet::api
