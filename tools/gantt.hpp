#pragma once
/// @file
/// Gantt charts drawn from emulator traces: one row per machine, transfers and computations as
/// bars, the makespan marked — the kind of schedule picture of Canon and Antoniu (2012, Figure 1)
/// and of Benoit, Canon and Marchal (2014, Figure 2). Everything drawn is read from the trace
/// (what happened), never recomputed from the algorithm.
///
/// Usage, from a subcommand that ran the emulator with RunConfig::trace set:
/// @code
///   if (!gantt_path.empty()) write_file_atomically(gantt_path, gantt_svg(run.trace, topology));
/// @endcode
///
/// Complexity: O(E log E) for a trace of E events; the SVG has O(E) elements.
/// IMPORTANT: transfers are paired as emulator/trace_intervals.hpp says.

#include <starnet/api/topology.hpp>
#include <starnet/api/trace.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starnet::tools {

using api::ComputeInterval;
using api::TraceIntervals;
using api::TransferInterval;
using api::trace_intervals;

/// Most machines (rows) a Gantt chart draws.
inline constexpr std::uint64_t MAX_GANTT_ROWS = 1000;

/// Checks that @p topology fits in a Gantt chart; call it before running, so that a run too large
/// to draw fails at once instead of recording a huge trace.
/// @throws UsageError naming the topology and its node count when it has more than
/// MAX_GANTT_ROWS nodes (the message offers --trace / --trace-format chrome instead).
void require_gantt_rows(const api::Topology& topology);
/// The same for @p nodes rows of what @p name says (e.g. "64 machines"), before anything is built.
void require_gantt_rows(std::uint64_t nodes, const std::string& name);

struct GanttOptions {
  /// Drawn above the chart; empty: "<topology name>: makespan <T>".
  std::string title;
  /// Width of the picture in pixels (its height follows from the number of rows).
  double width = 960;
};

/// Draws @p trace as a Gantt chart, as SVG text (a complete, well-formed XML document).
///
/// Each node of @p topology (processor or router) is one row, labelled with its name, with three
/// lanes: sends (sender side, from the "send" event to the matching "receive"), receives (the same
/// transfer on the receiver's row) and computations ("compute" to "compute_end"). A thin line
/// joins each send bar to its receive bar, so a reduction tree can be followed from row to row;
/// every bar has a tooltip (peer, link, times, payload size). The time axis runs from 0 to the
/// makespan (the time of the last event), which is marked by a dashed line and its exact value.
/// Unfinished transfers and computations (a horizon) are drawn to the end with a dashed outline.
///
/// @param trace the run's events (RunConfig::trace must have been set).
/// @param topology the topology the trace was recorded on: row labels, link names.
/// @return the SVG document; deterministic (same trace, same text).
/// @throws UsageError as require_gantt_rows().
/// @throws InputError when an event names a node outside the topology, and as trace_intervals().
/// Complexity: O(E log E + V) for E events and V nodes.
template <class Time>
[[nodiscard]] std::string gantt_svg(const std::vector<api::TraceEvent<Time>>& trace,
                                    const api::Topology& topology, const GanttOptions& options = {});

}  // namespace starnet::tools
