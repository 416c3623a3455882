#include "steady_state_platforms.hpp"

#include <starnet/algorithms/steady_state/planner.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace starnet::algorithms::steady_state {
namespace {

using namespace testing;

void expect_certified_plan(const SteadyStateProblem& problem, std::optional<mpq_class> fixed, const std::string& label) {
  SteadyStatePlanner planner(problem);
  planner.fixed_period(fixed);
  ASSERT_EQ(planner.run(), Status::OPTIMAL) << label;
  EXPECT_TRUE(planner.solver().certified()) << label;
  const auto check = planner.verify();
  EXPECT_TRUE(check) << label << ": " << check.failure;
  EXPECT_GT(planner.throughput(), 0) << label;
  EXPECT_EQ(planner.schedule().throughput(), planner.throughput()) << label;
  EXPECT_EQ(planner.fixed_schedule().has_value(), fixed.has_value()) << label;
}

// Section 4.7 / Figure 9: a Tiers-like platform of ~15 nodes whose 8 LAN processors reduce to
// one of them (costs: messages of size 10; tasks of work 10 at speeds 15–95).
TEST(SteadyStatePlanner, TiersLikeReduceEndToEnd) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto p = tiers_like(seed, /*processors=*/8);
    EXPECT_GE(p.num_nodes(), 13U) << " seed=" << seed;
    EXPECT_LE(p.num_nodes(), 16U) << " seed=" << seed;
    const auto problem = SteadyStateProblem::reduce(p, names("P", 0, 8), "P4", {{}, [](int, int, int) { return Rational(10); }});
    expect_certified_plan(problem, mpq_class(100), "tiers-like reduce seed=" + std::to_string(seed));
  }
}

TEST(SteadyStatePlanner, EveryCollectiveEndToEnd) {
  const auto fig2 = figure2_platform();
  const auto fig6 = figure6_platform();
  const auto tiers = tiers_like(/*seed=*/5, /*processors=*/6);
  expect_certified_plan(SteadyStateProblem::scatter(fig2, "Ps", {"P0", "P1"}), std::nullopt, "figure 2");
  expect_certified_plan(SteadyStateProblem::reduce(fig6, {"P0", "P1", "P2"}, "P0"), mpq_class(5), "figure 6");
  expect_certified_plan(SteadyStateProblem::reduce(fig6, {"P2", "P0", "P1"}, "P1"), std::nullopt, "figure 6 reordered");
  expect_certified_plan(SteadyStateProblem::reduce(fig6, {"P1", "P2"}, "P0"), std::nullopt, "target not a participant");
  expect_certified_plan(SteadyStateProblem::scatter(tiers, "P0", names("P", 1, 5)), mpq_class(7, 3), "tiers scatter");
  expect_certified_plan(SteadyStateProblem::gossip(tiers, names("P", 0, 3), names("P", 2, 4)), std::nullopt,
                        "tiers gossip");
}

TEST(SteadyStatePlanner, RandomPlatformsEndToEnd) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const int nodes = 4 + static_cast<int>(seed % 4);
    const auto p = random_platform(seed, nodes, /*processors=*/nodes - 1, /*extra=*/nodes);
    const auto procs = names("N", 0, nodes - 1);
    expect_certified_plan(SteadyStateProblem::reduce(p, procs, procs.back()), mpq_class(12),
                          "random reduce seed=" + std::to_string(seed));
    expect_certified_plan(SteadyStateProblem::gossip(p, procs, procs), std::nullopt,
                          "random gossip seed=" + std::to_string(seed));
  }
}

}  // namespace
}  // namespace starnet::algorithms::steady_state
