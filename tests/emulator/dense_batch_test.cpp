// The dense step path between zmq workers (emulator/src/dense_batch.hpp, DenseStep's worker run,
// partition_run.hpp): each step's messages for other workers' nodes travel as columns, and the
// workers' merged results are the local run's: counters, trace, what every node saw, and the
// port-model violation or error word for word, for 2, 3 and 5 workers. The star collectives over
// workers are compared in tests/algorithms/star/allreduce_test.cpp.
#include "../../emulator/src/dense_batch.hpp"
#include "send_only_runs.hpp"

#include <starnet/core/error.hpp>
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
using testing::run_workers;
using topology::StarGraph;

/// Runs @p body on one local lane and on 2, 3 and 5 zmq worker threads; expects the same of
/// everything, and the dense path on the workers unless the program takes send notices (then the
/// general core, which must agree too). Returns the local outcome.
Outcome same_on_workers(const topology::Topology& g, const SendOnly::Body& body, bool notices = false) {
  Outcome local = run_lanes(g, body, notices, 1);
  EXPECT_TRUE(local.dense);
  for (const unsigned workers : {2U, 3U, 5U}) {
    const Outcome zmq = run_workers(g, body, notices, workers);
    EXPECT_EQ(zmq.dense, !notices) << workers << " workers";
    if (zmq.result) {
      EXPECT_EQ(zmq.programs, workers);
    }
    testing::expect_same(g, local, zmq, fmt::format("{} workers", workers));
  }
  return local;
}

