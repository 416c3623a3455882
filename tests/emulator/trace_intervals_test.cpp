// A trace read back as intervals (emulator/trace_intervals.hpp): equal keys pair first in, first
// out; the pairing by sorted keys agrees, pair by pair and error by error, with the plain reading
// of the rule — a queue of open sends per (sender, receiver, tag) — on random traces.
#include "../core/expect_error.hpp"

#include <starnet/core/error.hpp>
#include <starnet/emulator/trace_intervals.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace starnet::emulator {
namespace {

TEST(TimeText, ExactTimesAsFractionsStochasticOnesReadBackTheSame) {
  EXPECT_EQ(time_text(Rational(7, 2)), "7/2");
  EXPECT_EQ(time_text(Rational(7, 2), TimeText::BRIEF), "7/2");
  // An asynchronous run's exact sums of double draws: six digits where room is short, whole in files.
  const Rational long_sum(55043167721081077, 2251799813685248);
  EXPECT_EQ(time_text(long_sum, TimeText::BRIEF), "≈ 24.4441");
  EXPECT_EQ(time_text(long_sum), "55043167721081077/2251799813685248");
  const double t = 1234567.0 / 3;
  EXPECT_EQ(std::stod(time_text(t)), t);
  EXPECT_EQ(time_text(t, TimeText::BRIEF), "411522");
  // A message about an event names its time in full.
  TraceEvent<double> e;
  e.time = t;
  EXPECT_NE(describe_event(0, e).find("time " + time_text(t) + ","), std::string::npos) << describe_event(0, e);
}

TEST(TraceIntervals, PairsEqualTransfersFirstInFirstOut) {
  std::vector<TraceEvent<Rational>> trace(4);
  for (int i = 0; i < 4; ++i) {
    trace[i].time = Rational(i);
    trace[i].kind = i < 2 ? EventKind::SEND : EventKind::RECEIVE;
    trace[i].node = i < 2 ? 0 : 1;
    trace[i].peer = i < 2 ? 1 : 0;
  }
  const auto intervals = trace_intervals(trace);
  ASSERT_EQ(intervals.transfers.size(), 2U);
  EXPECT_EQ(intervals.transfers[0].end, Rational(2));
  EXPECT_EQ(intervals.transfers[1].end, Rational(3));
  EXPECT_TRUE(intervals.transfers[1].finished);
  EXPECT_EQ(intervals.makespan, Rational(3));
}

TEST(TraceIntervals, RejectsAReceiveOrComputeEndThatNeverStarted) {
  std::vector<TraceEvent<Rational>> trace(1);
  trace[0].kind = EventKind::RECEIVE;
  trace[0].node = 1;
  trace[0].step = 4;
  EXPECT_ERROR(InputError, trace_intervals(trace), "trace event 0", "step 4", "without an earlier unmatched send",
               "from node 0 to node 1");
  trace[0].kind = EventKind::COMPUTE_END;
  EXPECT_ERROR(InputError, trace_intervals(trace), "trace event 0", "compute_end", "at node 1");
}

TEST(TraceIntervals, AReceiveBeforeItsSendIsRejectedAtTheReceive) {
  std::vector<TraceEvent<Rational>> trace(3);
  trace[0].kind = EventKind::SEND;  // 0 -> 1, matched by event 1
  trace[0].peer = 1;
  trace[1].kind = EventKind::RECEIVE;
  trace[1].node = 1;
  trace[2] = trace[1];  // a second receive: its send never came
  trace[2].step = 2;
  EXPECT_ERROR(InputError, trace_intervals(trace), "trace event 2", "step 2");
}

/// The rule read plainly: a queue of open sends (computations) per key.
struct Reference {
  std::vector<std::optional<std::size_t>> transfer_end;  ///< per send, in send order: its receive's index
  std::vector<std::optional<std::size_t>> compute_end;
  std::optional<std::size_t> error;  ///< the first event without an opening one
};

Reference by_queues(const std::vector<TraceEvent<Rational>>& trace) {
  Reference out;
  std::map<std::tuple<NodeId, NodeId, std::uint64_t>, std::deque<std::size_t>> sends;
  std::map<std::pair<NodeId, std::uint64_t>, std::deque<std::size_t>> computes;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const auto& e = trace[i];
    if (e.kind == EventKind::SEND) {
      sends[{e.node, e.peer, e.tag}].push_back(out.transfer_end.size());
      out.transfer_end.emplace_back();
    } else if (e.kind == EventKind::COMPUTE) {
      computes[{e.node, e.tag}].push_back(out.compute_end.size());
      out.compute_end.emplace_back();
    } else if (e.kind == EventKind::RECEIVE || e.kind == EventKind::COMPUTE_END) {
      auto& queue = e.kind == EventKind::RECEIVE ? sends[{e.peer, e.node, e.tag}] : computes[{e.node, e.tag}];
      if (queue.empty()) {
        out.error = i;
        return out;
      }
      (e.kind == EventKind::RECEIVE ? out.transfer_end : out.compute_end)[queue.front()] = i;
      queue.pop_front();
    }
  }
  return out;
}

TEST(TraceIntervals, SortedPairingAgreesWithQueuesOnRandomTraces) {
  std::mt19937_64 random(7);
  constexpr EventKind KINDS[] = {EventKind::SEND, EventKind::RECEIVE, EventKind::COMPUTE, EventKind::COMPUTE_END,
                                 EventKind::SEND_END};
  int errors = 0;
  for (int round = 0; round < 2000; ++round) {
    std::vector<TraceEvent<Rational>> trace(random() % 24);
    for (std::size_t i = 0; i < trace.size(); ++i) {
      auto& e = trace[i];
      e.kind = KINDS[random() % std::size(KINDS)];
      e.node = static_cast<NodeId>(random() % 3);
      e.peer = static_cast<NodeId>(random() % 3);
      e.tag = random() % 2;
      e.step = i;
      e.time = Rational(static_cast<std::int64_t>(i));
    }
    const auto expected = by_queues(trace);
    if (expected.error) {
      ++errors;
      EXPECT_ERROR(InputError, trace_intervals(trace), fmt::format("trace event {} ", *expected.error));
      continue;
    }
    const auto got = trace_intervals(trace);
    ASSERT_EQ(got.transfers.size(), expected.transfer_end.size());
    for (std::size_t t = 0; t < got.transfers.size(); ++t) {
      const auto& end = expected.transfer_end[t];
      EXPECT_EQ(got.transfers[t].finished, end.has_value()) << round << " transfer " << t;
      if (end) {
        EXPECT_EQ(got.transfers[t].end_step, *end) << round << " transfer " << t;
      }
    }
    ASSERT_EQ(got.computations.size(), expected.compute_end.size());
    for (std::size_t c = 0; c < got.computations.size(); ++c) {
      const auto& end = expected.compute_end[c];
      EXPECT_EQ(got.computations[c].finished, end.has_value()) << round << " computation " << c;
      if (end) {
        EXPECT_EQ(got.computations[c].end, Rational(static_cast<std::int64_t>(*end))) << round;
      }
    }
  }
  EXPECT_GT(errors, 100);  // both sides of the rule were exercised
  EXPECT_LT(errors, 1900);
}

}  // namespace
}  // namespace starnet::emulator
