#pragma once
/// @file
/// Text inside the SVG and HTML that starnet writes (the Gantt chart, the topology drawing, the
/// teaching pages): names and payloads come from users' files and programs.

#include <string>
#include <string_view>

namespace starnet::api {

/// Escapes text for XML content and attribute values (&, <, >, ", ').
[[nodiscard]] std::string xml_escape(std::string_view text);

}  // namespace starnet::api
