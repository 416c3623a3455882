// The dense step path on several lanes (emulator/src/dense_step.*, RunConfig::threads) against one
// lane and against the general path: the same results, counters, trace, what every node saw, and
// the same port-model violation or error, word for word, whatever the number of lanes. Lanes are
// forced onto small graphs by RunConfig::nodes_per_thread = 1. The star collectives on lanes are
// compared in tests/algorithms/star/allreduce_test.cpp.
#include "send_only_runs.hpp"

#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace starnet::emulator {
namespace {

using ::testing::HasSubstr;
using testing::Outcome;
using testing::SendOnly;
using testing::run_lanes;
using testing::same_on_lanes;
using topology::StarGraph;

/// Runs @p body on one lane, on 2, 3 and 7 lanes and on the general path; expects the same of
/// everything. Returns the one-lane outcome.
Outcome same_on_every_lane_count(const topology::Topology& g, const SendOnly::Body& body, bool notices = false) {
  return same_on_lanes(g, body, notices, {2, 3, 7});
}

// Along every dimension (most steps cross lanes), wide values, a sparse token (the receivers
// listed, the reacting nodes sorted; with send notices the sender reacts too), violations.
TEST(DenseLanes, ExchangesAlongEveryDimensionAsOneLane) { testing::check_every_dimension(same_on_every_lane_count, 2); }
TEST(DenseLanes, WideValuesOfEveryLaneComeBackWhole) { testing::check_wide_values(same_on_every_lane_count, 1); }
TEST(DenseLanes, ASparseTokenCrossesEveryLane) { testing::check_token(same_on_every_lane_count, 1, {false, true}); }
TEST(DenseLanes, ViolationsAreOneLanesWordForWord) { testing::check_violations(same_on_every_lane_count); }

TEST(DenseLanes, TheErrorOfTheFirstNodeInNodeOrderWins) {
  // Errors in several lanes: the one a single lane meets first.
  const StarGraph g(/*n=*/5);
  EXPECT_EQ(same_on_every_lane_count(g, testing::failing_nodes(0)).error, "node 17 fails");
}

TEST(DenseLanes, AStopRequestEndsEveryLane) {
  // A stop asked for by one lane's node ends the run at the next step; no lane is left waiting.
  const StarGraph g(/*n=*/6);
  for (const unsigned lanes : {1U, 4U}) {
    const StopScope scope;
    const auto o = run_lanes(g, [](Context& ctx) {
      if (ctx.step() == 2 && ctx.node() == 500) request_stop();
      ctx.send(StarGraph::port_of(2 + static_cast<int>(ctx.step() % 5)), "s");
    }, false, lanes);
    EXPECT_FALSE(o.result);
    EXPECT_THAT(o.error, HasSubstr("stopped on request"));
  }
}

TEST(DenseLanes, SmallRunsKeepOneLane) {
  // Below nodes_per_thread nodes a lane, a run takes fewer lanes than threads: one program.
  const StarGraph g(/*n=*/5);
  RunConfig config;
  config.threads = 8;
  const UnitCosts<Rational> costs;
  const auto r = LocalEngine<Rational>().run(
      g, costs, [](NodeRange) { return std::make_unique<SendOnly>([](Context&) {}, false); }, config);
  EXPECT_EQ(r.programs.size(), 1U);
  config.nodes_per_thread = 40;
  EXPECT_EQ(LocalEngine<Rational>()
                .run(g, costs, [](NodeRange) { return std::make_unique<SendOnly>([](Context&) {}, false); }, config)
                .programs.size(),
            3U);
}

TEST(DenseLanes, SeveralLanesAThreadGiveOneLanesRun) {
  // Two threads take 2 × lanes_per_thread lanes, handed out as threads come free: the same trace,
  // counters and what every node saw as one lane.
  const StarGraph g(/*n=*/5);
  const SendOnly::Body body = [](Context& ctx) {
    if (ctx.step() < 8) ctx.send(StarGraph::port_of(2 + static_cast<int>(ctx.step() % 4)), "x");
  };
  RunConfig config;
  config.trace = true;
  config.nodes_per_thread = 1;
  config.threads = 2;
  const auto several = testing::run_on(LocalEngine<Rational>(), g, body, false, config);
  EXPECT_EQ(several.programs, 2 * DEFAULT_LANES_PER_THREAD);
  ASSERT_TRUE(several.result);
  EXPECT_EQ(several.result->counters.messages, 8 * g.size());
  testing::expect_same(g, run_lanes(g, body, false, 1), several, "2 threads of several lanes");
}

}  // namespace
}  // namespace starnet::emulator