TEST(DenseBatch, ExchangesAlongEveryDimensionAsTheLocalRun) {
  // Every node sends along link k at step k − 2, payloads of 0 to 8 bytes, tags that differ per
  // node (a wide tag column); the steps along the highest links cross workers.
  for (int n = 3; n <= 6; ++n) {
    const StarGraph g(n);
    for (const bool notices : {false, true}) {
      SCOPED_TRACE(fmt::format("n={} notices={}", n, notices));
      const auto o = same_on_workers(g, [n](Context& ctx) {
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

TEST(DenseBatch, WideValuesCrossWorkersWhole) {
  // Payloads over 8 bytes, tags of 2^32 and more, sizes other than 1 and 0, ports that differ,
  // workers whose batches each agree but differ from worker to worker.
  const auto big = topology::make_topology("complete:40");
  const auto o = same_on_workers(*big, [](Context& ctx) {
    if (ctx.step() > 2) return;
    const auto v = ctx.node();
    const auto step = ctx.step();
    const std::uint64_t tag = v < 20 ? 5 : (std::uint64_t{1} << 40) + step;
    const Rational size = v % 3 == 0 ? Rational(0) : v % 3 == 1 ? Rational(1) : Rational(5, 2);
    const std::string payload = v % 2 == 0 ? std::string(20 + v % 5, 'p') : std::string(v < 20 ? 1 : 3, 'w');
    ctx.send_to((v + 13 * (step + 1)) % 40, payload, size, tag);  // one message to each receiver
  });
  ASSERT_TRUE(o.result);
  EXPECT_EQ(o.result->counters.messages, 3U * 40U);
}

TEST(DenseBatch, ASparseTokenCrossesEveryWorker) {
  // One message per step around a ring of 64: listed receivers, some of them from another worker.
  const auto ring = topology::make_topology("ring:64");
  const auto o = same_on_workers(*ring, [](Context& ctx) {
    const bool holds = (ctx.starting() && ctx.node() == 0) || !ctx.received().empty();
    if (holds && ctx.step() < 100) ctx.send_to((ctx.node() + 63) % 64, "token", 1, ctx.step());
  });
  ASSERT_TRUE(o.result);
  EXPECT_EQ(o.result->counters.messages, 100U);
}

TEST(DenseBatch, ViolationsAreTheLocalRunsWordForWord) {
  const StarGraph g(/*n=*/5);
  const std::vector<std::pair<std::string, SendOnly::Body>> cases = {
      {"senders of several workers to one receiver, the smallest from another worker",
       [](Context& ctx) {
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
      {"a second send in one reaction, on one worker only",
       [](Context& ctx) {
         if (ctx.starting() && ctx.node() == 110) {
           ctx.send(0, "x");
           ctx.send(1, "y");
         }
       }},
      {"violations at a later step on several workers, the smallest named",
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
    const auto o = same_on_workers(g, body);
    EXPECT_FALSE(o.result);
    EXPECT_THAT(o.error, HasSubstr("strict port-model check: step "));
  }
}

TEST(DenseBatch, TheErrorOfTheFirstWorkerWins) {
  const StarGraph g(/*n=*/5);
  const auto o = same_on_workers(g, [](Context& ctx) {
    if (ctx.step() == 1 && (ctx.node() == 17 || ctx.node() == 80 || ctx.node() == 119)) {
      throw std::runtime_error(fmt::format("node {} fails", ctx.node()));
    }
    if (ctx.starting()) ctx.send(StarGraph::port_of(5), "a");
  });
  EXPECT_EQ(o.error, "node 17 fails");
}

TEST(DenseBatch, ColumnsThatAgreeTravelOnce) {
  // 1000 messages that agree on tag, port and length: 16 bytes each and a few bytes besides;
  // one differing tag widens the tag column alone (8 bytes a message more).
  const auto encoded = [](std::uint64_t odd_tag_at) {
    DenseBatch b;
    for (std::uint32_t i = 0; i < 1000; ++i) b.add(i, i + 7, 3, i == odd_tag_at ? 9 : 4, 1, std::string("ab"));
    std::string out;
    b.move_to(out);
    EXPECT_EQ(b.count(), 0U);
    return out;
  };
  const auto narrow = encoded(~std::uint64_t{0});
  const auto wide = encoded(500);
  EXPECT_LT(narrow.size(), 16U * 1000 + 64);
  EXPECT_EQ(wide.size(), narrow.size() + 8 * 1000 - 8);
  DenseBatchReader r(wide);
  DenseBatchReader::Message m;
  for (std::uint32_t i = 0; i < 1000; ++i) {
    ASSERT_TRUE(r.next(m));
    EXPECT_EQ(m.to, i);
    EXPECT_EQ(m.from, i + 7);
    EXPECT_EQ(m.port, 3U);
    EXPECT_EQ(m.tag, i == 500 ? 9U : 4U);
    EXPECT_EQ(m.payload, "ab");
    EXPECT_EQ(m.size, 1);
  }
  EXPECT_FALSE(r.next(m));
}

TEST(DenseBatch, BatchesOneAfterAnotherReadBackInOrder) {
  std::string out;
  DenseBatch b;
  b.add(1, 2, 0, 0, Rational(3, 4), std::string(30, 'L'));
  b.move_to(out);
  b.move_to(out);  // an empty batch
  b.add(5, 6, 1, 2, 1, "s");
  b.move_to(out);
  DenseBatchReader r(out);
  DenseBatchReader::Message m;
  ASSERT_TRUE(r.next(m));
  EXPECT_EQ(m.payload, std::string(30, 'L'));
  EXPECT_EQ(m.size, Rational(3, 4));
  ASSERT_TRUE(r.next(m));
  EXPECT_EQ(std::pair(m.to, m.from), std::pair(5U, 6U));
  EXPECT_EQ(m.payload, "s");
  EXPECT_FALSE(r.next(m));
}

TEST(DenseBatch, RefusesWhatNoWorkerWrites) {
  std::string good;
  DenseBatch b;
  b.add(1, 2, 0, 0, 1, std::string(12, 'x'));
  b.move_to(good);
  const auto read_all = [](const std::string& bytes) {
    DenseBatchReader r(bytes);
    DenseBatchReader::Message m;
    while (r.next(m)) {
    }
  };
  EXPECT_NO_THROW(read_all(good));
  std::string truncated = good.substr(0, good.size() - 3);
  EXPECT_THROW(read_all(truncated), TransportError);
  std::string huge_count = good;
  huge_count[7] = '\x7f';  // a count of about 2^63 messages
  EXPECT_THROW(read_all(huge_count), TransportError);
  // The list of long payloads emptied (its count, then index, length and 12 bytes, at the end).
  constexpr std::size_t LIST = 8 + 8 + 8 + 12;
  std::string no_long = good.substr(0, good.size() - LIST) + std::string(8, '\0');
  EXPECT_THROW(read_all(no_long), TransportError);
}

}  // namespace
}  // namespace starnet::emulator
