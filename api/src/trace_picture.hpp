#pragma once
// What the pictures of a run drawn from its trace along time (the Gantt chart, the space-time
// diagram) share: the check that the trace is of the topology, a run's time as a double for placing
// and as a label, and the time axis with its grid.

#include <starnet/api/markup.hpp>
#include <starnet/api/topology.hpp>
#include <starnet/api/trace.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

namespace starnet::api::detail {

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
  return time_text(t, TimeText::BRIEF);
}

/// @throws InputError naming the first event of @p trace that names a node outside @p topology.
template <class Time>
void require_nodes_of(const std::vector<TraceEvent<Time>>& trace, const Topology& topology) {
  const NodeId nodes = topology.num_nodes();
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (trace[i].node >= nodes || trace[i].peer >= nodes) {
      throw InputError(fmt::format("{}: names a node outside {} (nodes 0..{})", describe_event(i, trace[i]),
                                   topology.name(), nodes - 1));
    }
  }
}

/// A round number of time units between axis ticks: 1, 2 or 5 times a power of ten, so that
/// about eight ticks cover @p span.
inline double tick_step(double span) {
  const double raw = span / 8;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double f : {1.0, 2.0, 5.0}) {
    if (f * magnitude >= raw) return f * magnitude;
  }
  return 10 * magnitude;
}

/// The time axis of a picture whose time 0..@p span runs from x = @p left over @p plot_w pixels:
/// a grid line a tick from @p top to @p bottom, the tick's time under it, "time" below them.
inline std::string time_axis_svg(double left, double plot_w, double span, double top, double bottom) {
  const auto x = [&](double t) { return left + t / span * plot_w; };
  const double tick = tick_step(span);
  std::string s = "<g class=\"axis\">\n";
  for (int k = 0; static_cast<double>(k) * tick <= span * (1 + 1e-9); ++k) {
    const double t = static_cast<double>(k) * tick;
    s += fmt::format("<line class=\"grid\" x1=\"{0:.2f}\" y1=\"{1:.1f}\" x2=\"{0:.2f}\" y2=\"{2:.1f}\"/><text x=\"{0:.2f}\" "
                     "y=\"{3:.1f}\" text-anchor=\"middle\">{4:g}</text>\n",
                     x(t), top, bottom, bottom + 14, t);
  }
  s += fmt::format("<text x=\"{:.2f}\" y=\"{:.1f}\" text-anchor=\"middle\">time</text>\n</g>\n", left + plot_w / 2,
                   bottom + 28);
  return s;
}

/// The makespan's dashed line at x = @p x from @p top to @p bottom, its label ending there at
/// @p label_y, and the document's end.
inline std::string makespan_and_end_svg(double x, double top, double bottom, double label_y, const std::string& text) {
  return fmt::format(
      "<line class=\"makespan\" x1=\"{0:.2f}\" y1=\"{1:.1f}\" x2=\"{0:.2f}\" y2=\"{2:.1f}\"/>\n"
      "<text class=\"makespan-label\" x=\"{0:.2f}\" y=\"{3:.1f}\" text-anchor=\"end\" fill=\"#c00\">makespan "
      "{4}</text>\n"
      "</svg>\n",
      x, top, bottom, label_y, xml_escape(text));
}

}  // namespace starnet::api::detail
