// `starnet whatif`: one collective across topologies, port models, link costs and faults, every
// run verified on the emulator and set beside its lower bound (docs/whatif.md).
#include "command.hpp"
#include "json_output.hpp"
#include "trace_output.hpp"
#include "plot.hpp"

#include <starnet/api/optimal.hpp>

#include <starnet/api/whatif.hpp>
#include <starnet/api/core.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace starnet::tools {
namespace {

using algorithms::collectives::Algorithm;
using algorithms::collectives::WhatIfRow;


/// The study's settings (api::whatif_settings(), as text) and what only the command line does
/// with its results.
struct WhatIfOptions {
  SettingOptions settings;
  bool json = false;
  std::string csv;
  std::string link_report;
  std::string plot;
  TraceOutput trace;
  [[nodiscard]] const std::string& operator[](const std::string& name) const { return settings.text(name); }
};

/// Where the plot goes, checked before anything runs: "svg" or "png".
std::string plot_format(const std::string& path) {
  const auto ext = std::filesystem::path(path).extension().string();
  if (ext == ".svg") return "svg";
  if (ext == ".png") return "png";
  throw UsageError(fmt::format("--plot {}: expected a file name ending in .svg or .png", path));
}

std::string port_text(const emulator::PortModel& m) { return fmt::format("{} {}", m.ports, api::duplex_name(m)); }

/// The exit code of a study in which no row ran: nothing measured is neither a success nor a
/// failed verification (docs/whatif.md, README "Exit codes").
constexpr int EXIT_NOTHING_RAN = 4;

/// The cells of a row that ran: steps (unit time) or "-" (timed), volume, the time when the links
/// have costs, the bound (steps, or time with costs), the ratio, messages, verdict.
std::vector<std::string> measured_cells(const WhatIfRow& r, bool times) {
  std::vector<std::string> cells{r.timed() ? "-" : std::to_string(r.steps), std::to_string(r.volume)};
  if (times) cells.push_back(time_text(r.makespan));
  cells.push_back(times ? time_text(r.lower_bound_time) : std::to_string(r.lower_bound));
  cells.push_back(r.ratio ? fmt::format("{:.2f}", *r.ratio) : "-");
  cells.push_back(std::to_string(r.messages));
  cells.push_back(r.verified ? "yes" : "NO");
  return cells;
}

std::string table_text(const std::vector<WhatIfRow>& rows, const api::WhatIfRequest& request, const WhatIfOptions& o,
                       bool times) {
  using Cells = std::vector<std::string>;
  Cells header{"topology", "ports", "faults", "nodes", "links", "diam", "algorithm", "steps", "volume"};
  if (times) header.push_back("time");
  header.insert(header.end(), {"bound", "ratio", "messages", "verified"});
  std::vector<Cells> table{header};
  std::vector<std::string> notes;
  std::set<std::string> noted;
  std::size_t verified = 0;
  std::size_t na = 0;
  // A sweep of message sizes: each row says its size.
  const bool sweep = request.message_size.size() > 1;
  for (const auto& r : rows) {
    Cells row{sweep ? fmt::format("{} m={}", r.topology, r.message_size.to_string()) : r.topology,
              port_text(r.ports),
              r.faults,
              std::to_string(r.nodes),
              std::to_string(r.links),
              (r.diameter_exact ? "" : "≥") + r.diameter.to_string(),
              to_string(r.algorithm)};
    if (!r.applicable) {
      ++na;
      row.push_back("not applicable: " + r.reason);
    } else {
      verified += r.verified ? 1 : 0;
      const auto cells = measured_cells(r, times);
      row.insert(row.end(), cells.begin(), cells.end());
    }
    table.push_back(std::move(row));
    if (r.applicable && !r.verified) {
      notes.push_back(fmt::format("{} {} ({}, faults {}) NOT verified: {}", r.topology, to_string(r.algorithm),
                                  port_text(r.ports), r.faults, r.reason.empty() ? "no reason recorded" : r.reason));
    }
    if (r.processors < r.nodes && noted.insert(r.topology).second) {
      notes.push_back(
          r.link_loads.empty()
              ? fmt::format("{}: {} of the {} nodes are processors, among which the collective runs (diam: between "
                            "processors); its routers only forward",
                            r.topology, r.processors, r.nodes)
              : fmt::format("{}: {} of the {} nodes are hosts, among which the collective runs over routes (crossbar "
                            "switches, {} forwarding, {} routing, {} placement; diam: network steps); a link carries "
                            "one message at a time, a message waits for its route (arbitrated)",
                            r.topology, r.processors, r.nodes, o["forwarding"], o["routing"], o["placement"]));
    }
    const auto key = r.topology + "|" + r.faults;
    if (!r.connected && noted.insert(key).second) {
      notes.push_back(
          fmt::format("{} with faults {}: disconnected, root {} reaches {} of {} alive nodes (the bfs-tree "
                      "rows ran on those)",
                      r.topology, r.faults, r.root, r.nodes, r.alive_nodes));
    }
  }
  // Column widths in characters (UTF-8 aware: "≥" is one column).
  const auto width = [](const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
  };
  // A "not applicable" reason runs on past the columns it covers, so it sets no width.
  std::vector<std::size_t> widths(table[0].size(), 0);
  for (const auto& row : table) {
    const std::size_t sized = row.size() == widths.size() ? row.size() : row.size() - 1;
    for (std::size_t i = 0; i < sized; ++i) widths[i] = std::max(widths[i], width(row[i]));
  }
  std::set<std::size_t> right = {3, 4, 5};
  for (std::size_t i = 7; i + 1 < header.size(); ++i) right.insert(i);
  const std::string& latency = o["latency"];
  const std::string& bandwidth = o["bandwidth"];
  const std::string costs =
      latency.empty() && bandwidth.empty()
          ? o["costs"]
          : fmt::format("α–β ({}{}{})", latency.empty() ? "" : "latency " + latency,
                        latency.empty() || bandwidth.empty() ? "" : ", ",
                        bandwidth.empty() ? "" : "bandwidth " + bandwidth);
  const std::string values = o["values"] == "random" ? fmt::format("random (seed {})", o["seed"]) : "rank + 1";
  // Only the reductions apply the operator; the others move the values whole.
  const auto collective = request.collective;
  const std::string data = algorithms::reduces(collective) ? fmt::format("{} of {} values", o["op"], values)
                           : collective == algorithms::Collective::BROADCAST
                               ? fmt::format("root {}'s value of the {} values, no operator", o["root"], values)
                               : fmt::format("{} values moved whole, no operator", values);
  std::string out = fmt::format("whatif: {} ({}), {} link costs{}{}; {}\n", o["collective"], data, costs,
                                o["costs"] == "random" ? fmt::format(" (seed {})", o["seed"]) : "",
                                o["message_size"] == "1" ? "" : fmt::format(", messages of {} units", o["message_size"]),
                                plural(rows.size(), "row", "rows"));
  for (const auto& row : table) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const auto pad = widths[i] > width(row[i]) ? widths[i] - width(row[i]) : 0;
      const std::string spaces(pad, ' ');
      const bool reason = row.size() != widths.size() && i + 1 == row.size();
      line += (i == 0 ? "" : "  ") + (reason              ? row[i]
                                      : right.contains(i) ? spaces + row[i]
                                                          : row[i] + (i + 1 < row.size() ? spaces : ""));
    }
    out += line + "\n";
  }
  out += times ? "steps: measured on the emulator (strict port-model checks; \"-\": a timed run with heterogeneous "
                 "costs, arbitrated); volume: packets the busiest node sends; time: the makespan, step-synchronous "
                 "Σ(α + largest message·m/β) with equal links, the timed run's otherwise; bound: a lower bound on the "
                 "time of any algorithm, α·L + m/β·max(L/max(m, 1), V/k) (L the step bound, V the packets some "
                 "node must send or receive, k ports) — docs/whatif.md\n"
               : "steps: measured on the emulator, unit time, strict port-model checks; volume: packets the busiest node "
                 "sends; bound = max(⌈log_(k+1) N⌉ (+1 for single-port half-duplex all-reduce and all-gather), diameter "
                 "or the root's eccentricity) — docs/whatif.md\n";
  for (const auto& n : notes) out += "note: " + n + "\n";
  out += fmt::format("{} verified, {} not applicable, {} NOT verified\n", verified, na,
                     rows.size() - verified - na);
  return out;
}

