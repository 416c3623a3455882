#pragma once
/// @file
/// A topology drawn as SVG through Graphviz (docs/viz.md): links coloured by dimension, routers as
/// grey boxes, costs and speeds shown where they are not all 1; star graphs at the sub-star
/// layout's positions (api/star_layout.hpp) unless a Graphviz engine is asked for.

#include <starnet/api/link_report.hpp>
#include <starnet/api/star_layout.hpp>
#include <starnet/api/topology.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starnet::api {

/// Most nodes drawn: a star:5 (120 nodes) still reads; star:6 (720) is a hairball.
inline constexpr std::uint64_t MAX_DRAW_NODES = 256;
/// "auto" (the engine that fits the family) and the Graphviz engines a drawing may ask for.
inline constexpr std::string_view DRAW_LAYOUTS[] = {"auto", "dot", "neato", "circo", "fdp", "twopi"};

struct TopologyDrawing {
  std::string svg;     ///< a complete SVG document
  std::string engine;  ///< the Graphviz engine that laid it out
  bool pinned = false;  ///< at the star layout's positions
  std::uint64_t nodes = 0;
  std::uint64_t links = 0;
};

/// The colour of a link without a dimension.
inline constexpr std::string_view UNCOLOURED_LINK = "#888888";

/// Where Graphviz put what draw_topology() draws, for a face that draws it itself (the Python
/// module's matplotlib figure): points, y downwards, in [0, width] × [0, height].
struct TopologyLayout {
  struct Node {
    std::string name;
    double x = 0;
    double y = 0;
    bool router = false;
  };
  struct Link {
    std::size_t u = 0;  ///< index into nodes
    std::size_t v = 0;
    std::string colour;       ///< by dimension (UNCOLOURED_LINK without one)
    std::vector<Point> path;  ///< from u to v: Graphviz's spline control points, or a bent star link's corners
  };
  std::string title;
  std::string engine;
  bool pinned = false;
  bool directed = false;
  double width = 0;
  double height = 0;
  std::vector<Node> nodes;  ///< in node order
  std::vector<Link> links;
  std::vector<std::pair<std::string, std::string>> legend;  ///< (colour, what a link of it does)
};

/// What a drawing coloured by load reads (`topo draw --link-loads FILE`): a link report's lines
/// (api/link_report.hpp) and the measure its scale shows.
struct DrawnLoads {
  /// The report's lines: those of the topology drawn are kept (a what-if report holds several
  /// topologies); they must be of one run (one row) and name links of the topology.
  std::vector<LinkReportLine> lines;
  /// "busy" (time held), "units" or "messages" (LOAD_MEASURES).
  std::string by = "busy";
  /// Where the lines came from, for messages (the file).
  std::string source;
};
/// The loads a drawing is coloured by, as a face was given them: @p lines read from @p source
/// (none: no report), by @p load_by ("busy" when not given). A measure given without a report is
/// refused rather than ignored: it would colour nothing.
/// @throws UsageError about "load_by" given without «link_loads».
[[nodiscard]] std::optional<DrawnLoads> drawn_loads(std::optional<std::vector<LinkReportLine>> lines,
                                                    const std::optional<std::string>& load_by, std::string source);
/// The measures a drawing may colour links by.
inline constexpr std::string_view LOAD_MEASURES[] = {"busy", "units", "messages"};
/// The scale's colours, least loaded first; a link without a line in the report is drawn in
/// IDLE_LINK.
inline constexpr std::string_view LOAD_PALETTE[] = {"#fcbba1", "#fc9272", "#fb6a4a", "#de2d26", "#a50f15"};
inline constexpr std::string_view IDLE_LINK = "#c8c8c8";

/// @p topology laid out as draw_topology() lays it out (the same DOT, engine and positions).
/// @throws as draw_topology(). O(V + E) and Graphviz's layout.
[[nodiscard]] TopologyLayout topology_layout(const TopologyRef& topology, std::string_view layout = "auto");

/// @p topology (a spec, a file or one built in memory) drawn with @p layout, one of DRAW_LAYOUTS.
/// @throws UsageError about "layout", or naming the topology when it has more than MAX_DRAW_NODES
/// nodes (checked before a star graph is built); TopologyError as the topology; Error (exit 3)
/// when Graphviz is missing or fails, with what it printed. O(V + E) and Graphviz's layout.
/// With @p loads, every link is coloured by its load on LOAD_PALETTE's scale, from 0 to the most
/// any link carried in equal steps (an undirected link by the larger of its two directions, its
/// tooltip giving both), a link the report does not name in IDLE_LINK, and the legend gives each
/// colour's range.
/// @throws UsageError about "link_loads" naming the file when the report holds no line of the
/// topology, lines of several runs, or a link the topology lacks; about "load_by" for a measure
/// not in LOAD_MEASURES.
[[nodiscard]] TopologyDrawing draw_topology(const TopologyRef& topology, std::string_view layout = "auto",
                                            const std::optional<DrawnLoads>& loads = std::nullopt);

}  // namespace starnet::api
