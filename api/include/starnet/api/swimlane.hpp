#pragma once
/// @file
/// The space-time (swim-lane) diagram of a run, one for both faces, as teachers of distributed
/// algorithms draw them (Lamport, "Time, clocks, and the ordering of events in a distributed
/// system", CACM 21(7), 1978, Figure 1; turned so that time runs to the right): a horizontal line
/// per node, time along it, an arrow per message from its sender at the time it was sent to its
/// receiver at the time it arrived, labelled with its payload (in full on hover), computations as
/// bars on their node's line and timers as marks where they fire. Read from the trace (what
/// happened), paired as emulator/trace_intervals.hpp says. The command line writes it with
/// `--swimlane FILE.svg` beside `--gantt`; the Python module's results with `swimlane()`.
///
///          0      1      2      3
///   0 ─────●──────────────●──────────
///           ╲  "x"        ▲
///   1 ──────╲─────────────┼──────────
///             ╲          ╱ "ack"
///   2 ─────────▶───────●─────────────
///
/// IMPORTANT: a message still in flight when the trace ends is drawn dashed, up to the trace's
/// end on its receiver's line; nothing tells whether it would have arrived.

#include <starnet/api/markup.hpp>
#include <starnet/api/topology.hpp>
#include <starnet/api/trace.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starnet::api {

/// Most nodes (lines) a space-time diagram draws, in both faces: 256 lines of SWIMLANE_LINE_GAP
/// pixels are about what a scrolled page still reads.
inline constexpr std::uint64_t MAX_SWIMLANE_NODES = 256;
/// Most messages (arrows) it draws: beyond, arrows cover one another and the file grows past a
/// few megabytes.
inline constexpr std::uint64_t MAX_SWIMLANE_MESSAGES = 10000;
/// Most characters of an arrow's label (fewer where the arrow is short); the whole text is in the
/// arrow's tooltip.
inline constexpr std::size_t SWIMLANE_LABEL_CHARS = 24;

/// @throws UsageError about setting "swimlane" naming @p name and its @p nodes when they are more
/// than MAX_SWIMLANE_NODES; call it before running, so that a run too large to draw fails at once.
/// O(1).
void require_swimlane_nodes(std::uint64_t nodes, const std::string& name);
/// The same for @p topology.
void require_swimlane_nodes(const Topology& topology);

/// A message: from (sender, start) to (receiver, end).
struct SwimlaneArrow {
  NodeId from = 0;
  NodeId to = 0;
  std::uint32_t port = 0;  ///< the sender's port (its colour, as in the Gantt chart)
  double start = 0;
  double end = 0;          ///< the arrival; the trace's end when unfinished
  bool finished = true;    ///< false: still in flight when the trace ends
  bool lost = false;       ///< it never arrived (a run with faults): drawn to where it was due, crossed
  std::string label;       ///< the payload's text, whole (shortened where drawn)
  std::string tooltip;     ///< ends, link, times (exact where they are), tag, the whole payload text
};

/// A computation (a bar on its node's line), a timer (a mark where it fired, a dotted span for
/// the time the node slept) or a crash (a cross on the line where the node stopped; a link's failure
/// on its lower end's line).
struct SwimlaneMark {
  enum class Kind : std::uint8_t { COMPUTE, TIMER, CRASH };
  NodeId node = 0;
  Kind kind = Kind::COMPUTE;
  double start = 0;
  double end = 0;
  bool finished = true;
  std::string tooltip;
};

struct SwimlaneDiagram {
  std::string title;               ///< as given, or "<topology>: makespan <T>"
  std::vector<std::string> lines;  ///< node names, top to bottom (node ids in order)
  std::vector<SwimlaneArrow> arrows;  ///< one per transfer, in send order
  std::vector<SwimlaneMark> marks;    ///< computations, then crashes and timers, each in trace order
  double makespan = 0;
  std::string makespan_text;  ///< exact where the run's time is
};

/// The diagram of @p trace, recorded on @p topology; @p text gives each message's label (none:
/// payload_text()).
/// @throws UsageError about setting "swimlane" as require_swimlane_nodes(), and when the trace has
/// more than MAX_SWIMLANE_MESSAGES transfers; InputError when an event names a node outside
/// @p topology, and as trace_intervals(). O(E log E + V) for E events and V nodes.
template <class Time>
[[nodiscard]] SwimlaneDiagram swimlane_diagram(const std::vector<TraceEvent<Time>>& trace, const Topology& topology,
                                               const std::string& title = "", const PayloadText& text = {});

/// Default width of the SVG, pixels (its height follows from the nodes).
inline constexpr double SWIMLANE_SVG_WIDTH = 960;
/// Pixels between two nodes' lines.
inline constexpr double SWIMLANE_LINE_GAP = 36;

/// @p diagram as an SVG document (complete, well-formed XML): a line per node (class "lifeline"),
/// an arrow per message (a <g class="message"> holding its <title>, the arrow, class "arrow",
/// dashed and class "unfinished" when it did not arrive, and its label where it fits), computation
/// bars (class "compute") and timer marks (class "timer") with tooltips, the time axis and the
/// makespan. Deterministic. O(arrows + marks + nodes).
[[nodiscard]] std::string swimlane_svg(const SwimlaneDiagram& diagram, double width = SWIMLANE_SVG_WIDTH);

}  // namespace starnet::api
