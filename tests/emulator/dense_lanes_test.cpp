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

TEST(DenseLanes, ExchangesAlongEveryDimensionAsOneLane) {
  // Every node sends along link k at step k − 2, payloads of 0 to 8 bytes, tags that differ per
  // node (a wide tag column), with and without send notices; most steps cross lanes.
  for (int n = 2; n <= 6; ++n) {
    const StarGraph g(n);
    for (const bool notices : {false, true}) {
      SCOPED_TRACE(fmt::format("n={} notices={}", n, notices));
      const auto o = same_on_every_lane_count(g, [n](Context& ctx) {
        const auto step = ctx.step();
        if (step + 2 > static_cast<std::uint64_t>(n)) return;
        const auto v = ctx.node();
        ctx.send(StarGraph::port_of(static_cast<int>(step) + 2), std::string(v % 9, static_cast<char>('a' + step)),
                 1, v * 1000 + step);
      }, notices);
      ASSERT_TRUE(o.result);
      EXPECT_EQ(o.result->counters.messages, static_cast<std::uint64_t>(n - 1) * StarGraph::factorial(n));
    }
  }
}

TEST(DenseLanes, WideValuesOfEveryLaneComeBackWhole) {
  // Payloads over 8 bytes, tags of 2^32 and more, sizes other than 1, ports that differ, lanes
  // whose values each agree but differ from lane to lane (a column wide only once merged).
  const auto big = topology::make_topology("complete:40");
  const auto o = same_on_every_lane_count(*big, [](Context& ctx) {
    if (ctx.step() > 2) return;
    const auto v = ctx.node();
    const auto step = ctx.step();
    const std::uint64_t tag = v < 20 ? 5 : (std::uint64_t{1} << 40) + step;
    const Rational size = v % 3 == 0 ? Rational(0) : v % 3 == 1 ? Rational(1) : Rational(5, 2);
    const std::string payload = v % 2 == 0 ? std::string(20 + v % 5, 'p') : std::string(v < 20 ? 1 : 3, 'w');
    // A shift of every node by step + 1: one message to each receiver, through ports that differ.
    ctx.send_to((v + step + 1) % 40, payload, size, tag);
  });
  ASSERT_TRUE(o.result);
  EXPECT_EQ(o.result->counters.messages, 3U * 40U);
}

TEST(DenseLanes, ASparseTokenCrossesEveryLane) {
  // One message per step on a ring of 64 (a sparse step): the receivers are listed, and the
  // reacting nodes sorted; with send notices the sender reacts too.
  const auto ring = topology::make_topology("ring:64");
  for (const bool notices : {false, true}) {
    const auto o = same_on_every_lane_count(*ring, [](Context& ctx) {
      const bool holds = (ctx.starting() && ctx.node() == 0) || !ctx.received().empty();
      if (holds && ctx.step() < 100) ctx.send_to((ctx.node() + 1) % 64, "token", 1, ctx.step());
    }, notices);
    ASSERT_TRUE(o.result);
    EXPECT_EQ(o.result->counters.messages, 100U);
  }
}

TEST(DenseLanes, ViolationsAreOneLanesWordForWord) {
  const StarGraph g(/*n=*/5);
  const std::vector<std::pair<std::string, SendOnly::Body>> cases = {
      {"a second send in one reaction",
       [](Context& ctx) {
         if (ctx.starting() && ctx.node() % 37 == 5) {
           ctx.send(0, "x");
           ctx.send(1, "y");
         }
       }},
      {"senders of several lanes to one receiver",
       [](Context& ctx) {
         // Every neighbour of nodes 1 and 100 sends to it: along link 5 from another lane.
         for (const NodeId target : {NodeId{1}, NodeId{100}}) {
           if (ctx.starting() && ctx.topology().find_port(ctx.node(), target) != topology::Topology::NO_PORT) {
             ctx.send_to(target, "z");
           }
         }
       }},
      {"every node sends along link 5 to a node that also receives along link 2",
       [](Context& ctx) {
         if (ctx.starting()) ctx.send(ctx.node() % 2 == 0 ? StarGraph::port_of(5) : StarGraph::port_of(2), "c");
       }},
      {"a port the node does not have",
       [](Context& ctx) {
         if (ctx.starting() && (ctx.node() == 3 || ctx.node() == 90)) ctx.send(7, "x");
       }},
      {"a node that is no neighbour",
       [](Context& ctx) {
         if (ctx.starting() && ctx.node() == 70) ctx.send_to(70, "x");  // itself
       }},
      {"a negative size",
       [](Context& ctx) {
         if (ctx.starting() && ctx.node() == 110) ctx.send(0, "x", Rational(-1));
       }},
      {"violations at a later step, the smallest named",
       [](Context& ctx) {
         if (ctx.starting()) ctx.send(0, "a");
         if (ctx.step() == 1 && ctx.node() > 50) {
           ctx.send(1, "b");
           ctx.send(2, "c");
         }
       }},
  };
  for (const auto& [what, body] : cases) {
    SCOPED_TRACE(what);
    const auto o = same_on_every_lane_count(g, body);
    EXPECT_FALSE(o.result);
    EXPECT_THAT(o.error, HasSubstr("strict port-model check: step "));
  }
}

TEST(DenseLanes, TheErrorOfTheFirstNodeInNodeOrderWins) {
  // Errors in several lanes: the one a single lane meets first.
  const StarGraph g(/*n=*/5);
  const auto o = same_on_every_lane_count(g, [](Context& ctx) {
    if (ctx.step() == 1 && (ctx.node() == 17 || ctx.node() == 80 || ctx.node() == 119)) {
      throw std::runtime_error(fmt::format("node {} fails", ctx.node()));
    }
    if (ctx.starting()) ctx.send(0, "a");
  });
  EXPECT_EQ(o.error, "node 17 fails");
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

}  // namespace
}  // namespace starnet::emulator
