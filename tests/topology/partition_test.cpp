// The partitioner's bound (topology/partition.hpp): balanced, its cut counted again here, never
// below the brute-force width of bisection_oracle.hpp, and equal to it where the cut is plain.
#include "../core/expect_error.hpp"
#include "bisection_oracle.hpp"
#include "network_examples.hpp"

#include <starnet/topology/families.hpp>
#include <starnet/topology/files.hpp>
#include <starnet/topology/partition.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace starnet::topology {
namespace {

using testing::oracle::brute_force_bisection;

std::size_t processors(const Platform& p) {
  std::size_t n = 0;
  for (std::size_t v = 0; v < p.num_nodes(); ++v) n += p.graph()[v].role == Role::PROCESSOR ? 1 : 0;
  return n;
}

/// The processors on side 0 number ⌊P/2⌋ or ⌈P/2⌉, every side is 0 or 1, and the cut is the
/// links counted here from the sides (each undirected link once, each arc of a directed one).
void expect_balanced(const Platform& p, const BalancedPartition& part) {
  ASSERT_EQ(part.side.size(), p.num_nodes()) << p.name();
  std::size_t processors = 0;
  std::size_t on_zero = 0;
  for (std::size_t v = 0; v < p.num_nodes(); ++v) {
    ASSERT_TRUE(part.side[v] == 0 || part.side[v] == 1) << p.name() << " node " << v;
    if (p.graph()[v].role == Role::PROCESSOR) {
      ++processors;
      on_zero += part.side[v] == 0 ? 1 : 0;
    }
  }
  EXPECT_TRUE(on_zero == processors / 2 || on_zero == processors - processors / 2)
      << p.name() << ": " << on_zero << " of " << processors << " processors on side 0";
  std::uint64_t cut = 0;
  for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) {
    const auto u = boost::source(e, p.graph());
    const auto v = boost::target(e, p.graph());
    if (part.side[u] != part.side[v]) ++cut;
  }
  EXPECT_EQ(part.cut, p.directed() ? cut : cut / 2) << p.name();
}

/// @p p as the text of a file of @p format, read back: what a user's file gives.
Platform as_file(const Platform& p, FileFormat format, const std::string& path) {
  return parse_platform(write_platform(p, format), format, path);
}

/// A graph on @p nodes processors with each pair (each ordered pair when @p directed) linked with
/// probability 1/3, from a fixed seed (std::mt19937's sequence is the same everywhere).
Platform random_platform(int nodes, bool directed, unsigned seed) {
  Platform p("random", directed);
  for (int v = 0; v < nodes; ++v) p.add_node({"n" + std::to_string(v), Role::PROCESSOR});
  std::mt19937 draw(seed);
  for (int u = 0; u < nodes; ++u) {
    for (int v = directed ? 0 : u + 1; v < nodes; ++v) {
      if (u != v && draw() % 3 == 0) p.add_link(u, v);
    }
  }
  p.validate();
  return p;
}

/// The partition of @p p is balanced, and its cut no fewer links than the width by brute force.
void expect_bound_at_least_width(const Platform& p, const std::string& label) {
  ASSERT_LE(processors(p), 16U) << label << ": the oracle tries 2^P splits";
  const auto part = balanced_partition(p);
  expect_balanced(p, part);
  EXPECT_GE(part.cut, brute_force_bisection(p)) << label;
}

/// Random graphs of each kind checked against the oracle.
constexpr unsigned RANDOM_GRAPHS = 6;

TEST(Partition, EasyFilesGiveTheirWidth) {
  struct Case {
    Platform platform;
    std::uint64_t width;
  };
  const Case cases[] = {
      {as_file(make_platform("ring:8"), FileFormat::DOT, "ring8.dot"), /*width=*/2},
      {as_file(make_platform("hypercube:4"), FileFormat::GRAPHML, "q4.graphml"), /*width=*/8},
      {as_file(testing::dumbbell_platform(/*per_switch=*/4), FileFormat::SIMGRID, "dumbbell.xml"), /*width=*/1},
  };
  for (const auto& [platform, width] : cases) {
    const auto part = balanced_partition(platform);
    expect_balanced(platform, part);
    EXPECT_EQ(part.cut, width) << platform.name();
    EXPECT_EQ(brute_force_bisection(platform), width) << platform.name();
    const auto b = partition_bisection(platform);
    ASSERT_TRUE(b.has_value()) << platform.name();
    EXPECT_EQ(b->links, width) << platform.name();
    EXPECT_FALSE(b->exact) << platform.name();
    EXPECT_EQ(b->argument, "upper bound: a balanced partition by METIS (Karypis and Kumar, 1998), " +
                               (width == 1 ? std::string("1 link crosses") : std::to_string(width) + " links cross"));
  }
}

