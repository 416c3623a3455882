#include <starnet/api/swimlane.hpp>
#include <starnet/api/gantt.hpp>
#include <starnet/api/star_layout.hpp>
#include <starnet/core/error.hpp>

#include "trace_picture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace starnet::api {

namespace {

using detail::time_label;
using detail::to_double;

// The SVG's geometry, pixels: margins, the room a name and a label character need.
constexpr double TOP_MARGIN = 60;
constexpr double BOTTOM_MARGIN = 44;
constexpr double RIGHT_MARGIN = 40;
constexpr double NAME_CHAR_WIDTH = 7.0;
constexpr double LABEL_CHAR_WIDTH = 5.6;
constexpr double MIN_PLOT_WIDTH = 160;
constexpr std::size_t MIN_NAME_CHARS = 4;
/// An arrow's label stands this far above it, along at most this share of the arrow; it needs this
/// many characters' room or is left out.
constexpr double LABEL_LIFT = 4;
constexpr double LABEL_SPAN = 0.5;
constexpr std::size_t MIN_LABEL_CHARS = 3;
/// Room kept free at each end of an arrow (its head, the dots of the events).
constexpr double ARROW_END_ROOM = 12;
constexpr double COMPUTE_BAR_HEIGHT = 8;
constexpr double TIMER_MARK_RADIUS = 3.5;
constexpr double CROSS_HALF = 4;  // half the side of a lost message's or a crash's cross
/// The width of the invisible line that makes an arrow easy to point at for its tooltip.
constexpr double HIT_WIDTH = 8;

/// An arrowhead per port colour ("head-K" for LINK_PALETTE[K]): SVG 1.1 markers take no colour
/// from the line they end.
std::string arrow_heads() {
  std::string s = "<defs>";
  for (std::size_t k = 0; k < LINK_PALETTE.size(); ++k) {
    s += fmt::format("<marker id=\"head-{}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" "
                     "markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{}\"/></marker>",
                     k, LINK_PALETTE[k]);
  }
  return s + "</defs>\n";
}

std::string svg_head(const SwimlaneDiagram& d, double width, double height, double left) {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n"
      "<title>{2}</title>\n"
      "<style>\n"
      ".lifeline{{stroke:#333;stroke-width:1.2}} .node-name{{font-weight:bold}}\n"
      ".arrow{{stroke-width:1.4;fill:none}} .unfinished{{stroke-dasharray:5 3}}\n"
      ".hit{{stroke:transparent;stroke-width:{3:.0f}}} .message:hover .arrow{{stroke-width:3}}\n"
      ".message-label{{font-size:10px;fill:#111;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}}\n"
      ".event{{fill:#333}} .compute{{fill:#999999;stroke:#333;stroke-width:0.6}} .compute.unfinished{{fill-opacity:0.45}}\n"
      ".timer{{fill:#fff;stroke:#7a3;stroke-width:1.5}} .sleep{{stroke:#7a3;stroke-width:3;stroke-dasharray:2 3}}\n"
      ".lost{{stroke-dasharray:2 2}} .cross{{stroke:#c00;stroke-width:2.2}}\n"
      ".grid{{stroke:#e4e4e4;stroke-width:1}} .makespan{{stroke:#c00;stroke-width:1.5;stroke-dasharray:6 3}}\n"
      "</style>\n"
      "{5}"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{4:.1f}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{2}</text>\n"
      "<text x=\"{4:.1f}\" y=\"38\" fill=\"#555\">a line per node, time to the right; an arrow per message from its "
      "sending to its arrival, coloured by the sender's port; grey bars: computations; circles: timers; red crosses: lost messages and crashes</text>\n",
      width, height, xml_escape(d.title), HIT_WIDTH, left, arrow_heads());
}

/// A red cross centred on (@p x, @p y): a lost message's end, a crash.
std::string cross_svg(double x, double y) {
  return fmt::format("<path class=\"cross\" d=\"M{0:.2f},{1:.2f} l{2},{2} M{0:.2f},{3:.2f} l{2},{4}\"/>", x - CROSS_HALF,
                     y - CROSS_HALF, 2 * CROSS_HALF, y + CROSS_HALF, -2 * CROSS_HALF);
}

