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

/// The stroke colour of the SVG's link between @p a and @p b (Graphviz writes "a&#45;&#45;b" as its
/// title), or "" when there is none.
std::string link_colour(const std::string& svg, const std::string& a, const std::string& b) {
  const auto at = svg.find("<title>" + a + "&#45;&#45;" + b + "</title>");
  if (at == std::string::npos) return "";
  const auto stroke = svg.find("stroke=\"", at);
  return svg.substr(stroke + 8, svg.find('"', stroke + 8) - stroke - 8);
}

/// A line of a link report on ring:4's run @p row.
LinkReportLine line(const std::string& link, std::int64_t busy, std::uint64_t row = 0) {
  return {row, "ring:4", link, 1, Rational(1), Rational(busy)};
}

TEST(DrawTopology, ColoursALoadedLinkByItsLoadAndAnIdleOneGrey) {
  // 0->1 held 5, 1->2 held 1: the top and the bottom of the scale; 2--3 and 3--0 carried nothing.
  const DrawnLoads loads{{line("0->1", 5), line("1->2", 1)}, "busy", "r.csv"};
  const auto d = draw_topology("ring:4", "auto", loads);
  EXPECT_EQ(link_colour(d.svg, "0", "1"), std::string(LOAD_PALETTE[4]));
  EXPECT_EQ(link_colour(d.svg, "1", "2"), std::string(LOAD_PALETTE[0]));
  EXPECT_EQ(link_colour(d.svg, "2", "3"), std::string(IDLE_LINK));
  EXPECT_EQ(link_colour(d.svg, "0", "3"), std::string(IDLE_LINK));
  EXPECT_NE(d.svg.find("not in the link report"), std::string::npos) << "the legend";
  EXPECT_NE(d.svg.find("busy 4 to 5"), std::string::npos) << "the legend's top step";
  // Without loads the same link has the colour of a link without a dimension.
  EXPECT_NE(link_colour(draw_topology("ring:4").svg, "0", "1"), std::string(LOAD_PALETTE[4]));
  // By messages both carried one: the same colour.
  const auto by_messages = draw_topology("ring:4", "auto", DrawnLoads{loads.lines, "messages", "r.csv"});
  EXPECT_EQ(link_colour(by_messages.svg, "0", "1"), link_colour(by_messages.svg, "1", "2"));
}

TEST(DrawTopology, RefusesALinkReportThatDoesNotFit) {
  EXPECT_ERROR(UsageError, (void)draw_topology("ring:4", "auto", DrawnLoads{{line("0->2", 1)}, "busy", "r.csv"}),
               "link_loads r.csv", "\"0->2\" is not a link of topology \"ring:4\"");
  EXPECT_ERROR(UsageError, (void)draw_topology("ring:4", "auto", DrawnLoads{{line("0->1", 1), line("1->2", 1, 3)}, "busy", "r.csv"}),
               "link_loads r.csv", "2 runs", "rows 0, 3");
  EXPECT_ERROR(UsageError, (void)draw_topology("ring:5", "auto", DrawnLoads{{line("0->1", 1)}, "busy", "r.csv"}),
               "link_loads r.csv", "no line of topology \"ring:5\"");
  EXPECT_ERROR(UsageError, (void)draw_topology("ring:4", "auto", DrawnLoads{{line("0->1", 1)}, "bytes", "r.csv"}),
               "load_by bytes", "busy, units or messages");
}

TEST(DrawnLoads, AMeasureWithoutAReportIsRefusedAndOneWithoutAMeasureIsBusy) {
  // The rule both faces take (`topo draw --load-by`, `Topology.svg(load_by=…)`): a measure with
  // nothing to measure would be ignored, so it is an error naming the setting it needs.
  EXPECT_ERROR(UsageError, (void)drawn_loads(std::nullopt, "units", ""), "load_by units", "applies only with «link_loads»");
  EXPECT_FALSE(drawn_loads(std::nullopt, std::nullopt, "").has_value());
  const auto loads = drawn_loads(std::vector{line("0->1", 5)}, std::nullopt, "r.csv");
  ASSERT_TRUE(loads.has_value());
  EXPECT_EQ(loads->by, "busy");
  EXPECT_EQ(loads->source, "r.csv");
  EXPECT_EQ(drawn_loads(std::vector{line("0->1", 5)}, "messages", "r.csv")->by, "messages");
}

}  // namespace
}  // namespace starnet::api