/// Draws the study's figure (api::whatif_figure: what the table ranks by) into @p path, its gnuplot
/// script beside it (tools/plot.hpp): one group of bars per (topology, port model, faults), one bar
/// per algorithm coloured by algorithm, a row that did not run marked "n/a" in its slot, one not
/// verified marked "NO" above its bar, and the group's lower bound as a black line across it.
void write_plot(const api::WhatIfResult& result, const WhatIfOptions& o, const std::string& path) {
  const std::map<std::string, std::string> colours = {
      {"star", "#4C72B0"},       {"recursive-doubling", "#55A868"}, {"recursive-halving", "#2F7F45"},
      {"ring", "#C44E52"},       {"bruck", "#DD8452"},              {"uniform", "#937860"},
      {"one-packet", "#DA8BC3"}, {"combining", "#8C8C8C"},          {"bfs-tree", "#8172B2"},
      {"dimension-ordered", "#8C613C"}, {"ring-split", "#E377C2"},       {"rabenseifner", "#17BECF"},
      {"weighted-tree", "#BCBD22"}, {"hierarchical", "#7F7F7F"},
      {"schedule", "#CCB974"},   {"optimal", "#64B5CD"}};
  const api::WhatIfFigure figure = api::whatif_figure(result);
  double smallest = 0;
  for (const auto& g : figure.groups) {
    for (const auto& b : g.bars) {
      if (b.value && *b.value > 0 && (smallest == 0 || *b.value < smallest)) smallest = *b.value;
    }
  }
  // Marks sit at the axis's foot: 0, or below the smallest value on a log scale.
  const double foot = figure.log_scale ? smallest / 2 : 0;
  std::map<std::string, std::string> bars;  // "x value" lines per algorithm
  std::string bounds;                       // "centre value half-width" lines
  std::string marks;                        // "x y text" lines
  std::string tics;
  double x = 0;
  for (const auto& g : figure.groups) {
    const double first = x;
    for (const auto& b : g.bars) {
      if (b.value) {
        const double shown = std::max(*b.value, foot);
        bars[b.algorithm] += fmt::format("{} {}\n", x, shown);
        if (!b.mark.empty()) marks += fmt::format("{} {} \"NO\"\n", x, shown);
      } else {
        marks += fmt::format("{} {} \"n/a {}\"\n", x, foot, b.algorithm);
      }
      x += 1;
    }
    const double centre = (first + x - 1) / 2;
    if (g.bound) bounds += fmt::format("{} {} {}\n", centre, std::max(*g.bound, foot), (x - first) / 2);
    tics += fmt::format("{}\"{}\" {}", tics.empty() ? "" : ", ", g.label, centre);
    x += 1;  // gap between groups
  }
  const auto width = static_cast<int>(std::max(900.0, 28 * x + 15 * static_cast<double>(figure.groups.size()) + 240));
  std::string script = gnuplot_terminal(path, width, 640, 11) + fmt::format(
      "set title \"{}: {} per topology, port model (k ports, duplex) and faults; black line: lower bound; n/a: not "
      "applicable\" noenhanced\n"
      "set style fill solid 0.85 border rgb '#333333'\n"
      "set boxwidth 0.8\n"
      "set xtics ({}) rotate by -40 scale 0 font ',9' noenhanced\n"
      "set xrange [-1:{}]\n"
      "set ylabel {} noenhanced\n"
      "{}"
      "set grid ytics\n"
      "set key outside top center horizontal noenhanced\n"
      "set bmargin 11\n"
      "set rmargin 14\n",
      o["collective"], figure.quantity, tics, x, gnuplot_quote(figure.axis),
      figure.log_scale ? fmt::format("set logscale y\nset yrange [{}:*]\n", foot) : "set yrange [0:*]\n");
  std::string plot = "plot ";
  std::vector<GnuplotData> data;
  for (const auto& [a, colour] : colours) {
    if (!bars.contains(a)) continue;
    std::string block = a;  // a datablock name: recursive_doubling
    std::replace(block.begin(), block.end(), '-', '_');
    data.push_back({block, bars[a]});
    // Boxes from the axis's foot, which a log scale puts above 0.
    plot += fmt::format("${} using 1:2:($1-0.4):($1+0.4):({}):2 with boxxyerror title '{}' lc rgb '{}', \\\n     ",
                        block, foot, a, colour);
  }
  if (!bounds.empty()) {
    data.push_back({"bounds", bounds});
    // A line without markers: error bars with `ps 0` put scale(0) into the SVG, which librsvg rejects.
    plot += "$bounds using ($1-$3):2:(2*$3):(0) with vectors nohead lc rgb 'black' lw 3 title 'lower bound', \\\n     ";
  }
  if (!marks.empty()) {
    data.push_back({"marks", marks});
    plot += "$marks using 1:2:3 with labels rotate by 90 left offset 0,0.5 font ',8' notitle, \\\n     ";
  }
  plot.resize(plot.rfind(','));  // drop the continuation after the last plot
  plot += "\n";
  draw_gnuplot(path,
               fmt::format("`starnet whatif --collective {} --topologies {} ...` (docs/whatif.md): the {} each\n"
                           "algorithm took, what the table ranks by; --csv writes the rows in full.",
                           o["collective"], o["topologies"], figure.quantity),
               script + (figure.groups.empty() ? "plot 0 notitle\n" : plot), data);
}