/// One message: the arrow between its two events, the events as dots, the label along the arrow
/// where it fits, all in one group under the message's tooltip.
std::string arrow_svg(const SwimlaneArrow& a, double x1, double y1, double x2, double y2) {
  const std::size_t colour = a.port % LINK_PALETTE.size();
  std::string s = fmt::format("<g class=\"message\"><title>{}</title>", xml_escape(a.tooltip));
  s += fmt::format("<line class=\"hit\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\"/>", x1, y1, x2, y2);
  const bool headed = a.finished && !a.lost;
  s += fmt::format("<line class=\"arrow{}\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"{}\"{}/>",
                   a.lost ? " lost" : a.finished ? "" : " unfinished", x1, y1, x2, y2, LINK_PALETTE[colour],
                   headed ? fmt::format(" marker-end=\"url(#head-{})\"", colour) : "");
  if (a.lost) s += cross_svg(x2, y2);
  s += fmt::format("<circle class=\"event\" cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"2\"/>", x1, y1);
  // The label starts near the sender and takes at most the first half of the arrow: two messages
  // exchanged at once cross at their middles, and their labels stay apart.
  const double length = std::hypot(x2 - x1, y2 - y1);
  const auto room = static_cast<std::size_t>(std::max(0.0, LABEL_SPAN * length - ARROW_END_ROOM) / LABEL_CHAR_WIDTH);
  const std::size_t chars = std::min(room, SWIMLANE_LABEL_CHARS);
  if (!a.label.empty() && chars >= MIN_LABEL_CHARS && length > 0) {
    const double ux = (x2 - x1) / length;
    const double uy = (y2 - y1) / length;
    const double lx = x1 + ARROW_END_ROOM * ux;
    const double ly = y1 + ARROW_END_ROOM * uy;
    const double angle = std::atan2(uy, ux) * 180 / std::numbers::pi;  // in -90..90: time never runs back
    s += fmt::format("<text class=\"message-label\" x=\"{:.2f}\" y=\"{:.2f}\" "
                     "transform=\"rotate({:.2f} {:.2f} {:.2f})\">{}</text>",
                     lx, ly - LABEL_LIFT, angle, lx, ly, xml_escape(shorten(a.label, chars)));
  }
  return s + "</g>\n";
}

}  // namespace

void require_swimlane_nodes(std::uint64_t nodes, const std::string& name) {
  if (nodes > MAX_SWIMLANE_NODES) {
    throw UsageError(Setting{"swimlane", ""},
                     fmt::format("{} has {} nodes, more lines than a space-time diagram can show (at most {}); draw a "
                                 "Gantt chart («gantt», up to {} rows) or record the trace («trace») instead",
                                 name, nodes, MAX_SWIMLANE_NODES, MAX_GANTT_ROWS));
  }
}

void require_swimlane_nodes(const Topology& topology) {
  require_swimlane_nodes(topology.num_nodes(), topology.name());
}

template <class Time>
SwimlaneDiagram swimlane_diagram(const std::vector<TraceEvent<Time>>& trace, const Topology& topology,
                                 const std::string& title, const PayloadText& text) {
  require_swimlane_nodes(topology);
  detail::require_nodes_of(trace, topology);
  const NodeId nodes = topology.num_nodes();
  const auto intervals = trace_intervals(trace);
  if (intervals.transfers.size() > MAX_SWIMLANE_MESSAGES) {
    throw UsageError(Setting{"swimlane", ""},
                     fmt::format("the run on {} has {} messages, more arrows than a space-time diagram can show (at "
                                 "most {}); draw a Gantt chart («gantt») or a smaller run",
                                 topology.name(), intervals.transfers.size(), MAX_SWIMLANE_MESSAGES));
  }
  SwimlaneDiagram d;
  d.makespan = to_double(intervals.makespan);
  d.makespan_text = time_label(intervals.makespan);
  d.title = title.empty() ? fmt::format("{}: makespan {}", topology.name(), d.makespan_text) : title;
  for (NodeId v = 0; v < nodes; ++v) d.lines.push_back(topology.node_name(v));
  for (const auto& t : intervals.transfers) {
    std::string label = text ? text(t.payload) : payload_text(t.payload);
    std::string tooltip = fmt::format("{} → {} via {}, sent at {}, {} {}, tag {}: {}", topology.node_name(t.from),
                                      topology.node_name(t.to), topology.link_name(t.from, t.port), time_label(t.start),
                                      t.lost ? "lost when due at" : t.finished ? "arrived at" : "still in flight at",
                                      time_label(t.end), t.tag, label);
    d.arrows.push_back({t.from, t.to, t.port, to_double(t.start), to_double(t.end), t.finished, t.lost,
                        std::move(label), std::move(tooltip)});
  }
  for (const auto& c : intervals.computations) {
    d.marks.push_back({c.node, SwimlaneMark::Kind::COMPUTE, to_double(c.start), to_double(c.end), c.finished,
                       fmt::format("compute at {}: {} tasks, time {} to {}{}", topology.node_name(c.node),
                                   c.work.to_string(), time_label(c.start), time_label(c.end),
                                   c.finished ? "" : " (unfinished)")});
  }
  // A timer's event comes when it fires; its size is how long the node slept.
  for (const auto& e : trace) {
    if (e.kind == EventKind::CRASH || e.kind == EventKind::LINK_DOWN) {
      const double at = to_double(e.time);
      d.marks.push_back({e.node, SwimlaneMark::Kind::CRASH, at, at, true,
                         e.kind == EventKind::CRASH
                             ? fmt::format("{} crashed at {}", topology.node_name(e.node), time_label(e.time))
                             : fmt::format("the link {}–{} failed at {}", topology.node_name(e.node),
                                           topology.node_name(e.peer), time_label(e.time))});
    }
    if (e.kind != EventKind::TIMER) continue;
    const double end = to_double(e.time);
    d.marks.push_back({e.node, SwimlaneMark::Kind::TIMER, end - e.size.to_double(), end, true,
                       fmt::format("timer at {}: slept {}, fired at {}, tag {}", topology.node_name(e.node),
                                   e.size.to_string(), time_label(e.time), e.tag)});
  }
  return d;
}

