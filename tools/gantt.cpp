#include "gantt.hpp"

#include <starnet/api/core.hpp>
#include <starnet/api/markup.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <tuple>
#include <type_traits>

namespace starnet::tools {

using api::xml_escape;

using api::EventKind;
using api::NodeId;

namespace {

template <class Time>
double to_double(const Time& t) {
  if constexpr (std::is_same_v<Time, Rational>) {
    return t.to_double();
  } else {
    return static_cast<double>(t);
  }
}

/// A label: exact where the time is exact ("7/2"), six significant digits otherwise.
template <class Time>
std::string time_label(const Time& t) {
  return api::time_text(t, api::TimeText::BRIEF);
}

/// A round number of time units between axis ticks: 1, 2 or 5 times a power of ten, so that
/// about eight ticks cover @p span.
double tick_step(double span) {
  const double raw = span / 8;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double f : {1.0, 2.0, 5.0}) {
    if (f * magnitude >= raw) return f * magnitude;
  }
  return 10 * magnitude;
}

}  // namespace

void require_gantt_rows(std::uint64_t nodes, const std::string& name) {
  if (nodes > MAX_GANTT_ROWS) {
    throw UsageError(fmt::format(
        "--gantt: {} has {} nodes, more rows than a Gantt chart can show (at most {}); write the trace instead "
        "(--trace FILE, or --trace FILE --trace-format chrome for Perfetto)",
        name, nodes, MAX_GANTT_ROWS));
  }
}

void require_gantt_rows(const api::Topology& topology) { require_gantt_rows(topology.num_nodes(), topology.name()); }

