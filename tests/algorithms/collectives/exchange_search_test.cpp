// The Pareto front of uniform combining total exchanges, checked against a brute force over every
// generator sequence on small groups (objective values, not sequences), and its known shapes.
#include "../../core/expect_error.hpp"

#include <starnet/algorithms/collectives/exchange_search.hpp>
#include <starnet/algorithms/optimal/uniform_search.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <map>

namespace starnet::algorithms::collectives {
namespace {

/// The least volume of every sequence of exactly T steps that routes every offset (none: no
/// sequence does), by enumerating all |S|^T sequences.
std::map<std::uint64_t, std::uint64_t> brute_force(const CayleyGroup& g, std::uint64_t max_steps) {
  const RightTables right(g);
  const auto gens = static_cast<std::uint64_t>(g.last() - g.first() + 1);
  std::map<std::uint64_t, std::uint64_t> best;
  const auto n = static_cast<std::size_t>(g.order());
  for (std::uint64_t t = 1; t <= max_steps; ++t) {
    std::uint64_t count = 1;
    for (std::uint64_t i = 0; i < t; ++i) count *= gens;
    for (std::uint64_t code = 0; code < count; ++code) {
      std::vector<std::uint16_t> d(n, INFINITE_HOPS), next(n);
      d[0] = 0;
      for (std::uint64_t i = 0, c = code; i < t; ++i, c /= gens) {
        exchange_step(right, g.first() + static_cast<int>(c % gens), d, next);
        std::swap(d, next);
      }
      std::uint64_t volume = 0;
      bool all = true;
      for (const auto x : d) {
        all = all && x != INFINITE_HOPS;
        volume += x == INFINITE_HOPS ? 0 : x;
      }
      if (all && (!best.contains(t) || volume < best[t])) best[t] = volume;
    }
  }
  return best;
}

TEST(ExchangePareto, EveryPointIsTheLeastVolumeOfItsStepCountAgainstBruteForce) {
  for (const auto& [spec, depth] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"star:3", 6}, {"star:4", 10}, {"ring:6", 8}, {"torus:2x3", 7}, {"complete:5", 5}, {"hypercube:3", 5}}) {
    const auto g = CayleyGroup::of(spec);
    const auto front = exchange_pareto(g, {});
    const auto oracle = brute_force(g, depth);
    ASSERT_FALSE(front.points.empty()) << spec;
    EXPECT_TRUE(front.reached_status) << spec;
    std::uint64_t previous = std::numeric_limits<std::uint64_t>::max();
    for (const auto& p : front.points) {
      EXPECT_TRUE(p.exhaustive) << spec;
      EXPECT_LT(p.volume, previous) << spec;
      previous = p.volume;
      const auto plan = combining_exchange(g, p.generators);
      EXPECT_EQ(plan.volume, p.volume) << spec << " T=" << p.steps();
      if (p.steps() <= depth) {
        ASSERT_TRUE(oracle.contains(p.steps())) << spec;
        EXPECT_EQ(oracle.at(p.steps()), p.volume) << spec << " T=" << p.steps();
      }
    }
    // The first point has the fewest steps any sequence routes everything in; between points the
    // least volume does not fall (else that step count would be a point).
    const auto first_t = front.points.front().steps();
    for (const auto& [t, v] : oracle) {
      EXPECT_GE(t, first_t) << spec;
      const auto at_most = std::find_if(front.points.rbegin(), front.points.rend(),
                                        [t = t](const ParetoPoint& p) { return p.steps() <= t; });
      ASSERT_NE(at_most, front.points.rend()) << spec;
      EXPECT_GE(v, at_most->volume) << spec << " T=" << t;
    }
    EXPECT_EQ(front.points.back().volume, front.status) << spec;
  }
}

TEST(ExchangePareto, HypercubesAndRingsReachTheStatusAtOnce) {
  const auto q = exchange_pareto(CayleyGroup::of("hypercube:5"), {});
  ASSERT_EQ(q.points.size(), 1U);
  EXPECT_EQ(q.points[0].steps(), 5U);
  EXPECT_EQ(q.points[0].volume, 5U * 16U);  // s = d·2^(d−1)
  const auto r = exchange_pareto(CayleyGroup::of("ring:10"), {});
  ASSERT_EQ(r.points.size(), 1U);
  EXPECT_EQ(r.points[0].steps(), 9U);    // N − 1 (+1 five times, −1 four times)
  EXPECT_EQ(r.points[0].volume, 25U);    // s = Σ min(j, N − j)
}

TEST(ExchangePareto, ABeamFromTheStartFindsAFrontToo) {
  ParetoOptions beam_only;
  beam_only.max_states = 0;
  beam_only.beam_width = 16;
  const auto front = exchange_pareto(CayleyGroup::of("star:5"), beam_only);
  ASSERT_FALSE(front.points.empty());
  for (const auto& p : front.points) EXPECT_FALSE(p.exhaustive);
  EXPECT_GE(front.points.front().steps(), 9U);  // the uniform gossip optimum of S_5
  EXPECT_GE(front.points.back().volume, front.status);
}

}  // namespace
}  // namespace starnet::algorithms::collectives
