#pragma once
/// @file
/// Text inside the SVG and HTML that starnet writes (the Gantt chart, the topology drawing, the
/// teaching pages): names and payloads come from users' files and programs; and counts as both
/// faces write them.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace starnet::api {

/// Escapes text for XML content and attribute values (&, <, >, ", ').
[[nodiscard]] std::string xml_escape(std::string_view text);

/// A message's text for people, from its payload (a Python program's payloads are indices into the
/// objects it sent: the module gives their repr).
using PayloadText = std::function<std::string(std::string_view payload)>;

/// A payload as the pictures of a run label it when the caller gives no PayloadText: printable
/// ASCII as it is; up to 8 bytes, the little-endian unsigned word (what the built-in programs send);
/// else its length ("24 bytes"). O(payload).
[[nodiscard]] std::string payload_text(std::string_view payload);

/// @p text cut to at most @p max_chars characters (UTF-8 code points, never inside one), the last
/// one "…" when it was cut. O(text).
[[nodiscard]] std::string shorten(std::string_view text, std::size_t max_chars);

/// "1 node", "3 nodes": @p count and the word that fits it.
[[nodiscard]] std::string plural(std::uint64_t count, std::string_view one, std::string_view many);

}  // namespace starnet::api
