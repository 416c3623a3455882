// The total exchanges on Cayley graphs: the one-packet exchange takes exactly the status steps
// (computed here by breadth-first search on the topology, independently of the group tables), every
// packet delivered from its origin; the combining exchange along a gossip sequence routes every
// offset, its volume at least the status; both run verified on the emulator.
#include "../../core/expect_error.hpp"
#include "bfs_status.hpp"

#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/algorithms/collectives/total_exchange.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <limits>
#include <tuple>

namespace starnet::algorithms::collectives {
namespace {

TEST(TotalExchange, OnePacketExchangeTakesTheStatusStepsEveryPacketFromItsOrigin) {
  // S_7 (5,040 nodes) runs in the benchmark (total_exchange_benchmark.cpp): too slow for sanitizer builds.
  for (const char* spec : {"star:3", "star:4", "star:5", "star:6", "hypercube:2", "hypercube:3", "hypercube:4",
                           "hypercube:5", "hypercube:6", "ring:2", "ring:7", "ring:12", "torus:3x3", "torus:4x5",
                           "complete:2", "complete:9", "complete:16", "pancake:4", "pancake:5", "bubblesort:4",
                           "bubblesort:5", "transposition:4", "transposition:5"}) {
    const auto t = topology::make_topology(spec);
    const auto g = CayleyGroup::of(spec);
    const auto plan = one_packet_exchange(g);
    const auto s = bfs_status(*t);
    EXPECT_EQ(plan.status, s) << spec;
    EXPECT_EQ(plan.steps(), s) << spec;
    EXPECT_EQ(plan.volume, s) << spec;
    for (const auto packets : plan.packets) ASSERT_EQ(packets, 1U) << spec;
    const auto check = check_exchange(g, plan);
    EXPECT_TRUE(check.verified) << spec << ": " << check.problem;
    EXPECT_EQ(check.steps, s) << spec;
    EXPECT_EQ(check.messages, t->num_nodes() * s) << spec;
    EXPECT_EQ(check.as_schedule, t->num_nodes() <= 1024) << spec;
  }
}

TEST(TotalExchange, TheProgramCatchesAPacketThatEndsAtTheWrongNode) {
  // Swap two offsets' routes of the S_4 one-packet plan: the steps still alternate, but packets of
  // one offset arrive where the other's should: the destination sees the wrong origin.
  const auto g = CayleyGroup::of("star:4");
  auto plan = one_packet_exchange(g);
  std::swap(plan.generators[0], plan.generators[1]);  // offsets τ_2 and τ_3 trade their one step
  const auto t = topology::make_topology("star:4");
  const emulator::ProgramFactory programs = [&](emulator::NodeRange range) {
    return exchange_program(g, plan, *t, range);
  };
  const auto run = emulator::LocalEngine<Rational>().run(*t, emulator::UnitCosts<Rational>(), programs, {});
  ExchangeReport total;
  for (const auto& text : run.reports) total.merge(ExchangeReport::parse(text));
  EXPECT_GT(total.wrong, 0U);
  EXPECT_LT(total.complete, t->num_nodes());
}

TEST(TotalExchange, ARunShorterThanItsPlanIsNotVerifiedAndSaysBothStepCounts) {
  // A last step that carries nothing: every packet arrives, one step before the plan ends.
  const auto g = CayleyGroup::of("hypercube:2");
  auto plan = one_packet_exchange(g);
  ASSERT_EQ(plan.steps(), 4U);
  plan.generators.push_back(g.first());
  plan.packets.push_back(0);
  const auto check = check_exchange(g, plan);
  EXPECT_FALSE(check.verified);
  EXPECT_EQ(check.steps, 4U);
  EXPECT_THAT(check.problem, ::testing::HasSubstr("in 4 steps where the plan has 5"));
}

TEST(TotalExchange, AMalformedReportNamesItAndWhatWasExpected) {
  EXPECT_ERROR(Error, (void)ExchangeReport::parse("3 x"), "\"3 x\"", "expected three counts");
}

TEST(TotalExchange, CombiningAlongTheGossipRoutesEveryOffsetWithVolumeAtLeastTheStatus) {
  for (const char* spec : {"star:4", "star:5", "hypercube:4", "ring:8", "torus:3x4", "complete:12"}) {
    const auto g = CayleyGroup::of(spec);
    const auto sequence = uniform_sequence(g);
    const auto plan = combining_exchange(g, sequence);
    EXPECT_EQ(plan.steps(), sequence.size()) << spec;
    EXPECT_GE(plan.volume, plan.status) << spec;
    std::uint64_t sum = 0;
    for (std::uint32_t h = 1; h < g.order(); ++h) {
      const auto route = plan.route(h);
      ASSERT_FALSE(route.empty()) << spec << " offset " << h;
      std::uint32_t x = 0;
      for (const auto step : route) x = g.neighbor(x, sequence[step]);
      EXPECT_EQ(x, h) << spec << ": the route's product is the offset";
      EXPECT_TRUE(std::is_sorted(route.begin(), route.end())) << spec;
      sum += route.size();
    }
    EXPECT_EQ(sum, plan.volume) << spec;
    const auto check = check_exchange(g, plan);
    EXPECT_TRUE(check.verified) << spec << ": " << check.problem;
  }
}

TEST(TotalExchange, TheStatusOfTheCayleyGraphsOfSnIsTheirKnownDistanceSum) {
  // Bubble-sort: the distance is the number of inversions, n(n−1)/4 on average. Transposition: n
  // minus the number of cycles, whose sum over S_n is Σ_{k=1..n} n!/k. Pancake: the tabulated
  // counts of stacks by flips needed, n = 4: 1, 3, 6, 11, 3; n = 5: 1, 4, 12, 35, 48, 20; n = 6: 1,
  // 5, 20, 79, 199, 281, 133, 2.
  for (int n = 3; n <= 6; ++n) {
    const auto factorial = topology::StarGraph::factorial(n);
    std::uint64_t cycles = 0;
    for (int k = 1; k <= n; ++k) cycles += factorial / static_cast<std::uint64_t>(k);
    const auto nn = static_cast<std::uint64_t>(n);
    EXPECT_EQ(one_packet_exchange(CayleyGroup::of(fmt::format("bubblesort:{}", n))).status,
              factorial * nn * (nn - 1) / 4)
        << " n=" << n;
    EXPECT_EQ(one_packet_exchange(CayleyGroup::of(fmt::format("transposition:{}", n))).status, nn * factorial - cycles)
        << " n=" << n;
  }
  EXPECT_EQ(one_packet_exchange(CayleyGroup::of("pancake:4")).status, 3U + 2 * 6 + 3 * 11 + 4 * 3);
  EXPECT_EQ(one_packet_exchange(CayleyGroup::of("pancake:5")).status, 4U + 2 * 12 + 3 * 35 + 4 * 48 + 5 * 20);
  EXPECT_EQ(one_packet_exchange(CayleyGroup::of("pancake:6")).status,
            5U + 2 * 20 + 3 * 79 + 4 * 199 + 5 * 281 + 6 * 133 + 7 * 2);
}

/// The volume of the combining exchange along @p sequence, from the topology's links alone: from
/// node 0, the fewest steps of the sequence (port k − first() at a step of generator k) that reach
/// each node, summed.
std::uint64_t embedded_volume(const topology::Topology& t, int first, const std::vector<int>& sequence) {
  constexpr std::uint32_t NONE = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> hops(t.num_nodes(), NONE);
  hops[0] = 0;
  for (const int k : sequence) {
    auto next = hops;
    for (topology::NodeId x = 0; x < t.num_nodes(); ++x) {
      if (hops[x] == NONE) continue;
      const auto y = t.neighbor(x, static_cast<topology::Port>(k - first));
      next[y] = std::min(next[y], hops[x] + 1);
    }
    hops = std::move(next);
  }
  std::uint64_t sum = 0;
  for (const auto h : hops) sum += h == NONE ? std::uint64_t{1} << 40 : h;
  return sum;
}

TEST(TotalExchange, CombiningOnTheCayleyGraphsOfSnMovesWhatTheirLinksSay) {
  // spec, the steps and volume of the catalogue's sequence (the steps: the shortest uniform gossip,
  // which the exhaustive search proves, checked against plain enumeration up to 120 nodes in
  // uniform_search_test.cpp; the volume: embedded_volume()). Bubble-sort:
  // a gossip of n(n−1)/2 steps is a reduced word of the longest permutation, which holds a reduced
  // word of every permutation as a subword (Björner, Brenti, Combinatorics of Coxeter Groups, 2005,
  // Theorem 2.2.2): every packet takes a shortest path, volume = status. Size 6 here: its one-packet
  // exchanges (3,295 and 5,400 steps) take 2 s to check, run by `whatif` (docs/whatif.md).
  const std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t>> cases = {
      {"pancake:4", 5, 64},     {"pancake:5", 8, 484},     {"bubblesort:4", 6, 72},
      {"bubblesort:5", 10, 600}, {"transposition:4", 5, 56}, {"transposition:5", 8, 414},
      {"pancake:6", 11, 3908},  {"bubblesort:6", 15, 5400}};
  for (const auto& [spec, steps, volume] : cases) {
    const auto g = CayleyGroup::of(spec);
    const auto t = topology::make_topology(spec);
    const auto sequence = uniform_sequence(g);
    const auto plan = combining_exchange(g, sequence);
    EXPECT_EQ(plan.volume, embedded_volume(*t, g.first(), sequence)) << spec;
    EXPECT_EQ(plan.steps(), steps) << spec;
    EXPECT_EQ(plan.volume, volume) << spec;
    EXPECT_GE(plan.volume, bfs_status(*t)) << spec;
    if (g.family() == "bubblesort") {
      EXPECT_EQ(plan.steps(), static_cast<std::uint64_t>(g.n() * (g.n() - 1) / 2)) << spec;
      EXPECT_EQ(plan.volume, plan.status) << spec;
    }
    const auto check = check_exchange(g, plan);
    EXPECT_TRUE(check.verified) << spec << ": " << check.problem;
  }
}

TEST(TotalExchange, OnHypercubesCombiningMeetsTheStatusInDSteps) {
  // Along dimensions 1..d every offset's geodesic is embedded: d steps, volume d·2^(d−1) = s.
  for (int d = 2; d <= 6; ++d) {
    const auto g = CayleyGroup::of("hypercube:" + std::to_string(d));
    std::vector<int> dims;
    for (int i = 1; i <= d; ++i) dims.push_back(i);
    const auto plan = combining_exchange(g, dims);
    EXPECT_EQ(plan.volume, static_cast<std::uint64_t>(d) << (d - 1)) << d;
    EXPECT_EQ(plan.volume, plan.status) << d;
  }
}

TEST(TotalExchange, BrucksOffsetsRouteEveryOffsetByItsBinaryDigitsAtMost) {
  for (const int n : {5, 8, 12, 16}) {
    const auto g = CayleyGroup::of("complete:" + std::to_string(n));
    const auto plan = exchange_plan(Algorithm::BRUCK, g);
    std::uint64_t popcounts = 0;
    for (int r = 1; r < n; ++r) popcounts += static_cast<std::uint64_t>(std::popcount(static_cast<unsigned>(r)));
    EXPECT_LE(plan.volume, popcounts) << n;
    EXPECT_EQ(plan.steps(), static_cast<std::uint64_t>(std::bit_width(static_cast<unsigned>(n - 1)))) << n;
  }
}

TEST(TotalExchange, RefusesASequenceThatIsNotAGossipNamingTheGroup) {
  const auto g = CayleyGroup::of("star:4");
  EXPECT_ERROR(ScheduleError, combining_exchange(g, {2, 3}), "star:4", "not a uniform gossip");
  EXPECT_ERROR(ScheduleError, combining_exchange(g, {2, 9}), "star:4", "no generator 9");
  const auto big = CayleyGroup::of("hypercube:11");
  EXPECT_ERROR(UsageError, exchange_schedule(big, one_packet_exchange(big)), "hypercube:11", "1024");
}

}  // namespace
}  // namespace starnet::algorithms::collectives
