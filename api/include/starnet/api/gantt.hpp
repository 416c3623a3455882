#pragma once
/// @file
/// The Gantt chart of a run, one for both faces: what it shows is decided here, from the trace
/// (what happened, never recomputed from the algorithm) — one row per node, a bar per message on
/// its sender's row and on its receiver's, coloured by the sender's port and labelled with the
/// peer, computations as bars, the makespan marked; with several ports, a sub-row for each transfer
/// a node has at once — and each face draws the same bars: the
/// command line as SVG (gantt_svg), the Python module with matplotlib. The picture is the kind of
/// Canon and Antoniu (2012, Figure 1) and of Benoit, Canon and Marchal (2014, Figure 2).
///
/// IMPORTANT: transfers are paired as emulator/trace_intervals.hpp says.

#include <starnet/api/topology.hpp>
#include <starnet/api/trace.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starnet::api {

/// Most machines (rows) a Gantt chart draws, in both faces.
inline constexpr std::uint64_t MAX_GANTT_ROWS = 1000;

/// @throws UsageError about setting "gantt" naming @p name and its @p nodes when a chart of them
/// would have more than MAX_GANTT_ROWS rows; call it before running, so that a run too large to
/// draw fails at once instead of recording a huge trace. O(1).
void require_gantt_rows(std::uint64_t nodes, const std::string& name);
/// The same for @p topology.
void require_gantt_rows(const Topology& topology);

/// The lanes of a row, top to bottom; each has as many sub-rows as the node had bars of it at once
/// (at least one): the sends of a node with several ports do not overprint.
enum class GanttLane : std::uint8_t { SEND, RECEIVE, COMPUTE };

struct GanttBar {
  NodeId row = 0;  ///< the node whose row it is on
  GanttLane lane = GanttLane::SEND;
  double start = 0;
  double end = 0;
  NodeId peer = 0;          ///< the other end of a transfer (the row itself for a computation)
  std::uint32_t port = 0;   ///< the sender's port (0 for a computation)
  bool finished = true;     ///< false: still running when the trace ends
  std::string label;        ///< "to 4321", "from 1234", "3 tasks"
  std::string tooltip;      ///< the whole story: ends, link, times (exact where they are), bytes
  /// Its sub-row, counted from the top of its row: a send's among the first, a receive's after
  /// the row's send sub-rows, a computation's last.
  std::uint32_t slot = 0;
};

/// A send bar and its transfer's receive bar (indices into GanttChart::bars), which a line joins.
struct GanttFlow {
  std::size_t send = 0;
  std::size_t receive = 0;
};

struct GanttChart {
  std::string title;  ///< as given, or "<topology>: makespan <T>"
  std::vector<std::string> rows;  ///< node names, row by row
  std::vector<GanttBar> bars;     ///< transfers (send, receive) in send order, then computations
  /// Sub-rows of each row (≥ 3: one a lane at least); a bar's lane holds as many sub-rows as the
  /// most bars of that lane the node had at once (first fit in order of start, the fewest that
  /// never overprint: for its sends, the most sends it had in flight at once).
  std::vector<std::uint32_t> row_slots;
  std::vector<GanttFlow> flows;   ///< one per transfer
  double makespan = 0;
  std::string makespan_text;  ///< exact where the run's time is
};

/// The chart of @p trace, recorded on @p topology.
/// @throws UsageError as require_gantt_rows(); InputError when an event names a node outside
/// @p topology, and as trace_intervals(). O(E log E + V) for E events and V nodes.
template <class Time>
[[nodiscard]] GanttChart gantt_chart(const std::vector<TraceEvent<Time>>& trace, const Topology& topology,
                                     const std::string& title = "");

/// Default width of the SVG, pixels (its height follows from the rows).
inline constexpr double GANTT_SVG_WIDTH = 960;

/// @p chart as an SVG document (complete and well-formed XML): a row per node of its sub-rows (sends,
/// receives, computations), a thin line from each send bar to its receive bar so that a tree can be
/// followed from row to row, a tooltip on every bar, the time axis from 0 to the makespan marked
/// by a dashed line; unfinished bars drawn to the end with a dashed outline. Deterministic. O(bars).
[[nodiscard]] std::string gantt_svg(const GanttChart& chart, double width = GANTT_SVG_WIDTH);

}  // namespace starnet::api
