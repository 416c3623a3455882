// The dense step path between zmq workers (emulator/src/dense_batch.hpp, DenseStep's worker run,
// partition_run.hpp): each step's messages for other workers' nodes travel as columns, and the
// workers' merged results are the local run's: counters, trace, what every node saw, and the
// port-model violation or error word for word, for 2, 3 and 5 workers. The star collectives over
// workers are compared in tests/algorithms/star/allreduce_test.cpp.
#include "../../emulator/src/dense_batch.hpp"
#include "../../emulator/src/dense_step.hpp"
#include "send_only_runs.hpp"

#include <starnet/core/error.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <barrier>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace starnet::emulator {
namespace {

using testing::Outcome;
using topology::StarGraph;

/// Runs @p body on one local lane and on 2, 3 and 5 zmq worker threads, the messages between
/// workers leaving in rounds of at most @p batch_messages; expects the same of everything, and
/// the dense path on the workers unless the program takes send notices (then the general core,
/// which must agree too). Returns the local outcome.
Outcome same_on_workers_in_rounds(const topology::Topology& g, const testing::SendOnly::Body& body, bool notices,
                                  std::uint64_t batch_messages) {
  Outcome local = testing::run_lanes(g, body, notices, 1);
  EXPECT_TRUE(local.dense);
  for (const unsigned workers : {2U, 3U, 5U}) {
    const Outcome zmq = testing::run_workers(g, body, notices, workers, true, batch_messages);
    EXPECT_EQ(zmq.dense, !notices) << workers << " workers";
    if (zmq.result) {
      EXPECT_EQ(zmq.programs, workers);
    }
    testing::expect_same(g, local, zmq, fmt::format("{} workers, rounds of {}", workers, batch_messages));
  }
  return local;
}

/// The same, a step's messages in one round (the default bound is far above these graphs').
Outcome same_on_workers(const topology::Topology& g, const testing::SendOnly::Body& body, bool notices) {
  return same_on_workers_in_rounds(g, body, notices, DEFAULT_BATCH_MESSAGES);
}

/// The same, a step's messages in rounds of one and of seven messages (rounds during the step,
/// as many as the busiest worker needs, the others trading empty batches meanwhile).
Outcome same_in_small_rounds(const topology::Topology& g, const testing::SendOnly::Body& body, bool notices) {
  same_on_workers_in_rounds(g, body, notices, 1);
  return same_on_workers_in_rounds(g, body, notices, 7);
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
  EXPECT_EQ(same_in_small_rounds(g, testing::failing_nodes(StarGraph::port_of(5)), false).error, "node 17 fails");
}

// The same cases with a step's messages in rounds of 1 and 7: messages from another worker reach
// receivers while this worker's own senders still react (refused in sender order all the same).
TEST(DenseBatch, RoundsWithinAStepGiveTheLocalRun) {
  testing::check_every_dimension(same_in_small_rounds, 3);
  testing::check_wide_values(same_in_small_rounds, 13);
  testing::check_token(same_in_small_rounds, 63, {false});
  testing::check_violations(same_in_small_rounds);
}

/// Two workers' exchange in memory: counts the rounds and the messages of the largest batch.
class PairExchange {
 public:
  class Side final : public Exchange<Rational> {
   public:
    Side(PairExchange& pair, std::size_t self) : pair_(pair), self_(self) {}
    void exchange(std::vector<Batch<Rational>>& out, std::vector<Batch<Rational>>& in) override {
      const auto peer = 1 - self_;
      std::uint64_t messages = 0;
      DenseBatchReader r(out[peer].requests);
      for (DenseBatchReader::Message m; r.next(m);) ++messages;
      pair_.most[self_] = std::max(pair_.most[self_], messages);
      ++pair_.rounds[self_];
      pair_.slot[self_] = std::move(out[peer]);
      pair_.meet.arrive_and_wait();
      in[peer] = std::move(pair_.slot[peer]);
      auto bytes = std::make_shared<const std::string>(std::move(in[peer].requests));
      in[peer].requests.clear();
      in[peer].received = *bytes;
      in[peer].holder = bytes;
      in[self_] = std::move(out[self_]);
      pair_.meet.arrive_and_wait();  // both have taken their batch: the slots are free again
    }

   private:
    PairExchange& pair_;
    std::size_t self_;
  };
  std::array<Batch<Rational>, 2> slot;
  std::array<std::uint64_t, 2> most{};
  std::array<std::uint64_t, 2> rounds{};
  std::barrier<> meet{2};
};

TEST(DenseBatch, AWorkersBatchesHoldAtMostTheBoundWhateverItsShare) {
  // Every node of S_6 sends along every link in turn (5 steps, 6 with the last arrivals); along
  // link 6, 3 of the 5 other sub-stars S_5 are the other worker's. In rounds of 10 messages no
  // batch holds more, and that step takes a round per 10; the workers see every message once.
  const StarGraph g(/*n=*/6);
  const std::vector<NodeRange> parts{{0, 360}, {360, 720}};
  std::array<std::uint64_t, 2> crossing{};
  for (unsigned w = 0; w < 2; ++w) {
    for (auto v = parts[w].begin; v < parts[w].end; ++v) {
      crossing[w] += parts[w].contains(g.neighbor_along(static_cast<StarGraph::vertex_descriptor>(v), 6)) ? 0 : 1;
    }
  }
  ASSERT_EQ(crossing, (std::array<std::uint64_t, 2>{216, 216}));
  constexpr std::uint64_t STEPS = 6;  // each ends in a round and the workers' conclusion
  for (const std::uint64_t bound : {std::uint64_t{10}, DEFAULT_BATCH_MESSAGES}) {
    SCOPED_TRACE(bound);
    RunConfig config;
    config.batch_messages = bound;
    PairExchange pair;
    std::array<std::unique_ptr<testing::SendOnly>, 2> programs;
    std::array<DenseStep, 2> workers;
    std::array<std::exception_ptr, 2> errors;
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < 2; ++w) {
      programs[w] = std::make_unique<testing::SendOnly>(testing::along_every_dimension(6), false);
      threads.emplace_back([&, w] {
        try {
          PairExchange::Side side(pair, w);
          workers[w].run(g, config, *programs[w], parts, w, side);
        } catch (...) {
          errors[w] = std::current_exception();
        }
      });
    }
    for (auto& t : threads) t.join();
    for (const auto& e : errors) ASSERT_FALSE(e);
    EXPECT_EQ(workers[0].counters().messages + workers[1].counters().messages, 5U * 720U);
    for (unsigned w = 0; w < 2; ++w) {
      if (bound == 10) {
        EXPECT_EQ(pair.most[w], 10U);
        EXPECT_EQ(pair.rounds[w], 2 * STEPS + crossing[w] / 10);  // 21 rounds during the step
      } else {
        EXPECT_EQ(pair.most[w], crossing[w]);
        EXPECT_EQ(pair.rounds[w], 2 * STEPS);
      }
    }
  }
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
