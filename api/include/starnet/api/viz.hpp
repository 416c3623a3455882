#pragma once
/// @file
/// The teaching pages (docs/viz.md): one self-contained HTML page (inline SVG, CSS and script; no
/// network) that steps through a star collective on S_2..S_5, or through a user's own node
/// programs (api::emulate) on a small topology, everything it shows read from the run's trace and
/// checked against it. `starnet viz` writes them; the Python module shows them inline in Jupyter.

#include <starnet/api/drawing.hpp>
#include <starnet/api/emulate.hpp>
#include <starnet/api/schedule.hpp>
#include <starnet/api/star.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::api {

/// Largest N of a page: S_5 has 120 nodes and 120 messages per step, about what a screen shows.
inline constexpr int MAX_PAGE_N = 5;

struct VizPage {
  std::string html;
  /// The run is verified and the page's reconstruction from the trace ends as it should.
  bool verified = false;
  std::size_t steps = 0;
};

/// Refuses a page of S_n outside S_2..S_MAX_PAGE_N, naming the topology and what to do instead.
/// @throws UsageError about setting "topology".
void check_page_size(int n);

/// The page of @p run, a star collective run with its trace kept (StarRequest::trace).
/// @throws UsageError as check_page_size(), and when the run kept no trace.
[[nodiscard]] VizPage star_page(const StarResult& run);

/// The page of a stepped all-gather schedule on S_n (e.g. a uniform gossip), the paper's step count
/// beside it; the schedule is run here, its trace kept.
/// @throws UsageError when it is not a stepped all-gather on a star graph of S_2..S_MAX_PAGE_N.
[[nodiscard]] VizPage schedule_page(const LoadedSchedule& schedule);

/// Largest topology, other than a star graph, that the page of a user's run draws (as `topo draw`
/// lays it out, api/drawing.hpp, whose limit it is).
inline constexpr std::uint64_t MAX_PAGE_NODES = MAX_DRAW_NODES;

/// What a node's program shows of its state after one of its reactions: the page's "state" line.
struct NodeView {
  std::uint64_t step = 0;
  topology::NodeId node = 0;
  std::string text;
};

/// What the page of a user's run shows beyond the trace.
struct ProgramPageNotes {
  /// A message's text, from its payload; none: the payload itself where it is printable text.
  std::function<std::string(std::string_view payload)> payload_text;
  /// The nodes' states, in the order they were shown; none: each node counts what it received.
  std::vector<NodeView> views;
  /// What the caller found wrong after the run (its own check of the values); empty: nothing.
  std::string problem;
};

/// Refuses a page of @p g: a star graph outside S_2..S_MAX_PAGE_N, or another topology of more
/// than MAX_PAGE_NODES nodes. @throws UsageError about setting "topology".
void check_program_page(const topology::Topology& g);

/// The page of a user's run (api::emulate with its trace): a star graph drawn as the star
/// collectives' pages, another topology named by a spec as `topo draw` lays it out (a hypercube,
/// mesh, torus or tree as itself), one built in memory, or where Graphviz is missing, on a circle; each step the messages that started then,
/// with their texts, each node's state and the last message it received. A failed run's page
/// (a violation, deadlock, step limit or exception) ends with the step it failed at, the node at
/// fault marked, and says NOT VERIFIED with the problem.
/// @throws UsageError as check_program_page(), and when the run kept no trace.
[[nodiscard]] VizPage program_page(const EmulateResult& run, const ProgramPageNotes& notes);

}  // namespace starnet::api
