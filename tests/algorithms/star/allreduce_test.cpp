#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/core/error.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <set>

namespace starnet::algorithms::star {
namespace {

using emulator::EventKind;
using emulator::LocalEngine;
using emulator::NodeRange;
using emulator::RunConfig;
using emulator::UnitCosts;
using topology::StarGraph;

struct Outcome {
  emulator::RunResult<Rational> run;
  StarReport report;
};

Outcome allreduce(int n, Op op, Values values, bool trace = false) {
  const StarGraph g(n);
  const UnitCosts<Rational> costs;
  RunConfig config;
  config.trace = trace;
  const auto expected = reduce_sequentially(g, op, values);
  Outcome o{LocalEngine<Rational>().run(
                g, costs, [&](NodeRange r) { return make_allreduce_program(g, op, values, expected, r); }, config),
            {}};
  for (const auto& text : o.run.reports) o.report.merge(StarReport::parse(text));
  return o;
}

TEST(StarSteps, LevelOfStepUnrollsTheRecursion) {
  // S_4: level 2 = step 0 (link 2); level 3 = steps 1, 2 (links 3, 2); level 4 = steps 3..5.
  const std::vector<std::pair<int, int>> expected = {{2, 2}, {3, 3}, {3, 2}, {4, 4}, {4, 3}, {4, 2}};
  for (std::uint64_t s = 0; s < expected.size(); ++s) {
    const auto l = level_of_step(s);
    EXPECT_EQ(l.level, expected[s].first) << " s=" << s;
    EXPECT_EQ(l.link(), expected[s].second) << " s=" << s;
  }
  EXPECT_EQ(allreduce_steps(/*m=*/10), 45U);
}

TEST(AllReduce, EveryNodeHoldsTheSequentialReductionInNTimesNMinusOneHalfSteps) {
  for (int n = 1; n <= 7; ++n) {
    for (const Op op : {Op::SUM, Op::MIN, Op::MAX, Op::XOR}) {
      for (const bool random : {false, true}) {
        const auto o = allreduce(n, op, {random, /*seed=*/42});
        const auto nodes = StarGraph::factorial(n);
        EXPECT_EQ(o.run.makespan, Rational(static_cast<std::int64_t>(allreduce_steps(n))))
            << " n=" << n << " op=" << to_string(op);
        EXPECT_EQ(o.report.nodes_checked, nodes) << " n=" << n;
        EXPECT_EQ(o.report.nodes_correct, nodes) << " n=" << n << " op=" << to_string(op) << " random=" << random;
        EXPECT_EQ(o.run.counters.messages, nodes * allreduce_steps(n)) << " n=" << n;
        EXPECT_EQ(o.run.counters.payload_bytes, 8 * nodes * allreduce_steps(n)) << " n=" << n;
        if (n > 1) {
          EXPECT_EQ(o.run.counters.max_concurrent_sends, 1U);
          EXPECT_EQ(o.run.counters.max_concurrent_receives, 1U);
        }
      }
    }
  }
}

TEST(AllReduce, SumOfOneToNFactorial) {
  // Theorem 2: every node holds 1 + 2 + … + n!.
  const auto o = allreduce(5, Op::SUM, {});
  EXPECT_EQ(reduce_sequentially(StarGraph(5), Op::SUM, {}), 120U * 121U / 2);
  EXPECT_EQ(o.report.nodes_correct, 120U);
}

TEST(AllReduce, ReportsStepsPerRecursionLevel) {
  const auto o = allreduce(6, Op::SUM, {});
  for (int m = 2; m <= 6; ++m) {
    // Level m sends from step T(m−1) and its last message arrives at step T(m): m − 1 steps.
    EXPECT_EQ(o.report.level_first[static_cast<std::size_t>(m)], allreduce_steps(m - 1)) << " m=" << m;
    EXPECT_EQ(o.report.level_last[static_cast<std::size_t>(m)], allreduce_steps(m)) << " m=" << m;
  }
}

TEST(AllReduce, VerificationCatchesAWrongValue) {
  // A program whose expected value is off must not verify: the check can fail.
  const StarGraph g(4);
  const UnitCosts<Rational> costs;
  const auto wrong = reduce_sequentially(g, Op::SUM, {}) + 1;
  auto r = LocalEngine<Rational>().run(
      g, costs, [&](NodeRange range) { return make_allreduce_program(g, Op::SUM, {}, wrong, range); }, {});
  const auto report = StarReport::parse(r.reports.front());
  EXPECT_EQ(report.nodes_correct, 0U);
  EXPECT_EQ(report.first_wrong, 0);
}

// Figure 1 of the paper, written by hand from its description: S_3 with node values 1..6
// (value = rank + 1). Step 0: every node sends its value along link 2 (the S_2 exchange).
// Step 1: every node sends its S_2 sum along link 3 and keeps it. Step 2: every node forwards,
// along link 2, the sum it received along link 3. Every node then holds 1 + … + 6 = 21.
TEST(AllReduce, FollowsFigureOneOnS3) {
  const StarGraph g(3);
  const auto o = allreduce(3, Op::SUM, {}, /*trace=*/true);
  const auto value = [](std::uint64_t rank) { return rank + 1; };
  const auto s2_sum = [&](std::uint32_t u) { return value(u) + value(g.neighbor_along(u, 2)); };
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<int, std::uint64_t>> sent;  // (step, node)
  for (const auto& e : o.run.trace) {
    if (e.kind != EventKind::SEND) continue;
    std::uint64_t x = 0;
    ASSERT_EQ(e.payload.size(), sizeof x);
    std::memcpy(&x, e.payload.data(), sizeof x);
    EXPECT_TRUE(sent.emplace(std::pair{e.step, e.node}, std::pair{StarGraph::dimension_of(e.port), x}).second)
        << " two sends by one node in one step";
  }
  ASSERT_EQ(sent.size(), 18U);  // 6 nodes × 3 steps
  for (std::uint32_t v = 0; v < 6; ++v) {
    const auto label = g.label_string(v);
    EXPECT_EQ(sent.at({0, v}), std::pair(2, value(v))) << " v=" << label;
    EXPECT_EQ(sent.at({1, v}), std::pair(3, s2_sum(v))) << " v=" << label;
    EXPECT_EQ(sent.at({2, v}), std::pair(2, s2_sum(g.neighbor_along(v, 3)))) << " v=" << label;
  }
  EXPECT_EQ(o.report.nodes_correct, 6U);
  EXPECT_EQ(o.run.makespan, Rational(3));
}

TEST(Broadcast, EveryNodeHoldsEveryItemExactlyOnce) {
  for (int n = 1; n <= 7; ++n) {
    const StarGraph g(n);
    const UnitCosts<Rational> costs;
    auto r = LocalEngine<Rational>().run(g, costs, [&](NodeRange range) { return make_broadcast_program(g, range); },
                                         {});
    StarReport report;
    for (const auto& text : r.reports) report.merge(StarReport::parse(text));
    const auto nodes = StarGraph::factorial(n);
    EXPECT_EQ(r.makespan, Rational(static_cast<std::int64_t>(allreduce_steps(n)))) << " n=" << n;
    EXPECT_EQ(report.nodes_correct, nodes) << " n=" << n;
    EXPECT_EQ(report.duplicates, 0U) << " n=" << n;
    // NODUP: each node receives each of the other n! − 1 items exactly once.
    EXPECT_EQ(report.items_received, nodes * (nodes - 1)) << " n=" << n;
  }
}

TEST(StarOp, RejectsUnknownOperatorNamingIt) {
  try {
    (void)parse_op("avg", "--op");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("--op: \"avg\""));
  }
}

}  // namespace
}  // namespace starnet::algorithms::star