TEST(Partition, BoundIsAtLeastTheBruteForceWidth) {
  for (const char* spec : {"ring:7", "mesh:3x5", "torus:3x5", "complete:7", "pancake:3", "bubblesort:3", "mct:2:2",
                           "debruijn:4", "fattree:4", "dragonfly:2:2:1", "tiers:1"}) {
    expect_bound_at_least_width(make_platform(spec), spec);
  }
  for (unsigned seed = 1; seed <= RANDOM_GRAPHS; ++seed) {
    expect_bound_at_least_width(random_platform(/*nodes=*/12, /*directed=*/false, seed), "seed=" + std::to_string(seed));
  }
}

TEST(Partition, DirectedArcsCountWhicheverWayTheyCross) {
  // A one-way ring of 8: two arcs cross any split into two runs, one each way.
  const Platform ring = parse_platform(
      "digraph { a -> b; b -> c; c -> d; d -> e; e -> f; f -> g; g -> h; h -> a; }", FileFormat::DOT, "ring.dot");
  const auto part = balanced_partition(ring);
  expect_balanced(ring, part);
  EXPECT_EQ(part.cut, 2U);
  EXPECT_EQ(partition_bisection(ring)->argument,
            "upper bound: a balanced partition by METIS (Karypis and Kumar, 1998), 2 arcs cross (either way)");
  // Both ways: the two arcs of a pair are two links of a directed platform.
  const Platform both = parse_platform("digraph { a -> b; b -> a; b -> c; c -> b; c -> d; d -> c; d -> a; a -> d; }",
                                       FileFormat::DOT, "both.dot");
  EXPECT_EQ(balanced_partition(both).cut, 4U);
  EXPECT_EQ(brute_force_bisection(both), 4U);
  for (unsigned seed = 1; seed <= RANDOM_GRAPHS; ++seed) {
    expect_bound_at_least_width(random_platform(/*nodes=*/11, /*directed=*/true, seed), "seed=" + std::to_string(seed));
  }
}

TEST(Partition, SameSidesOnEveryRun) {
  const Platform p = make_platform("tiers:3");
  const auto first = balanced_partition(p);
  expect_balanced(p, first);
  EXPECT_EQ(balanced_partition(p).side, first.side);
}

TEST(Partition, EdgeCases) {
  Platform alone("alone", /*directed=*/false);
  alone.add_node({"a", Role::PROCESSOR});
  EXPECT_EQ(balanced_partition(alone).cut, 0U);
  // No links: the halves are made by moves alone.
  Platform apart("apart", /*directed=*/false);
  for (const char* name : {"a", "b", "c", "d", "e"}) apart.add_node({name, Role::PROCESSOR});
  const auto part = balanced_partition(apart);
  expect_balanced(apart, part);
  EXPECT_EQ(part.cut, 0U);
  // Two processors behind one router: one link must cross.
  Platform star("star", /*directed=*/false);
  const auto r = star.add_node({"r", Role::ROUTER});
  star.add_link(star.add_node({"a", Role::PROCESSOR}), r);
  star.add_link(star.add_node({"b", Role::PROCESSOR}), r);
  const auto two = balanced_partition(star);
  expect_balanced(star, two);
  EXPECT_EQ(two.cut, 1U);
}

TEST(Partition, RefusesMoreThanTheLimit) {
  Platform big("big", /*directed=*/false);
  for (std::size_t v = 0; v <= MAX_PARTITION_NODES; ++v) big.add_node({"n" + std::to_string(v), Role::PROCESSOR});
  starnet::testing::expect_error<TopologyError>([&] { (void)balanced_partition(big); },
                                                {"topology \"big\"", "65537 nodes", "at most 65536"});
  EXPECT_FALSE(partition_bisection(big).has_value());
}

}  // namespace
}  // namespace starnet::topology