template SwimlaneDiagram swimlane_diagram(const std::vector<TraceEvent<Rational>>&, const Topology&,
                                          const std::string&, const PayloadText&);
template SwimlaneDiagram swimlane_diagram(const std::vector<TraceEvent<double>>&, const Topology&,
                                          const std::string&, const PayloadText&);

std::string swimlane_svg(const SwimlaneDiagram& d, double width_asked) {
  std::size_t name_width = MIN_NAME_CHARS;
  for (const auto& name : d.lines) name_width = std::max(name_width, name.size());
  const double left = 20 + NAME_CHAR_WIDTH * static_cast<double>(name_width);
  const double plot_w = std::max(MIN_PLOT_WIDTH, width_asked - left - RIGHT_MARGIN);
  const double width = left + plot_w + RIGHT_MARGIN;
  const double lines_h = static_cast<double>(std::max<std::size_t>(d.lines.size(), 1)) * SWIMLANE_LINE_GAP;
  const double height = TOP_MARGIN + lines_h + BOTTOM_MARGIN;
  const double span = d.makespan > 0 ? d.makespan : 1.0;
  const auto x = [&](double t) { return left + t / span * plot_w; };
  const auto y = [&](NodeId v) { return TOP_MARGIN + (static_cast<double>(v) + 0.5) * SWIMLANE_LINE_GAP; };
  std::string s = svg_head(d, width, height, left);
  s += detail::time_axis_svg(left, plot_w, span, TOP_MARGIN - 6, TOP_MARGIN + lines_h);
  s += "<g class=\"lines\">\n";
  for (NodeId v = 0; v < d.lines.size(); ++v) {
    s += fmt::format("<line class=\"lifeline\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>"
                     "<text class=\"node-name\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n",
                     left, y(v), left + plot_w, y(v), left - 8, y(v) + 4, xml_escape(d.lines[v]));
  }
  s += "</g>\n<g class=\"marks\">\n";
  for (const auto& m : d.marks) {
    if (m.kind == SwimlaneMark::Kind::CRASH) {
      s += fmt::format("<g class=\"crash-mark\"><title>{}</title>{}</g>\n", xml_escape(m.tooltip), cross_svg(x(m.end), y(m.node)));
    } else if (m.kind == SwimlaneMark::Kind::COMPUTE) {
      s += fmt::format("<rect class=\"compute{}\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.1f}\">"
                       "<title>{}</title></rect>\n",
                       m.finished ? "" : " unfinished", x(m.start), y(m.node) - COMPUTE_BAR_HEIGHT / 2,
                       std::max(x(m.end) - x(m.start), 1.0), COMPUTE_BAR_HEIGHT, xml_escape(m.tooltip));
    } else {
      s += fmt::format("<g class=\"timer-mark\"><title>{0}</title><line class=\"sleep\" x1=\"{1:.2f}\" y1=\"{3:.2f}\" "
                       "x2=\"{2:.2f}\" y2=\"{3:.2f}\"/><circle class=\"timer\" cx=\"{2:.2f}\" cy=\"{3:.2f}\" "
                       "r=\"{4}\"/></g>\n",
                       xml_escape(m.tooltip), x(std::max(m.start, 0.0)), x(m.end), y(m.node), TIMER_MARK_RADIUS);
    }
  }
  s += "</g>\n<g class=\"messages\">\n";
  for (const auto& a : d.arrows) s += arrow_svg(a, x(a.start), y(a.from), x(a.end), y(a.to));
  s += "</g>\n";
  return s + detail::makespan_and_end_svg(x(d.makespan), TOP_MARGIN - 6, TOP_MARGIN + lines_h, TOP_MARGIN - 10,
                                          d.makespan_text);
}

}  // namespace starnet::api