namespace starnet::algorithms::star {
namespace {

// Unit tests cover n ≤ 7 on every in-process engine: local (its dense step path, and its general
// path), zmq with 1 and 3 worker threads (process workers are covered by the command-line tests,
// which start real processes).
TEST(StarEngines, AllReduceAndBroadcastVerifiedWithIdenticalTraces) {
  for (int n = 2; n <= 7; ++n) {
    const StarGraph g(n);
    const UnitCosts<Rational> costs;
    RunConfig config;
    config.trace = n <= 5;
    const Values values{true, /*seed=*/7};
    const auto expected = reduce_sequentially(g, Op::XOR, values);
    for (const bool broadcast : {false, true}) {
      const emulator::ProgramFactory factory = [&](NodeRange r) {
        return broadcast ? make_broadcast_program(g, r) : make_allreduce_program(g, Op::XOR, values, expected, r);
      };
      const auto local = LocalEngine<Rational>().run(g, costs, factory, config);
      RunConfig general_config = config;
      general_config.dense_steps = false;
      const auto general = LocalEngine<Rational>().run(g, costs, factory, general_config);
      EXPECT_EQ(general.counters.messages, local.counters.messages) << " n=" << n;
      EXPECT_EQ(general.counters.payload_bytes, local.counters.payload_bytes) << " n=" << n;
      EXPECT_EQ(general.counters.event_times, local.counters.event_times) << " n=" << n;
      EXPECT_EQ(general.reports, local.reports) << " n=" << n;
      ASSERT_EQ(general.trace.size(), local.trace.size()) << " n=" << n;
      for (std::size_t i = 0; i < general.trace.size(); ++i) {
        ASSERT_EQ(emulator::to_json_line(general.trace[i], g), emulator::to_json_line(local.trace[i], g))
            << " n=" << n << " general path, event " << i;
      }
      for (const unsigned k : {1U, 3U}) {
        if (k > g.size()) continue;  // S_2 has 2 nodes
        const auto zmq = emulator::run_zmq_threads<Rational>(g, costs, factory, config, k);
        StarReport report;
        for (const auto& text : zmq.reports) report.merge(StarReport::parse(text));
        EXPECT_EQ(report.nodes_correct, StarGraph::factorial(n)) << " n=" << n << " k=" << k << " b=" << broadcast;
        EXPECT_EQ(zmq.makespan, Rational(static_cast<std::int64_t>(allreduce_steps(n)))) << " n=" << n;
        ASSERT_EQ(zmq.trace.size(), local.trace.size()) << " n=" << n << " k=" << k;
        for (std::size_t i = 0; i < zmq.trace.size(); ++i) {
          ASSERT_EQ(emulator::to_json_line(zmq.trace[i], g), emulator::to_json_line(local.trace[i], g))
              << " n=" << n << " k=" << k << " event " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace starnet::algorithms::star

namespace starnet::algorithms::star {
namespace {

/// The merged account of a run's partitions.
StarReport merged(const emulator::RunResult<Rational>& run) {
  StarReport report;
  for (const auto& text : run.reports) report.merge(StarReport::parse(text));
  return report;
}

// The dense step path on lanes (RunConfig::threads): the same trace, counters and merged report
// (the verdict) on 1 lane and on 2, 4 and 5 threads of several lanes each, n = 2..8 (traced up to
// n = 6).
TEST(StarEngines, DenseLanesGiveOneLanesTraceCountersAndVerdict) {
  for (int n = 2; n <= 8; ++n) {
    const StarGraph g(n);
    const UnitCosts<Rational> costs;
    RunConfig config;
    config.trace = n <= 6;
    config.nodes_per_thread = 1;
    const Values values{true, /*seed=*/11};
    const auto expected = reduce_sequentially(g, Op::SUM, values);
    for (const bool broadcast : {false, true}) {
      const emulator::ProgramFactory factory = [&](NodeRange r) {
        return broadcast ? make_broadcast_program(g, r) : make_allreduce_program(g, Op::SUM, values, expected, r);
      };
      const auto one = LocalEngine<Rational>().run(g, costs, factory, config);
      const auto report = merged(one);
      ASSERT_EQ(report.nodes_correct, StarGraph::factorial(n)) << " n=" << n;
      for (const unsigned threads : {2U, 4U, 5U}) {
        RunConfig lanes_config = config;
        lanes_config.threads = threads;
        const auto lanes = LocalEngine<Rational>().run(g, costs, factory, lanes_config);
        const auto where = ::testing::Message() << " n=" << n << " threads=" << threads << " b=" << broadcast;
        // Several lanes a thread (RunConfig::lanes_per_thread, by default), one node each at least.
        EXPECT_EQ(lanes.programs.size(), std::min<std::uint64_t>(threads * lanes_config.lanes_per_thread, g.size()))
            << where;
        // What a lane's program writes on every message is on lines no other lane's program writes.
        for (const auto& p : lanes.programs) {
          EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p.get()) % emulator::CACHE_LINE, 0U) << where;
        }
        EXPECT_EQ(lanes.makespan, one.makespan) << where;
        EXPECT_EQ(lanes.counters.messages, one.counters.messages) << where;
        EXPECT_EQ(lanes.counters.payload_bytes, one.counters.payload_bytes) << where;
        EXPECT_EQ(lanes.counters.event_times, one.counters.event_times) << where;
        EXPECT_EQ(lanes.counters.max_concurrent_sends, one.counters.max_concurrent_sends) << where;
        EXPECT_EQ(lanes.counters.max_concurrent_receives, one.counters.max_concurrent_receives) << where;
        const auto r = merged(lanes);
        EXPECT_EQ(r.nodes_checked, report.nodes_checked) << where;
        EXPECT_EQ(r.nodes_correct, report.nodes_correct) << where;
        EXPECT_EQ(r.level_first, report.level_first) << where;
        EXPECT_EQ(r.level_last, report.level_last) << where;
        EXPECT_EQ(r.items_received, report.items_received) << where;
        ASSERT_EQ(lanes.trace.size(), one.trace.size()) << where;
        for (std::size_t i = 0; i < lanes.trace.size(); ++i) {
          ASSERT_EQ(emulator::to_json_line(lanes.trace[i], g), emulator::to_json_line(one.trace[i], g))
              << where << " event " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace starnet::algorithms::star
