// A topology drawn through Graphviz (api/drawing.hpp): the SVG of `topo draw` and the layout the
// Python module draws with matplotlib come from one DOT graph and one Graphviz run each.
#include "../core/expect_error.hpp"

#include <starnet/api/drawing.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace starnet::api {
namespace {

/// Graphviz draws a link from the border of one node's box to the other's: within this many points.
constexpr double NEAR_PT = 40;

double distance(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

TEST(TopologyLayout, EveryNodeAndLinkIsWhereItsEndsAre) {
  for (const char* spec : {"star:4", "ring:6", "fattree:4", "hypercube:3"}) {
    const auto drawing = draw_topology(spec);
    const auto l = topology_layout(spec);
    EXPECT_EQ(l.nodes.size(), drawing.nodes) << spec;
    EXPECT_EQ(l.links.size(), drawing.links) << spec;
    std::set<std::pair<double, double>> places;
    for (const auto& n : l.nodes) {
      EXPECT_GE(n.x, 0) << spec << " " << n.name;
      EXPECT_LE(n.x, l.width) << spec << " " << n.name;
      EXPECT_GE(n.y, 0) << spec << " " << n.name;
      EXPECT_LE(n.y, l.height) << spec << " " << n.name;
      places.insert({n.x, n.y});
      // The SVG names the same node.
      EXPECT_NE(drawing.svg.find("<title>" + n.name + "</title>"), std::string::npos) << spec << " " << n.name;
    }
    EXPECT_EQ(places.size(), l.nodes.size()) << spec << ": two nodes at one place";
    for (const auto& k : l.links) {
      ASSERT_GE(k.path.size(), 2U) << spec;
      const Point u{l.nodes[k.u].x, l.nodes[k.u].y};
      const Point v{l.nodes[k.v].x, l.nodes[k.v].y};
      EXPECT_LT(std::min(distance(k.path.front(), u), distance(k.path.front(), v)), NEAR_PT) << spec;
      EXPECT_LT(std::min(distance(k.path.back(), u), distance(k.path.back(), v)), NEAR_PT) << spec;
    }
  }
  // S_4's links are coloured by dimension, three of them, with the star's legend.
  const auto star = topology_layout("star:4");
  std::set<std::string> colours;
  for (const auto& k : star.links) colours.insert(k.colour);
  EXPECT_EQ(colours.size(), 3U);
  ASSERT_EQ(star.legend.size(), 3U);
  EXPECT_EQ(star.legend.front().second, "link 2: swaps symbols 1 and 2");
  EXPECT_TRUE(star.pinned);
}

TEST(TopologyLayout, RefusesWhatTheDrawingRefuses) {
  EXPECT_ERROR(UsageError, (void)topology_layout("ring:4", "sfdp"), "layout sfdp");
  EXPECT_ERROR(UsageError, (void)topology_layout("star:6"), "720 nodes", "at most 256");
}

}  // namespace
}  // namespace starnet::api
