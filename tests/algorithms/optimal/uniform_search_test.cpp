// Uniform gossip on S_n: the one-set evaluation agrees with a per-node simulation on the explicit
// graph, the exhaustive search's claims hold against a slower enumeration, every schedule found
// runs verified on the emulator.
#include "../../core/expect_error.hpp"

#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <unordered_set>

namespace starnet::algorithms::optimal {
namespace {

using topology::StarGraph;

/// What every node knows after each step, node by node on the explicit graph: |P_t| for each t,
/// checking that all nodes know as many items (and, through their exact sets, that node v knows
/// exactly v∘P_t).
std::vector<std::uint64_t> simulate(int n, const std::vector<int>& dims) {
  const StarGraph g(n);
  const auto order = g.size();
  std::vector<std::vector<char>> knows(order, std::vector<char>(order, 0));
  for (std::uint64_t v = 0; v < order; ++v) knows[v][v] = 1;
  std::vector<std::uint64_t> sizes{1};
  for (const int k : dims) {
    auto next = knows;
    for (std::uint64_t v = 0; v < order; ++v) {
      const auto u = g.neighbor(v, StarGraph::port_of(k));
      for (std::uint64_t x = 0; x < order; ++x) next[v][x] |= knows[u][x];
    }
    knows = std::move(next);
    std::uint64_t size = 0;
    for (const char c : knows[0]) size += c;
    for (std::uint64_t v = 0; v < order; ++v) {
      std::uint64_t here = 0;
      for (const char c : knows[v]) here += c;
      EXPECT_EQ(here, size) << "node " << v;
    }
    sizes.push_back(size);
  }
  return sizes;
}

TEST(UniformSearch, OneSetEvaluationAgreesWithTheExplicitGraphNodeByNode) {
  for (int n = 3; n <= 7; ++n) {
    const auto g = CayleyGroup::star(n);
    // The paper's dimension order, then a cyclic one.
    std::vector<int> paper;
    for (int m = 2; m <= n; ++m) {
      for (int off = 0; off < m - 1; ++off) paper.push_back(off == 0 ? m : m - off);
    }
    std::vector<int> cyclic;
    for (int i = 0; i < 3 * n; ++i) cyclic.push_back(2 + i % (n - 1));
    for (auto dims : {paper, cyclic}) {
      if (n == 7) dims.resize(10);  // the explicit simulation costs N² per step
      EXPECT_EQ(uniform_sizes(g, dims), simulate(n, dims)) << "n=" << n;
    }
    // The paper's broadcast is a gossip in n(n−1)/2 steps.
    EXPECT_EQ(uniform_sizes(g, paper).back(), g.order()) << "n=" << n;
  }
}

struct SetHash {
  std::size_t operator()(const CayleyGroup::Set& s) const {
    std::size_t h = 0;
    for (const auto w : s) h = h * 0x9E3779B97F4A7C15ULL + w;
    return h;
  }
};

/// The shortest uniform gossip by plain breadth-first enumeration of every dimension sequence
/// (no symmetry, no pruning).
std::size_t shortest_by_enumeration(const CayleyGroup& g) {
  std::vector<CayleyGroup::Set> level{g.identity_set()};
  for (std::size_t t = 1;; ++t) {
    std::vector<CayleyGroup::Set> next;
    std::unordered_set<CayleyGroup::Set, SetHash> seen;
    for (const auto& p : level) {
      for (int k = g.first(); k <= g.last(); ++k) {
        CayleyGroup::Set q;
        g.step(p, k, q);
        if (CayleyGroup::count(q) == g.order()) return t;
        if (seen.insert(q).second) next.push_back(std::move(q));
      }
    }
    level = std::move(next);
  }
}

TEST(UniformSearch, ExhaustiveClaimsHoldAgainstAPlainEnumeration) {
  for (int n = 3; n <= 6; ++n) {
    const auto g = CayleyGroup::star(n);
    const auto r = uniform_exhaustive(g, n * (n - 1) / 2, 0);
    ASSERT_FALSE(r.dimensions.empty()) << n;
    EXPECT_TRUE(r.complete) << n;
    EXPECT_EQ(r.dimensions.size(), shortest_by_enumeration(g)) << n;
    EXPECT_EQ(r.sizes.back(), g.order());
    EXPECT_LE(r.dimensions.size(), star::allreduce_steps(n)) << n;
  }
}

TEST(UniformSearch, FoundSchedulesRunVerifiedWithoutDuplicates) {
  for (int n = 3; n <= 6; ++n) {
    const auto g = CayleyGroup::star(n);
    const auto r = uniform_exhaustive(g, n * (n - 1) / 2, 0);
    const auto s = uniform_schedule(g, r.dimensions);
    // NODUP: each node receives each of the n! − 1 other items exactly once.
    EXPECT_EQ(s.chunks_moved(), g.order() * (g.order() - 1)) << n;
    const StarGraph t(n);
    const auto run = schedule::run_schedule(s, t, {});
    EXPECT_TRUE(run.verified) << n << ": " << run.report.first_problem();
    EXPECT_EQ(run.run.makespan, Rational(static_cast<std::int64_t>(r.dimensions.size()))) << n;
  }
}

TEST(UniformSearch, BeamSearchFindsGossipsForLargerStars) {
  for (int n = 5; n <= 8; ++n) {
    const auto g = CayleyGroup::star(n);
    const auto r = uniform_beam(g, 50, n * (n - 1) / 2, 0);
    ASSERT_FALSE(r.dimensions.empty()) << n;
    EXPECT_EQ(uniform_sizes(g, r.dimensions).back(), g.order()) << n;
    EXPECT_LE(r.dimensions.size(), star::allreduce_steps(n)) << n;
  }
}

TEST(UniformSearch, ItemsPerStepAreTheGrowthOfTheKnownSets) {
  EXPECT_EQ(uniform_items({1, 2, 4, 6}), (std::vector<std::uint64_t>{1, 2, 2}));
  EXPECT_TRUE(uniform_items({1}).empty());
}

TEST(UniformSearch, MetaMessagesCheckLargerGossipsNodeByNode) {
  const int n = 7;
  const auto g = CayleyGroup::star(n);
  const auto r = uniform_beam(g, 200, n * (n - 1) / 2, 0);
  auto items = uniform_items(r.sizes);
  ASSERT_EQ(items.size(), r.dimensions.size());
  const StarGraph s(n);
  const auto run_with = [&](const std::vector<int>& dims) {
    const auto res = emulator::LocalEngine<Rational>().run(
        s, emulator::UnitCosts<Rational>(),
        [&](emulator::NodeRange range) { return uniform_gossip_program(s, dims, items, range); }, {});
    UniformReport total;
    for (const auto& text : res.reports) {
      const auto part = UniformReport::parse(text);
      total.complete += part.complete, total.wrong += part.wrong;
    }
    return std::pair{total, res.makespan};
  };
  const auto [good, steps] = run_with(r.dimensions);
  EXPECT_EQ(good.complete, s.size());
  EXPECT_EQ(good.wrong, 0U);
  EXPECT_EQ(steps, Rational(static_cast<std::int64_t>(r.dimensions.size())));
  // Without its last step no node ends with n! − 1 items.
  auto broken = r.dimensions;
  broken.pop_back();
  items.pop_back();
  EXPECT_LT(run_with(broken).first.complete, s.size());
}

TEST(UniformSearch, MetaMessagesOfAnotherGroupTravelItsOwnLinks) {
  // pancake:7 beyond schedules: verified on its topology; on the star graph of the same nodes its
  // sends find no link (a prefix reversal of 3 or more is no star link).
  const auto g = CayleyGroup::of("pancake:7");
  const auto r = uniform_beam(g, 50, static_cast<int>(g.order()) - 1, 0);
  ASSERT_FALSE(r.dimensions.empty());
  const auto items = uniform_items(r.sizes);
  const auto programs = [&](emulator::NodeRange range) {
    return uniform_gossip_program(g, r.dimensions, items, range);
  };
  const auto t = topology::make_topology("pancake:7");
  const auto run = emulator::LocalEngine<Rational>().run(*t, emulator::UnitCosts<Rational>(), programs, {});
  UniformReport total;
  for (const auto& text : run.reports) {
    const auto part = UniformReport::parse(text);
    total.complete += part.complete, total.wrong += part.wrong;
  }
  EXPECT_EQ(total.complete, g.order());
  EXPECT_EQ(total.wrong, 0U);
  EXPECT_EQ(run.makespan, Rational(static_cast<std::int64_t>(r.dimensions.size())));
  const StarGraph star(7);
  EXPECT_ERROR(ModelViolation,
               (void)emulator::LocalEngine<Rational>().run(star, emulator::UnitCosts<Rational>(), programs, {}),
               "no link");
}

TEST(UniformSearch, RefusesSizesItCannotHold) {
  EXPECT_ERROR(UsageError, CayleyGroup::star(11), "star:11", "star:10");
  EXPECT_ERROR(UsageError, CayleyGroup::star(1), "star:1");
  const auto g = CayleyGroup::star(7);
  EXPECT_ERROR(UsageError, uniform_schedule(g, {2}), "star:7", "up to 1024 nodes");
  EXPECT_ERROR(UsageError, CayleyGroup::of("debruijn:3"), "debruijn:3", "not given as a Cayley graph");
  EXPECT_ERROR(UsageError, CayleyGroup::of("mesh:3x3"), "mesh:3x3", "not given as a Cayley graph");
  EXPECT_ERROR(TopologyError, CayleyGroup::of("hypercube:20"), "hypercube:20");
}

/// What every node knows after each step on the explicit topology, node v learning what the node
/// that sends to it (v·g⁻¹, found by searching the links) knows: |P_t| for each t, all nodes equal.
std::vector<std::uint64_t> simulate_on(const std::string& spec, const CayleyGroup& g, const std::vector<int>& dims) {
  const auto t = topology::make_topology(spec);
  const auto order = g.order();
  std::vector<std::vector<char>> knows(order, std::vector<char>(order, 0));
  for (std::uint64_t v = 0; v < order; ++v) knows[v][v] = 1;
  std::vector<std::uint64_t> sizes{1};
  for (const int k : dims) {
    auto next = knows;
    for (std::uint32_t u = 0; u < order; ++u) {
      const auto v = g.neighbor(u, k);  // u sends to v: a link of the topology
      bool linked = false;
      for (topology::Port p = 0; p < t->degree(u); ++p) linked = linked || t->neighbor(u, p) == v;
      EXPECT_TRUE(linked) << spec << ": " << u << " → " << v << " is not a link";
      for (std::uint64_t x = 0; x < order; ++x) next[v][x] |= knows[u][x];
    }
    knows = std::move(next);
    std::uint64_t size = 0;
    for (const char c : knows[0]) size += c;
    for (std::uint64_t v = 0; v < order; ++v) {
      EXPECT_EQ(static_cast<std::uint64_t>(std::count(knows[v].begin(), knows[v].end(), 1)), size) << spec << " node " << v;
    }
    sizes.push_back(size);
  }
  return sizes;
}

TEST(UniformSearch, OtherCayleyFamiliesAgreeWithTheirTopologiesAndRunVerified) {
  // spec, the shortest uniform gossip (hypercube: D, recursive doubling; ring: N − 1, the set an
  // interval growing by one; complete: ⌈log₂ N⌉, doubling by offsets 1, 2, 4, …).
  const std::vector<std::pair<std::string, std::size_t>> cases = {
      {"hypercube:3", 3}, {"hypercube:4", 4}, {"ring:5", 4}, {"ring:8", 7},
      {"complete:6", 3},  {"complete:8", 3},  {"torus:3x4", 0}, {"torus:2x3", 0}};
  for (const auto& [spec, expected] : cases) {
    const auto g = CayleyGroup::of(spec);
    const auto r = uniform_exhaustive(g, static_cast<int>(g.order()) - 1, 0);
    ASSERT_FALSE(r.dimensions.empty()) << spec;
    EXPECT_TRUE(r.complete) << spec;
    if (expected > 0) {
      EXPECT_EQ(r.dimensions.size(), expected) << spec;
    }
    EXPECT_EQ(uniform_sizes(g, r.dimensions), simulate_on(spec, g, r.dimensions)) << spec;
    EXPECT_EQ(r.dimensions.size(), shortest_by_enumeration(g)) << spec;
    const auto t = topology::make_topology(spec);
    const auto run = schedule::run_schedule(uniform_schedule(g, r.dimensions), *t, {});
    EXPECT_TRUE(run.verified) << spec << ": " << run.report.first_problem();
    EXPECT_EQ(run.run.makespan, Rational(static_cast<std::int64_t>(r.dimensions.size()))) << spec;
  }
  // A cyclic order on the torus agrees node by node too.
  const auto torus = CayleyGroup::of("torus:3x4");
  std::vector<int> cyclic;
  for (int i = 0; i < 8; ++i) cyclic.push_back(torus.first() + i % (torus.last() - torus.first() + 1));
  EXPECT_EQ(uniform_sizes(torus, cyclic), simulate_on("torus:3x4", torus, cyclic));
}

TEST(UniformSearch, PermutationFamiliesLinkEveryNodeAsTheirTopologiesDo) {
  // Generator k of node v is the topology's port k − first() of v (the generators are involutions
  // listed in port order), so the neighbour sets are equal node by node.
  for (const std::string spec : {"star:4", "star:5", "pancake:4", "pancake:5", "bubblesort:4", "bubblesort:5",
                                 "transposition:4", "transposition:5"}) {
    const auto g = CayleyGroup::of(spec);
    const auto t = topology::make_topology(spec);
    ASSERT_EQ(g.order(), t->num_nodes()) << spec;
    ASSERT_EQ(static_cast<std::uint64_t>(g.last() - g.first() + 1), t->degree(0)) << spec;
    for (std::uint32_t v = 0; v < g.order(); ++v) {
      std::vector<std::uint32_t> group_side;
      std::vector<std::uint32_t> topology_side;
      for (int k = g.first(); k <= g.last(); ++k) {
        const auto u = g.neighbor(v, k);
        group_side.push_back(u);
        ASSERT_TRUE(g.involution(k)) << spec << " generator " << k;
        ASSERT_EQ(g.times_inverse(k, v), u) << spec << " node " << v << " generator " << k;
        ASSERT_EQ(t->neighbor(v, static_cast<topology::Port>(k - g.first())), u) << spec << " node " << v << " k=" << k;
        // The left table: g_k⁻¹·v as a product.
        ASSERT_EQ(g.inverse_times(k, v), g.times(g.element(g.inverse(k)), v)) << spec << " node " << v << " k=" << k;
      }
      for (topology::Port p = 0; p < t->degree(v); ++p) topology_side.push_back(static_cast<std::uint32_t>(t->neighbor(v, p)));
      std::sort(group_side.begin(), group_side.end());
      std::sort(topology_side.begin(), topology_side.end());
      ASSERT_EQ(group_side, topology_side) << spec << " node " << v;
    }
  }
}

TEST(UniformSearch, PermutationFamiliesFindTheShortestUniformGossipAndRunIt) {
  // The exhaustive search (its symmetry cut only where the generators are interchangeable: S_2,
  // S_3) against the plain enumeration, the sets against every node's on the explicit graph, and
  // the schedule on the emulator.
  for (const std::string spec : {"pancake:3", "pancake:4", "pancake:5", "bubblesort:3", "bubblesort:4",
                                 "bubblesort:5", "transposition:3", "transposition:4", "transposition:5"}) {
    const auto g = CayleyGroup::of(spec);
    EXPECT_EQ(g.interchangeable(), g.n() <= 3) << spec;
    const auto r = uniform_exhaustive(g, static_cast<int>(g.order()) - 1, 0);
    ASSERT_FALSE(r.dimensions.empty()) << spec;
    EXPECT_TRUE(r.complete) << spec;
    EXPECT_EQ(r.dimensions.size(), shortest_by_enumeration(g)) << spec;
    EXPECT_EQ(uniform_sizes(g, r.dimensions), simulate_on(spec, g, r.dimensions)) << spec;
    const auto t = topology::make_topology(spec);
    const auto run = schedule::run_schedule(uniform_schedule(g, r.dimensions), *t, {});
    EXPECT_TRUE(run.verified) << spec << ": " << run.report.first_problem();
    EXPECT_EQ(run.run.makespan, Rational(static_cast<std::int64_t>(r.dimensions.size()))) << spec;
  }
}

TEST(UniformSearch, PermutationFamiliesNameTheLimitThatRefusesThem) {
  EXPECT_ERROR(UsageError, CayleyGroup::of("pancake:11"), "pancake:11", "pancake:2..pancake:10");
  EXPECT_ERROR(UsageError, CayleyGroup::of("bubblesort:1"), "bubblesort:1", "bubblesort:2..bubblesort:10");
  // 45 generators × 10! elements: the tables, not the order, refuse it.
  EXPECT_ERROR(UsageError, CayleyGroup::of("transposition:10"), "transposition:10", "45 generators",
               std::to_string(MAX_UNIFORM_TABLE));
  EXPECT_ERROR(TopologyError, CayleyGroup::of("pancake:x"), "pancake:x");
  EXPECT_EQ(CayleyGroup::of("transposition:9").order(), 362'880U);
}

TEST(UniformSearch, BroadcastEndsWithTheGossipFromAnyRoot) {
  for (const std::string spec : {"star:4", "star:5", "hypercube:4", "ring:6", "torus:3x3", "complete:5"}) {
    const auto g = CayleyGroup::of(spec);
    const auto r = uniform_exhaustive(g, static_cast<int>(g.order()) - 1, 0);
    const auto t = topology::make_topology(spec);
    for (const std::uint32_t root : {0U, static_cast<std::uint32_t>(g.order() - 1)}) {
      const auto s = uniform_broadcast_schedule(g, r.dimensions, root);
      EXPECT_EQ(s.transfers(), g.order() - 1) << spec;  // every node informed once
      const auto run = schedule::run_schedule(s, *t, {});
      EXPECT_TRUE(run.verified) << spec << " root " << root << ": " << run.report.first_problem();
      EXPECT_EQ(run.run.makespan, Rational(static_cast<std::int64_t>(r.dimensions.size()))) << spec;
      // One step fewer informs too few nodes.
      auto shorter = r.dimensions;
      shorter.pop_back();
      EXPECT_FALSE(schedule::run_schedule(uniform_broadcast_schedule(g, shorter, root), *t, {}).verified) << spec;
    }
  }
}

TEST(UniformSearch, AnytimeSearchImprovesAndEndsWithAGossip) {
  const auto g = CayleyGroup::star(7);
  std::vector<std::size_t> found;
  const auto r = uniform_anytime(g, 21, 3, 64, [&](const UniformResult& b, std::size_t) {
    found.push_back(b.dimensions.size());
  });
  ASSERT_FALSE(r.dimensions.empty());
  EXPECT_EQ(uniform_sizes(g, r.dimensions).back(), g.order());
  ASSERT_FALSE(found.empty());
  for (std::size_t i = 1; i < found.size(); ++i) EXPECT_LT(found[i], found[i - 1]);
  EXPECT_EQ(found.back(), r.dimensions.size());
}

}  // namespace
}  // namespace starnet::algorithms::optimal
