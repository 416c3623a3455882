#pragma once
/// @file
/// The link report (docs/whatif.md, "Link reports"; docs/schedules.md): what each directed link
/// carried in a run — messages, packets, units (packets × the size of one) and busy time — one
/// line per link and run, the same columns whoever wrote it (`whatif --link-report`,
/// `schedule run --link-report`), and read back to colour a drawing by load (`topo draw
/// --link-loads`, api/drawing.hpp).

#include <starnet/algorithms/collectives/whatif_row.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/emulator/config.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::api {

using algorithms::collectives::LinkLoad;

/// The columns of the report, in order; packets, units and busy are exact, each followed in the
/// CSV by its exact text, KEY_exact (docs/json.md).
inline constexpr std::string_view LINK_REPORT_COLUMNS[] = {"row",  "topology", "algorithm", "ports", "duplex",
                                                           "link", "messages", "packets",   "units", "busy"};

/// What names a run of the report: its row, the topology (spec or name), the algorithm, the port
/// model, and the size of one packet in units (whatif's message size, a schedule's chunk size).
struct LinkReportRun {
  std::uint64_t row = 0;
  std::string topology;
  std::string algorithm;
  emulator::PortModel ports;
  Rational packet_units = 1;
};

/// Appends to @p report (a JSON array) a line per link of @p loads, in their order. O(links).
void add_link_report(nlohmann::json& report, const LinkReportRun& run, const std::vector<LinkLoad>& loads);

/// @p report (add_link_report()'s array) as CSV: a header of LINK_REPORT_COLUMNS, then a line a
/// link. O(size).
[[nodiscard]] std::string link_report_csv(const nlohmann::json& report);

/// A cell of a CSV file from a JSON value: null empty, a list joined with commas, text quoted
/// where it holds a comma, a quote or a newline.
[[nodiscard]] std::string csv_cell(const nlohmann::json& value);

/// A line of a link report read back.
struct LinkReportLine {
  std::uint64_t row = 0;
  std::string topology;
  std::string link;  ///< "a->b"
  std::uint64_t messages = 0;
  Rational units;
  Rational busy;
};

/// Reads a link report's CSV @p text (link_report_csv()'s columns; others are ignored, a missing
/// one refused). @p setting names the input in errors, @p path its file.
/// @throws UsageError about @p setting naming the file, the line and what was expected.
/// O(size).
[[nodiscard]] std::vector<LinkReportLine> parse_link_report(std::string_view text, std::string_view setting,
                                                            const std::string& path);
/// The same, read from @p path (a regular file, or - for standard input; topology/input.hpp). @throws
/// UsageError about @p setting also when the file cannot be read (missing, a folder, too large).
[[nodiscard]] std::vector<LinkReportLine> read_link_report(const std::string& path, std::string_view setting);

}  // namespace starnet::api
