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
#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace starnet::emulator {
namespace {

using testing::Outcome;
using topology::StarGraph;

/// Runs @p body on one local lane and on 2, 3 and 5 zmq worker threads; expects the same of
/// everything, and the dense path on the workers unless the program takes send notices (then the
/// general core, which must agree too). Returns the local outcome.
Outcome same_on_workers(const topology::Topology& g, const testing::SendOnly::Body& body, bool notices) {
  Outcome local = testing::run_lanes(g, body, notices, 1);
  EXPECT_TRUE(local.dense);
  for (const unsigned workers : {2U, 3U, 5U}) {
    const Outcome zmq = testing::run_workers(g, body, notices, workers);
    EXPECT_EQ(zmq.dense, !notices) << workers << " workers";
    if (zmq.result) {
      EXPECT_EQ(zmq.programs, workers);
    }
    testing::expect_same(g, local, zmq, fmt::format("{} workers", workers));
  }
  return local;
}

// Along every dimension (the steps along the highest links cross workers; with send notices the
// workers take the general core, which must agree too), wide values (a shift of 13: most
// messages to another worker, batches that each agree but differ from worker to worker), a
// token going backwards (listed receivers reached from another worker), violations (among them
// senders of several workers to one receiver, the smallest on another worker).
TEST(DenseBatch, ExchangesAlongEveryDimensionAsTheLocalRun) { testing::check_every_dimension(same_on_workers, 3); }
TEST(DenseBatch, WideValuesCrossWorkersWhole) { testing::check_wide_values(same_on_workers, 13); }
TEST(DenseBatch, ASparseTokenCrossesEveryWorker) { testing::check_token(same_on_workers, 63, {false}); }
TEST(DenseBatch, ViolationsAreTheLocalRunsWordForWord) { testing::check_violations(same_on_workers); }

TEST(DenseBatch, TheErrorOfTheFirstWorkerWins) {
  const StarGraph g(/*n=*/5);
  EXPECT_EQ(same_on_workers(g, testing::failing_nodes(StarGraph::port_of(5)), false).error, "node 17 fails");
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