int run(const WhatIfOptions& o) {
  if (!o.plot.empty()) (void)plot_format(o.plot);
  auto request = api::whatif_settings().parse(o.settings.given());
  request.link_report = !o.link_report.empty();
  TraceRuns traces(o.trace);
  if (o.trace.wanted()) {
    request.observer = [&traces](const WhatIfRow& r, const emulator::RunResult<Rational>& run,
                                 const api::Topology& net) {
      traces.add(run.trace, net,
                 fmt::format("{} {} ({} ports, faults: {})", r.topology, to_string(r.algorithm), port_text(r.ports),
                             r.faults));
    };
  }
  const auto result = api::run_whatif(request);
  traces.write();
  if (!o.csv.empty()) write_file_atomically(o.csv, result.csv());
  if (!o.link_report.empty()) write_file_atomically(o.link_report, result.link_report_csv());
  if (!o.plot.empty()) write_plot(result, o, o.plot);
  if (o.json) {
    print_json(result.to_json());
  } else {
    const bool times = request.costs != algorithms::generic::CostKind::UNIT || request.latency || request.bandwidth;
    std::cout << table_text(result.rows, request, o, times);
  }
  if (result.rows_run == 0) {
    std::cerr << fmt::format("starnet: whatif: no row ran: every algorithm was not applicable (the reasons are in "
                             "the rows); exit {}\n",
                             EXIT_NOTHING_RAN);
    return EXIT_NOTHING_RAN;
  }
  return result.verified ? 0 : 1;
}

}  // namespace

