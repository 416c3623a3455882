#include <starnet/api/gantt.hpp>
#include <starnet/api/markup.hpp>
#include <starnet/api/star_layout.hpp>
#include <starnet/core/error.hpp>

#include "trace_picture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace starnet::api {

namespace {

using detail::time_label;
using detail::to_double;

const char* port_colour(std::uint32_t port) { return LINK_PALETTE[port % LINK_PALETTE.size()]; }

// The SVG's geometry, pixels: rows, margins, sub-rows inside a row, and the room a label needs.
constexpr double NAME_CHAR_WIDTH = 7.0;
constexpr double LABEL_CHAR_WIDTH = 5.5;
constexpr double RIGHT_MARGIN = 40;
constexpr double TOP_MARGIN = 70;
constexpr double MIN_PLOT_WIDTH = 120;
constexpr double LANE_HEIGHT = 10;
constexpr double SLOT_PITCH = 11;   // a sub-row: its bar and a pixel of white
constexpr double ROW_PADDING = 5;   // above the first sub-row (3) and below the last (2)
constexpr double SLOT_TOP = 3;
constexpr std::size_t MIN_NAME_CHARS = 4;
constexpr std::size_t LANES = 3;

double row_height(std::uint32_t slots) { return ROW_PADDING + SLOT_PITCH * static_cast<double>(slots); }

/// Gives each bar its sub-row: per row and lane, bars in order of start take the lowest sub-row
/// free by then (first fit on intervals sorted by start uses as many as overlap at most, the
/// fewest possible); a lane's sub-rows follow the lanes above it. O(B log B + B·S) for B bars and
/// S sub-rows a lane.
void assign_slots(GanttChart& chart) {
  const std::size_t rows = chart.rows.size();
  std::vector<std::size_t> order(chart.bars.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return chart.bars[a].start < chart.bars[b].start;
  });
  // ends[row][lane]: when each sub-row of the lane comes free.
  std::vector<std::array<std::vector<double>, LANES>> ends(rows);
  for (const auto i : order) {
    auto& bar = chart.bars[i];
    auto& free_at = ends[bar.row][static_cast<std::size_t>(bar.lane)];
    const auto slot = std::find_if(free_at.begin(), free_at.end(), [&](double end) { return end <= bar.start; });
    bar.slot = static_cast<std::uint32_t>(slot - free_at.begin());
    if (slot == free_at.end()) {
      free_at.push_back(bar.end);
    } else {
      *slot = bar.end;
    }
  }
  chart.row_slots.assign(rows, 0);
  std::vector<std::array<std::uint32_t, LANES>> first(rows);
  for (std::size_t v = 0; v < rows; ++v) {
    for (std::size_t lane = 0; lane < LANES; ++lane) {
      first[v][lane] = chart.row_slots[v];
      chart.row_slots[v] += static_cast<std::uint32_t>(std::max<std::size_t>(ends[v][lane].size(), 1));
    }
  }
  for (auto& bar : chart.bars) bar.slot += first[bar.row][static_cast<std::size_t>(bar.lane)];
}

