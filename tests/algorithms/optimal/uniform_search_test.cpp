// Uniform gossip on S_n: the one-set evaluation agrees with a per-node simulation on the explicit
// graph, the exhaustive search's claims hold against a slower enumeration, every schedule found
// runs verified on the emulator.
#include "../../topology/expect_error.hpp"

#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/error.hpp>
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
    const StarCayley g(n);
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
  std::size_t operator()(const StarCayley::Set& s) const {
    std::size_t h = 0;
    for (const auto w : s) h = h * 0x9E3779B97F4A7C15ULL + w;
    return h;
  }
};

/// The shortest uniform gossip by plain breadth-first enumeration of every dimension sequence
/// (no symmetry, no pruning).
std::size_t shortest_by_enumeration(const StarCayley& g) {
  std::vector<StarCayley::Set> level{g.identity_set()};
  for (std::size_t t = 1;; ++t) {
    std::vector<StarCayley::Set> next;
    std::unordered_set<StarCayley::Set, SetHash> seen;
    for (const auto& p : level) {
      for (int k = 2; k <= g.n(); ++k) {
        StarCayley::Set q;
        g.step(p, k, q);
        if (StarCayley::count(q) == g.order()) return t;
        if (seen.insert(q).second) next.push_back(std::move(q));
      }
    }
    level = std::move(next);
  }
}

TEST(UniformSearch, ExhaustiveClaimsHoldAgainstAPlainEnumeration) {
  for (int n = 3; n <= 6; ++n) {
    const StarCayley g(n);
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
    const StarCayley g(n);
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
    const StarCayley g(n);
    const auto r = uniform_beam(g, 50, n * (n - 1) / 2, 0);
    ASSERT_FALSE(r.dimensions.empty()) << n;
    EXPECT_EQ(uniform_sizes(g, r.dimensions).back(), g.order()) << n;
    EXPECT_LE(r.dimensions.size(), star::allreduce_steps(n)) << n;
  }
}

TEST(UniformSearch, MetaMessagesCheckLargerGossipsNodeByNode) {
  const int n = 7;
  const StarCayley g(n);
  const auto r = uniform_beam(g, 200, n * (n - 1) / 2, 0);
  std::vector<std::uint64_t> items;
  for (std::size_t t = 1; t < r.sizes.size(); ++t) items.push_back(r.sizes[t] - r.sizes[t - 1]);
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

TEST(UniformSearch, RefusesSizesItCannotHold) {
  EXPECT_ERROR(UsageError, StarCayley(11), "star:11", "star:10");
  EXPECT_ERROR(UsageError, StarCayley(1), "star:1");
  const StarCayley g(7);
  EXPECT_ERROR(UsageError, uniform_schedule(g, {2}), "star:7", "up to star:6");
}

}  // namespace
}  // namespace starnet::algorithms::optimal
