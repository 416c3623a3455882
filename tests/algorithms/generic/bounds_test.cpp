#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/properties.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <vector>

namespace starnet::algorithms::generic {
namespace {

using emulator::PortModel;

TEST(CeilLog, AgreesWithRepeatedMultiplication) {
  for (std::uint64_t b = 2; b <= 5; ++b) {
    std::uint64_t power = 1;
    for (std::uint64_t e = 0; e <= 20; ++e, power *= b) {
      EXPECT_EQ(ceil_log(b, power), e) << " b=" << b << " e=" << e;
      if (power > 1) {
        EXPECT_EQ(ceil_log(b, power + 1), e + 1) << " b=" << b << " e=" << e;
      }
      if (power > 2) {
        EXPECT_EQ(ceil_log(b, power - 1), e) << " b=" << b << " e=" << e;
      }
    }
  }
  EXPECT_EQ(ceil_log(2, 1), 0U);
  EXPECT_EQ(ceil_log(2, std::numeric_limits<std::uint64_t>::max()), 64U);  // no overflow
  EXPECT_EQ(ceil_log(3, 120), 5U);                                         // 81 < 120 ≤ 243
}

TEST(StepLowerBound, TermsPerCollectiveAndPortModel) {
  const auto b = step_lower_bound(Collective::ALLREDUCE, {1, false}, /*nodes=*/120, /*distance=*/6);
  EXPECT_EQ(b.counting, 7U);
  EXPECT_EQ(b.distance, 6U);
  EXPECT_EQ(b.value(), 7U);
  EXPECT_EQ(step_lower_bound(Collective::ALLREDUCE, {2, false}, 120, 6).counting, 5U);  // ⌈log₃ 120⌉
  EXPECT_EQ(step_lower_bound(Collective::ALLREDUCE, {1, true}, 120, 6).counting, 8U);   // +1: half duplex
  EXPECT_EQ(step_lower_bound(Collective::ALLREDUCE, {2, true}, 120, 6).counting, 5U);   // k ≥ 2: no +1
  EXPECT_EQ(step_lower_bound(Collective::REDUCE, {1, true}, 120, 6).counting, 7U);      // reduce: no +1
  EXPECT_EQ(step_lower_bound(Collective::ALLREDUCE, {1, true}, 1, 0).value(), 0U);      // one node
  EXPECT_EQ(step_lower_bound(Collective::BROADCAST, {1, false}, 121, 20).value(), 20U);
}

/// Brute force over every schedule on the complete graph K_n: the fewest steps after which every
/// node knows every word, when a message carries the set of words its sender knows (a relaxation:
/// real combining cannot do better, and K_n has every link, so no topology does better either).
int fewest_allreduce_steps(int n, const PortModel& m) {
  const std::uint32_t full = (1U << n) - 1;
  using State = std::vector<std::uint32_t>;
  State start(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) start[static_cast<std::size_t>(v)] = 1U << v;
  const auto done = [&](const State& s) {
    return std::all_of(s.begin(), s.end(), [&](std::uint32_t x) { return x == full; });
  };
  if (done(start)) return 0;
  std::map<State, int> seen{{start, 0}};
  std::vector<State> frontier{start};
  for (int steps = 1;; ++steps) {
    std::vector<State> next;
    bool found = false;
    for (const auto& s : frontier) {
      // Every set of transfers (sender, receiver) the port model allows.
      std::vector<int> sends(static_cast<std::size_t>(n), 0), receives(static_cast<std::size_t>(n), 0);
      State t = s;
      std::function<void(int)> choose = [&](int pair) {
        if (found) return;
        if (pair == n * n) {
          found = done(t);
          if (seen.emplace(t, steps).second) next.push_back(t);
          return;
        }
        choose(pair + 1);  // without transfer pair/n → pair%n
        const auto u = static_cast<std::size_t>(pair / n);
        const auto v = static_cast<std::size_t>(pair % n);
        if (u == v) return;
        const auto busy = [&](std::size_t w, bool sending) {
          const int used = (sending || m.half_duplex ? sends[w] : 0) + (!sending || m.half_duplex ? receives[w] : 0);
          return used >= static_cast<int>(m.ports);
        };
        if (busy(u, true) || busy(v, false)) return;
        ++sends[u], ++receives[v];
        const auto before = t[v];
        t[v] |= s[u];
        choose(pair + 1);
        t[v] = before;
        --sends[u], --receives[v];
      };
      choose(0);
      if (found) return steps;
    }
    frontier = std::move(next);
  }
}

TEST(StepLowerBound, NeverExceedsTheBruteForceOptimumOnCompleteGraphs) {
  for (int n = 1; n <= 4; ++n) {
    for (const PortModel m : {PortModel{1, false}, PortModel{1, true}, PortModel{2, false}, PortModel{2, true}}) {
      const int best = fewest_allreduce_steps(n, m);
      const auto bound = step_lower_bound(Collective::ALLREDUCE, m, static_cast<NodeId>(n), n > 1 ? 1 : 0);
      EXPECT_LE(bound.value(), static_cast<std::uint64_t>(best)) << " n=" << n << " " << m.to_string();
      // Single-port full duplex: recursive doubling meets ⌈log₂ n⌉ for n = 2, 4. Half duplex:
      // the +1 is met for n = 2 (one way, then back); K_3 and K_4 need 4 steps, one more.
      if (m.ports == 1 && (n == 2 || (n == 4 && !m.half_duplex))) {
        EXPECT_EQ(bound.value(), static_cast<std::uint64_t>(best)) << " n=" << n << " " << m.to_string();
      }
      if (m.ports == 1 && m.half_duplex && n >= 3) {
        EXPECT_EQ(best, 4) << " n=" << n;
      }
    }
  }
}

TEST(Distances, HopDiameterAgreesWithTopologyProperties) {
  for (const char* spec : {"star:5", "hypercube:7", "debruijn:7", "torus:11x11", "mesh:4x6", "tiers:2", "complete:9"}) {
    const auto t = topology::make_topology(spec);
    const auto expected = *topology::topology_properties(spec).diameter();
    const Diameter all_pairs = diameter(*t, false, false);
    EXPECT_TRUE(all_pairs.exact) << spec;
    EXPECT_EQ(all_pairs.value, Rational(expected)) << spec;
    if (topology::is_vertex_transitive(spec)) {
      EXPECT_EQ(diameter(*t, false, true).value, Rational(expected)) << spec;
    }
  }
}

TEST(Distances, LargeGraphsGetALowerEstimateFromSweeps) {
  const auto q14 = topology::make_topology("hypercube:14");  // 16384·(16384 + 229376) > MAX_DIAMETER_WORK
  const Diameter swept = diameter(*q14, false, false);
  EXPECT_FALSE(swept.exact);
  EXPECT_LE(swept.value, Rational(14));
  EXPECT_EQ(swept.value, Rational(14));  // the sweep from 0 finds its antipode
  EXPECT_TRUE(diameter(*q14, false, true).exact);
}

TEST(Distances, WeightedDiameterAgreesWithFloydWarshall) {
  for (const char* spec : {"torus:4x5", "tiers:6", "debruijn:5"}) {
    const auto base = topology::make_topology(spec);
    const Subnetwork net(*base, {}, 0, {CostKind::RANDOM, 17});
    const NodeId n = net.num_nodes();
    std::vector<std::vector<std::optional<Rational>>> d(n, std::vector<std::optional<Rational>>(n));
    for (NodeId v = 0; v < n; ++v) {
      d[v][v] = Rational(0);
      for (topology::Port p = 0; p < net.degree(v); ++p) d[v][net.neighbor(v, p)] = net.link_cost(v, p);
    }
    for (NodeId k = 0; k < n; ++k) {
      for (NodeId i = 0; i < n; ++i) {
        for (NodeId j = 0; j < n; ++j) {
          if (d[i][k] && d[k][j] && (!d[i][j] || *d[i][k] + *d[k][j] < *d[i][j])) d[i][j] = *d[i][k] + *d[k][j];
        }
      }
    }
    Rational best(0);
    for (NodeId i = 0; i < n; ++i) {
      Rational ecc(0);
      for (NodeId j = 0; j < n; ++j) ecc = std::max(ecc, *d[i][j]);
      if (i == 0) {
        EXPECT_EQ(eccentricity(net, 0, true), ecc) << spec;
      }
      best = std::max(best, ecc);
    }
    EXPECT_EQ(diameter(net, true, false).value, best) << spec;
  }
}

TEST(TimeLowerBound, ScalesTheCountingBoundByTheCheapestLink) {
  const TimeBound b = time_lower_bound({1, false}, 128, Rational(1, 2), Rational(9, 4));
  EXPECT_EQ(b.counting, Rational(7, 2));
  EXPECT_EQ(b.value(), Rational(7, 2));
  EXPECT_EQ(time_lower_bound({2, true}, 128, Rational(3), Rational(1)).counting, Rational(15));  // 3·⌈log₃ 128⌉
}

}  // namespace
}  // namespace starnet::algorithms::generic