template <class Time>
std::string gantt_svg(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& topology,
                      const GanttOptions& options) {
  require_gantt_rows(topology);
  const NodeId rows = topology.num_nodes();
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const auto& e = trace[i];
    if (e.node >= rows || e.peer >= rows) {
      throw InputError(
          fmt::format("{}: names a node outside {} (nodes 0..{})", api::describe_event(i, trace[i]), topology.name(), rows - 1));
    }
  }
  const auto intervals = trace_intervals(trace);

  std::size_t name_width = 4;
  for (NodeId v = 0; v < rows; ++v) name_width = std::max(name_width, topology.node_name(v).size());
  const double row_h = 38;
  const double left = 16 + 7.0 * static_cast<double>(name_width);
  const double right = 40;
  const double top = 70;
  const double plot_w = std::max(120.0, options.width - left - right);
  const double width = left + plot_w + right;
  const double height = top + static_cast<double>(rows) * row_h + 40;
  const double span = intervals.makespan > Time{} ? to_double(intervals.makespan) : 1.0;
  const auto x = [&](const Time& t) { return left + to_double(t) / span * plot_w; };
  const auto row_y = [&](NodeId v) { return top + static_cast<double>(v) * row_h; };
  // Lanes inside a row: sends, receives, computations.
  const double send_y = 3;
  const double receive_y = 14;
  const double compute_y = 25;
  const double lane_h = 10;

  const std::string title = options.title.empty()
                                ? fmt::format("{}: makespan {}", topology.name(), time_label(intervals.makespan))
                                : options.title;
  std::string s = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n"
      "<title>{2}</title>\n"
      "<style>\n"
      ".send{{fill:#4C78A8}} .receive{{fill:#F58518}} .compute{{fill:#54A24B}} .bar{{stroke:#fff;stroke-width:1}}\n"
      ".bar-label{{font-size:8.5px;fill:#fff;pointer-events:none}}\n"
      ".unfinished{{fill-opacity:0.45;stroke:#333;stroke-dasharray:3 2}}\n"
      ".flow{{stroke:#555;stroke-opacity:0.35;stroke-width:1;fill:none}}\n"
      ".grid{{stroke:#ddd;stroke-width:1}} .band{{fill:#f4f4f4}} .makespan{{stroke:#c00;stroke-width:1.5;"
      "stroke-dasharray:6 3}}\n"
      "</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{3:.1f}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{2}</text>\n",
      width, height, xml_escape(title), left);
  // Legend.
  double lx = left;
  for (const auto& [cls, text] :
       {std::pair{"send", "send (sender's row)"}, std::pair{"receive", "receive (receiver's row)"},
        std::pair{"compute", "computation"}}) {
    s += fmt::format(
        "<rect class=\"key {}\" x=\"{:.1f}\" y=\"30\" width=\"14\" height=\"9\"/><text x=\"{:.1f}\" "
        "y=\"39\">{}</text>\n",
        cls, lx, lx + 18, text);
    lx += 30 + 6.5 * static_cast<double>(std::char_traits<char>::length(text));
  }
  // Time axis and grid.
  const double tick = tick_step(span);
  s += "<g class=\"axis\">\n";
  for (int k = 0; static_cast<double>(k) * tick <= span * (1 + 1e-9); ++k) {
    const double t = static_cast<double>(k) * tick;
    const double tx = left + t / span * plot_w;
    s += fmt::format(
        "<line class=\"grid\" x1=\"{0:.2f}\" y1=\"{1:.1f}\" x2=\"{0:.2f}\" y2=\"{2:.1f}\"/><text x=\"{0:.2f}\" "
        "y=\"{3:.1f}\" "
        "text-anchor=\"middle\">{4:g}</text>\n",
        tx, top - 6, height - 34, height - 20, t);
  }
  s += fmt::format("<text x=\"{:.2f}\" y=\"{:.1f}\" text-anchor=\"middle\">time</text>\n</g>\n", left + plot_w / 2,
                   height - 6);
  // Rows.
  s += "<g class=\"rows\">\n";
  for (NodeId v = 0; v < rows; ++v) {
    if (v % 2 == 0) {
      s += fmt::format("<rect class=\"band\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>\n", left,
                       row_y(v), plot_w, row_h);
    }
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6, row_y(v) + 23,
                     xml_escape(topology.node_name(v)));
  }
  s += "</g>\n<g class=\"flows\">\n";
  for (const auto& t : intervals.transfers) {
    s += fmt::format("<line class=\"flow\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\"/>\n", x(t.start),
                     row_y(t.from) + send_y + lane_h / 2, x(t.end), row_y(t.to) + receive_y + lane_h / 2);
  }
  s += "</g>\n<g class=\"bars\">\n";
  // A bar, with its label inside when it fits (about 5.5 px per character).
  const auto bar = [&](const char* cls, bool finished, double bx, double by, double bw, const std::string& tip,
                       const std::string& label) {
    s += fmt::format(
        "<rect class=\"bar {}{}\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" "
        "height=\"{:.1f}\"><title>{}</title></rect>\n",
        cls, finished ? "" : " unfinished", bx, by, std::max(bw, 1.0), lane_h, xml_escape(tip));
    if (bw > 8 + 5.5 * static_cast<double>(label.size())) {
      s += fmt::format("<text class=\"bar-label\" x=\"{:.2f}\" y=\"{:.2f}\">{}</text>\n", bx + 3, by + lane_h - 2,
                       xml_escape(label));
    }
  };
  for (const auto& t : intervals.transfers) {
    const std::string what =
        fmt::format("{} → {} via {}, time {} to {}{}, {} bytes", topology.node_name(t.from), topology.node_name(t.to),
                    topology.link_name(t.from, t.port), time_label(t.start), time_label(t.end),
                    t.finished ? "" : " (unfinished)", t.payload.size());
    bar("send", t.finished, x(t.start), row_y(t.from) + send_y, x(t.end) - x(t.start), "send " + what,
        "to " + topology.node_name(t.to));
    bar("receive", t.finished, x(t.start), row_y(t.to) + receive_y, x(t.end) - x(t.start), "receive " + what,
        "from " + topology.node_name(t.from));
  }
  for (const auto& c : intervals.computations) {
    bar("compute", c.finished, x(c.start), row_y(c.node) + compute_y, x(c.end) - x(c.start),
        fmt::format("compute at {}: {} tasks, time {} to {}{}", topology.node_name(c.node), c.work.to_string(),
                    time_label(c.start), time_label(c.end), c.finished ? "" : " (unfinished)"),
        c.work.to_string() + " tasks");
  }
  s += "</g>\n";
  const double mx = x(intervals.makespan);
  s += fmt::format(
      "<line class=\"makespan\" x1=\"{0:.2f}\" y1=\"{1:.1f}\" x2=\"{0:.2f}\" y2=\"{2:.1f}\"/>\n"
      "<text class=\"makespan-label\" x=\"{0:.2f}\" y=\"{3:.1f}\" text-anchor=\"end\" fill=\"#c00\">makespan "
      "{4}</text>\n"
      "</svg>\n",
      mx, top - 12, height - 34, top - 16, xml_escape(time_label(intervals.makespan)));
  return s;
}

template std::string gantt_svg(const std::vector<api::TraceEvent<Rational>>&, const api::Topology&,
                               const GanttOptions&);
template std::string gantt_svg(const std::vector<api::TraceEvent<double>>&, const api::Topology&,
                               const GanttOptions&);

}  // namespace starnet::tools