std::string svg_head(const GanttChart& chart, double width, double height, double left) {
  std::string s = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n"
      "<title>{2}</title>\n"
      "<style>\n"
      ".send{{fill:#4C78A8}} .receive{{fill:#F58518}} .compute{{fill:#999999}} .bar{{stroke:#fff;stroke-width:1}}\n"
      ".bar.send{{stroke:#000;stroke-width:0.6}}\n"
      ".bar-label{{font-size:8.5px;fill:#fff;pointer-events:none}}\n"
      ".unfinished{{fill-opacity:0.45;stroke:#333;stroke-dasharray:3 2}}\n"
      ".flow{{stroke:#555;stroke-opacity:0.35;stroke-width:1;fill:none}}\n"
      ".grid{{stroke:#ddd;stroke-width:1}} .band{{fill:#f4f4f4}} .makespan{{stroke:#c00;stroke-width:1.5;"
      "stroke-dasharray:6 3}}\n"
      "</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{3:.1f}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{2}</text>\n",
      width, height, xml_escape(chart.title), left);
  // The legend: the lanes, then the colour of each port the messages used.
  std::set<std::uint32_t> ports;
  for (const auto& b : chart.bars) {
    if (b.lane != GanttLane::COMPUTE) ports.insert(b.port);
  }
  std::vector<std::pair<std::string, std::string>> keys = {{"send", "send (upper lane, outlined)"},
                                                           {"receive", "receive (middle lane)"},
                                                           {"compute", "computation (lower lane)"}};
  double lx = left;
  for (const auto& [cls, text] : keys) {
    s += fmt::format("<rect class=\"key {}\" x=\"{:.1f}\" y=\"30\" width=\"14\" height=\"9\"/><text x=\"{:.1f}\" "
                     "y=\"39\">{}</text>\n",
                     cls, lx, lx + 18, text);
    lx += 30 + 6.5 * static_cast<double>(text.size());
  }
  for (const auto port : ports) {
    s += fmt::format("<rect class=\"key port\" x=\"{:.1f}\" y=\"30\" width=\"14\" height=\"9\" style=\"fill:{}\"/>"
                     "<text x=\"{:.1f}\" y=\"39\">port {}</text>\n",
                     lx, port_colour(port), lx + 18, port);
    lx += 70;
  }
  return s;
}

}  // namespace

void require_gantt_rows(std::uint64_t nodes, const std::string& name) {
  if (nodes > MAX_GANTT_ROWS) {
    throw UsageError(Setting{"gantt", ""},
                     fmt::format("{} has {} nodes, more rows than a Gantt chart can show (at most {}); record the "
                                 "trace with «trace» instead (written as a Chrome trace, it opens in Perfetto)",
                                 name, nodes, MAX_GANTT_ROWS));
  }
}

void require_gantt_rows(const Topology& topology) { require_gantt_rows(topology.num_nodes(), topology.name()); }

template <class Time>
GanttChart gantt_chart(const std::vector<TraceEvent<Time>>& trace, const Topology& topology, const std::string& title) {
  require_gantt_rows(topology);
  detail::require_nodes_of(trace, topology);
  const NodeId rows = topology.num_nodes();
  const auto intervals = trace_intervals(trace);
  GanttChart chart;
  chart.makespan = to_double(intervals.makespan);
  chart.makespan_text = time_label(intervals.makespan);
  chart.title = title.empty() ? fmt::format("{}: makespan {}", topology.name(), chart.makespan_text) : title;
  for (NodeId v = 0; v < rows; ++v) chart.rows.push_back(topology.node_name(v));
  chart.bars.reserve(2 * intervals.transfers.size() + intervals.computations.size());
  for (const auto& t : intervals.transfers) {
    const std::string what =
        fmt::format("{} → {} via {}, time {} to {}{}, {} bytes", topology.node_name(t.from), topology.node_name(t.to),
                    topology.link_name(t.from, t.port), time_label(t.start), time_label(t.end),
                    t.finished ? "" : " (unfinished)", t.payload.size());
    const double start = to_double(t.start);
    const double end = to_double(t.end);
    chart.bars.push_back({t.from, GanttLane::SEND, start, end, t.to, t.port, t.finished,
                          "to " + topology.node_name(t.to), "send " + what});
    chart.bars.push_back({t.to, GanttLane::RECEIVE, start, end, t.from, t.port, t.finished,
                          "from " + topology.node_name(t.from), "receive " + what});
    chart.flows.push_back({chart.bars.size() - 2, chart.bars.size() - 1});
  }
  for (const auto& c : intervals.computations) {
    chart.bars.push_back({c.node, GanttLane::COMPUTE, to_double(c.start), to_double(c.end), c.node, 0, c.finished,
                          c.work.to_string() + " tasks",
                          fmt::format("compute at {}: {} tasks, time {} to {}{}", topology.node_name(c.node),
                                      c.work.to_string(), time_label(c.start), time_label(c.end),
                                      c.finished ? "" : " (unfinished)")});
  }
  assign_slots(chart);
  return chart;
}