void declare_whatif_command(CLI::App& cmd, Action& action) {
  static WhatIfOptions o;
  // --help shows every option's default; an empty default (--topologies, --csv, …) shows nothing.
  cmd.option_defaults()->always_capture_default();
  o.settings.add_to(cmd, api::whatif_settings().rows());
  cmd.footer(SPEC_SYNTAX);
  cmd.add_flag("--json", o.json, "Print one JSON document {\"rows\": [...], ...} instead of the table");
  cmd.add_option("--csv", o.csv, "Also write the rows as CSV to FILE")->check(output_file());
  cmd.add_option("--link-report", o.link_report,
                 "Also write what each directed link carried (messages, packets, units, busy time) in every row run "
                 "among the hosts of a network, as CSV to FILE")
      ->check(output_file());
  o.trace.add_to(cmd, "every emulated run of the study, numbered in the order of the rows that ran (\"run\" on each "
                     "JSON line; one Chrome process per run)");
  cmd.add_option("--plot", o.plot,
                 "Also write a gnuplot bar chart (steps per topology and port model, lower bound "
                 "marked) to FILE.svg or FILE.png")
      ->check(output_file({".svg", ".png"}));
  cmd.callback([&action] {
    action = [] { return run(o); };
  });
}

}  // namespace starnet::tools
