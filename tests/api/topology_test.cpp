// Topologies as calls take them and the `topo` capabilities (api/topology.hpp).
#include "../core/expect_error.hpp"

#include <starnet/api/topology.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace starnet::api {
namespace {

TEST(TopologyInfo, StarFiveAsTheCommandLinePrintsIt) {
  const auto info = topology_info("star:5");
  EXPECT_TRUE(info.verified);
  EXPECT_EQ(info.properties.nodes, 120U);
  EXPECT_EQ(info.properties.diameter(), 6U);
  const auto j = info.to_json();
  EXPECT_EQ(j.at("average_distance_exact"), "26/7");
  EXPECT_EQ(j.at("verified"), true);
}

TEST(TopologyRef, APlatformBuiltInMemoryIsATopologyToo) {
  auto p = std::make_shared<topology::Platform>("triangle", /*directed=*/false);
  const auto a = p->add_node({"a"});
  const auto b = p->add_node({"b"});
  const auto c = p->add_node({"c"});
  p->add_link(a, b);
  p->add_link(b, c);
  p->add_link(c, a, {Rational(1, 2)});
  const auto t = TopologyRef::of(p);
  EXPECT_FALSE(t.from_spec());
  EXPECT_EQ(t.spec(), "triangle");
  EXPECT_EQ(t.topology()->num_nodes(), 3U);
  const auto info = topology_info(t);
  EXPECT_EQ(info.properties.links, 3U);
  EXPECT_EQ(info.properties.diameter(), 1U);
  // One processor against two: two of the three links cross, whichever is alone.
  ASSERT_TRUE(info.bisection.has_value());
  EXPECT_EQ(info.bisection->links, 2U);
  EXPECT_FALSE(info.bisection->exact);
}

TEST(TopologyInfo, TheBisectionIsTheFormulaWhereOneIsKnownElseThePartitionersBound) {
  const auto cube = topology_info("hypercube:4").bisection;
  ASSERT_TRUE(cube.has_value());
  EXPECT_TRUE(cube->exact);
  EXPECT_EQ(cube->links, 8U);
  EXPECT_EQ(cube->argument, topology::bisection_width("hypercube:4")->argument);
  const std::string metis = "upper bound: a balanced partition by METIS";
  for (const char* spec : {"pancake:4", "mesh:3x5", "star:5", "debruijn:5"}) {
    const auto b = topology_info(spec).bisection;
    ASSERT_TRUE(b.has_value()) << spec;
    EXPECT_FALSE(b->exact) << spec;
    EXPECT_EQ(b->argument.rfind(metis, 0), 0U) << spec << ": " << b->argument;
    EXPECT_EQ(b->argument, fmt::format("{} (Karypis and Kumar, 1998), {} links cross", metis, b->links)) << spec;
  }
  // mesh:3x5's width is 4 (three links across its rows and one down a column, 7 against 8 nodes;
  // partition_test's oracle), and the bound finds it.
  EXPECT_EQ(topology_info("mesh:3x5").bisection->links, 4U);
}

TEST(SameTopology, ComparesStructureWhereverATopologyComesFrom) {
  const auto ring = [](const std::string& name, Rational cost) {
    auto p = std::make_shared<topology::Platform>(name, /*directed=*/false);
    for (const auto* v : {"0", "1", "2", "3"}) p->add_node({v});
    for (topology::NodeId v = 0; v < 4; ++v) p->add_link(v, (v + 1) % 4, {cost});
    return TopologyRef::of(p);
  };
  const auto a = ring("a", Rational(1));
  EXPECT_TRUE(same_topology(a, a));
  EXPECT_TRUE(same_topology(a, ring("another name", Rational(1))));
  EXPECT_EQ(topology_hash(a), topology_hash(ring("b", Rational(1))));
  EXPECT_FALSE(same_topology(a, ring("a", Rational(2))));
  EXPECT_TRUE(same_topology(TopologyRef("ring:4"), TopologyRef("ring:4")));
  EXPECT_FALSE(same_topology(TopologyRef("ring:4"), TopologyRef("ring:5")));
  EXPECT_EQ(same_topology(TopologyRef("ring:4"), a), !topology::difference(*TopologyRef("ring:4").platform(), *a.platform()));
}

TEST(TopologyRef, ABadSpecIsRefusedWhenFirstUsed) {
  const TopologyRef t("stra:5");
  EXPECT_ERROR(TopologyError, (void)t.topology(), "stra:5");
}

TEST(TopologyTable1, TheFourSizeAndCaptionSlipsOfThePaperAreNoted) {
  const auto t = topology_table1();
  EXPECT_TRUE(t.verified);
  ASSERT_EQ(t.rows.size(), 10U);
  int size_slips = 0;
  for (const auto& row : t.rows) {
    for (const auto& d : row.differences) size_slips += d == "size" ? 1 : 0;
  }
  EXPECT_EQ(size_slips, 2);  // MCT4(3) and MCT6(3): levels counted, not nodes
  EXPECT_EQ(t.to_json().at("rows").size(), 10U);
}

TEST(ExportTopology, ReadsBackAsTheSamePlatform) {
  const auto e = export_topology("hypercube:3", topology::FileFormat::DOT);
  EXPECT_TRUE(e.verified) << e.problem;
  EXPECT_NE(e.text.find("graph"), std::string::npos);
}

}  // namespace
}  // namespace starnet::api