template GanttChart gantt_chart(const std::vector<TraceEvent<Rational>>&, const Topology&, const std::string&);
template GanttChart gantt_chart(const std::vector<TraceEvent<double>>&, const Topology&, const std::string&);

std::string gantt_svg(const GanttChart& chart, double width_asked) {
  std::size_t name_width = MIN_NAME_CHARS;
  for (const auto& name : chart.rows) name_width = std::max(name_width, name.size());
  // Each row's top, from the sub-rows of the rows above it.
  std::vector<double> row_top(chart.rows.size() + 1, TOP_MARGIN);
  for (std::size_t v = 0; v < chart.rows.size(); ++v) row_top[v + 1] = row_top[v] + row_height(chart.row_slots[v]);
  const double left = 16 + NAME_CHAR_WIDTH * static_cast<double>(name_width);
  const double plot_w = std::max(MIN_PLOT_WIDTH, width_asked - left - RIGHT_MARGIN);
  const double width = left + plot_w + RIGHT_MARGIN;
  const double height = row_top.back() + 40;
  const double span = chart.makespan > 0 ? chart.makespan : 1.0;
  const auto x = [&](double t) { return left + t / span * plot_w; };
  const auto bar_y = [&](const GanttBar& b) { return row_top[b.row] + SLOT_TOP + SLOT_PITCH * b.slot; };
  std::string s = svg_head(chart, width, height, left);
  s += detail::time_axis_svg(left, plot_w, span, TOP_MARGIN - 6, height - 34);
  s += "<g class=\"rows\">\n";
  for (NodeId v = 0; v < chart.rows.size(); ++v) {
    if (v % 2 == 0) {
      s += fmt::format("<rect class=\"band\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>\n", left,
                       row_top[v], plot_w, row_top[v + 1] - row_top[v]);
    }
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6,
                     (row_top[v] + row_top[v + 1]) / 2 + 4, xml_escape(chart.rows[v]));
  }
  s += "</g>\n<g class=\"flows\">\n";
  for (const auto& flow : chart.flows) {
    const auto& a = chart.bars[flow.send];
    const auto& b = chart.bars[flow.receive];
    s += fmt::format("<line class=\"flow\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\"/>\n", x(a.start),
                     bar_y(a) + LANE_HEIGHT / 2, x(b.end), bar_y(b) + LANE_HEIGHT / 2);
  }
  s += "</g>\n<g class=\"bars\">\n";
  constexpr const char* LANE_CLASS[] = {"send", "receive", "compute"};
  for (const auto& b : chart.bars) {
    const double bx = x(b.start);
    const double by = bar_y(b);
    const double bw = x(b.end) - bx;
    const std::string fill =
        b.lane == GanttLane::COMPUTE ? std::string() : fmt::format(" style=\"fill:{}\"", port_colour(b.port));
    s += fmt::format("<rect class=\"bar {}{}\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.1f}\"{}>"
                     "<title>{}</title></rect>\n",
                     LANE_CLASS[static_cast<std::size_t>(b.lane)], b.finished ? "" : " unfinished", bx, by,
                     std::max(bw, 1.0), LANE_HEIGHT, fill, xml_escape(b.tooltip));
    if (bw > 8 + LABEL_CHAR_WIDTH * static_cast<double>(b.label.size())) {
      s += fmt::format("<text class=\"bar-label\" x=\"{:.2f}\" y=\"{:.2f}\">{}</text>\n", bx + 3, by + LANE_HEIGHT - 2,
                       xml_escape(b.label));
    }
  }
  s += "</g>\n";
  return s + detail::makespan_and_end_svg(x(chart.makespan), TOP_MARGIN - 12, height - 34, TOP_MARGIN - 16,
                                          chart.makespan_text);
}

}  // namespace starnet::api
