// The link report, written and read back (api/link_report.hpp).
#include <starnet/api/link_report.hpp>

#include <starnet/api/json.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/input.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>

namespace starnet::api {
namespace {

/// The columns a link report read back must have (others are ignored).
constexpr std::array<std::string_view, 6> READ_COLUMNS = {"row", "topology", "link", "messages", "units_exact",
                                                          "busy_exact"};

/// What a file read as a link report should be, for messages.
std::string expected_report() {
  return fmt::format("expected a link report: a CSV with columns {}", fmt::join(READ_COLUMNS, ", "));
}

[[nodiscard]] bool exact_column(std::string_view c) { return c == "packets" || c == "units" || c == "busy"; }

/// The cells of one CSV line (quotes doubled inside a quoted cell); false when a quote is left open.
bool split_csv_line(std::string_view line, std::vector<std::string>& cells) {
  cells.assign(1, std::string());
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        cells.back() += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"', ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else if (c != '\r') {
      cells.back() += c;
    }
  }
  return !quoted;
}

}  // namespace

void add_link_report(nlohmann::json& report, const LinkReportRun& run, const std::vector<LinkLoad>& loads) {
  for (const auto& l : loads) {
    nlohmann::json j = {{"row", run.row},
                        {"topology", run.topology},
                        {"algorithm", run.algorithm},
                        {"ports", run.ports.ports},
                        {"duplex", duplex_name(run.ports)},
                        {"link", l.link},
                        {"messages", l.messages}};
    put_exact(j, "packets", l.packets);
    put_exact(j, "units", l.packets * run.packet_units);
    put_exact(j, "busy", l.busy);
    report.push_back(std::move(j));
  }
}

std::string csv_cell(const nlohmann::json& v) {
  if (v.is_null()) return "";
  std::string s;
  if (v.is_array()) {
    // A list as --fail-links and --fail-nodes take it.
    for (const auto& item : v) s += (s.empty() ? "" : ",") + item.get<std::string>();
  } else {
    s = v.is_string() ? v.get<std::string>() : v.dump();
  }
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (const char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string link_report_csv(const nlohmann::json& report) {
  // Numbers, the exact ones (packets, units, busy) with their exact text beside them.
  std::string out;
  for (const auto c : LINK_REPORT_COLUMNS) {
    out += fmt::format("{}{}{}", out.empty() ? "" : ",", c, exact_column(c) ? fmt::format(",{}_exact", c) : "");
  }
  out += "\n";
  for (const auto& j : report) {
    std::string line;
    for (const auto c : LINK_REPORT_COLUMNS) {
      const std::string key(c);
      line += std::string(c == LINK_REPORT_COLUMNS[0] ? "" : ",") + csv_cell(j[key]);
      if (exact_column(c)) line += "," + csv_cell(j.contains(key + "_exact") ? j[key + "_exact"] : j[key]);
    }
    out += line + "\n";
  }
  return out;
}

std::vector<LinkReportLine> parse_link_report(std::string_view text, std::string_view setting, const std::string& path) {
  const auto refuse = [&](std::size_t line, const std::string& why) {
    return UsageError(Setting{std::string(setting), path}, fmt::format("line {}: {}", line, why));
  };
  std::vector<std::string> cells;
  std::map<std::string, std::size_t, std::less<>> column;
  std::vector<LinkReportLine> out;
  std::size_t number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find('\n', start), text.size());
    const auto line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (!split_csv_line(line, cells)) throw refuse(number, "a quoted cell is not closed");
    if (column.empty()) {
      for (std::size_t i = 0; i < cells.size(); ++i) column.emplace(cells[i], i);
      for (const auto c : READ_COLUMNS) {
        if (!column.contains(c)) throw refuse(number, fmt::format("no column \"{}\" ({})", c, expected_report()));
      }
      continue;
    }
    const auto cell = [&](std::string_view c) -> const std::string& {
      const auto i = column.find(c)->second;
      if (i >= cells.size()) throw refuse(number, fmt::format("{} cells, no \"{}\"", cells.size(), c));
      return cells[i];
    };
    const auto whole = [&](std::string_view c) {
      std::uint64_t value = 0;
      const auto& s = cell(c);
      const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
      if (ec != std::errc() || ptr != s.data() + s.size()) {
        throw refuse(number, fmt::format("{} \"{}\" is not a whole number", c, s));
      }
      return value;
    };
    const auto exact = [&](std::string_view c) {
      try {
        return Rational::parse(cell(c), c);
      } catch (const Error& e) {
        throw refuse(number, e.what());
      }
    };
    out.push_back({whole("row"), cell("topology"), cell("link"), whole("messages"), exact("units_exact"),
                   exact("busy_exact")});
  }
  if (column.empty()) throw refuse(number, fmt::format("empty ({})", expected_report()));
  return out;
}

std::vector<LinkReportLine> read_link_report(const std::string& path, std::string_view setting) {
  std::string text;
  try {
    text = read_input(path, "the file", "a link report (CSV)");
  } catch (const InputError& e) {
    throw UsageError(Setting{std::string(setting), path}, e.what());
  }
  return parse_link_report(text, setting, path);
}

}  // namespace starnet::api
