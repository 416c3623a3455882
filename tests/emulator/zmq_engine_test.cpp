// The zmq engine has the local engine's semantics: same traces for any worker count, same
// errors, and a failing worker never leaves the others waiting.
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/topology/error.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

namespace starnet::emulator {
namespace {

using ::testing::HasSubstr;
using topology::StarGraph;

class Lambda final : public NodeProgram {
 public:
  explicit Lambda(std::function<void(Context&)> f) : f_(std::move(f)) {}
  void react(Context& ctx) override { f_(ctx); }

 private:
  std::function<void(Context&)> f_;
};

template <class Time>
std::vector<std::string> lines(const RunResult<Time>& r, const topology::Topology& g) {
  std::vector<std::string> out;
  for (const auto& e : r.trace) out.push_back(to_json_line(e, g));
  return out;
}

// Every node sends to a pseudo-random neighbour whenever it has a free port, 3 times, and
// computes on every receipt: contention, arbitration queues and overlapping computations.
void gossip(Context& ctx) {
  const auto v = ctx.node();
  const auto round = ctx.starting() ? 0 : ctx.completed().size() + ctx.received().size();
  for (const auto& m : ctx.received()) ctx.compute(/*work=*/m.size, m.from);
  if (ctx.starting() || (ctx.step() < 6 && round % 2 == 1)) {
    const auto port = static_cast<Port>((v * 7 + ctx.step() * 3) % ctx.topology().degree(v));
    ctx.send(port, std::to_string(v), /*size=*/Rational(1 + static_cast<std::int64_t>(v % 3), 2), v);
  }
}

TEST(ZmqEngine, SameTraceAsLocalForAnyWorkerCount) {
  const StarGraph g(/*n=*/5);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.trace = true;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  const ProgramFactory factory = [](NodeRange) { return std::make_unique<Lambda>(gossip); };
  const auto local = LocalEngine<Rational>().run(g, costs, factory, config);
  ASSERT_GT(local.trace.size(), 500U);
  for (const unsigned k : {1U, 2U, 3U, 7U}) {
    const auto zmq = run_zmq_threads<Rational>(g, costs, factory, config, k);
    EXPECT_EQ(lines(zmq, g), lines(local, g)) << " workers=" << k;
    EXPECT_EQ(zmq.makespan, local.makespan) << " workers=" << k;
    EXPECT_EQ(zmq.counters.messages, local.counters.messages) << " workers=" << k;
    EXPECT_EQ(zmq.counters.payload_bytes, local.counters.payload_bytes) << " workers=" << k;
    EXPECT_EQ(zmq.counters.event_times, local.counters.event_times) << " workers=" << k;
  }
}

TEST(ZmqEngine, DoubleTimeRunsToo) {
  const StarGraph g(/*n=*/4);
  class Costs final : public CostModel<double> {
   public:
    double transfer(NodeId from, Port, NodeId to, const Rational&) const override {
      return 0.1 + 0.01 * static_cast<double>((from * 31 + to) % 17);
    }
    double compute(NodeId v, const Rational&) const override { return 0.05 * static_cast<double>(v % 5); }
  } costs;
  RunConfig config;
  config.trace = true;
  config.checking = Checking::ARBITRATED;
  const ProgramFactory factory = [](NodeRange) { return std::make_unique<Lambda>(gossip); };
  const auto local = LocalEngine<double>().run(g, costs, factory, config);
  const auto zmq = run_zmq_threads<double>(g, costs, factory, config, 3);
  EXPECT_EQ(lines(zmq, g), lines(local, g));
}

TEST(ZmqEngine, ReportsTheSameViolationAsLocal) {
  const StarGraph g(/*n=*/4);
  const UnitCosts<Rational> costs;
  const ProgramFactory factory = [](NodeRange) {
    return std::make_unique<Lambda>([](Context& ctx) {
      // Nodes 0 and 23 (in different partitions) both break the single-port rule at step 1.
      if (ctx.step() == 1 && (ctx.node() == 0 || ctx.node() == 23)) {
        ctx.send(0, "a");
        ctx.send(1, "b");
      }
      if (ctx.starting()) ctx.sleep(1);
    });
  };
  std::string local_message;
  try {
    (void)LocalEngine<Rational>().run(g, costs, factory, {});
  } catch (const ModelViolation& e) {
    local_message = e.what();
  }
  ASSERT_THAT(local_message, HasSubstr("node 1234"));
  try {
    (void)run_zmq_threads<Rational>(g, costs, factory, {}, 3);
    FAIL() << "violation not reported";
  } catch (const ModelViolation& e) {
    EXPECT_EQ(std::string(e.what()), local_message);
  }
}

TEST(ZmqEngine, AFailingWorkerStopsTheOthers) {
  const StarGraph g(/*n=*/4);
  const UnitCosts<Rational> costs;
  const ProgramFactory factory = [](NodeRange r) {
    return std::make_unique<Lambda>([r](Context& ctx) {
      if (ctx.step() == 2 && r.begin == 0) throw std::runtime_error("program bug in the first partition");
      ctx.sleep(1);
    });
  };
  try {
    (void)run_zmq_threads<Rational>(g, costs, factory, {}, 3);
    FAIL() << "failure not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("program bug"));
  }
}

TEST(ZmqEngine, RejectsBadWorkerCounts) {
  const StarGraph g(/*n=*/3);
  const UnitCosts<Rational> costs;
  const ProgramFactory factory = [](NodeRange) { return std::make_unique<Lambda>([](Context&) {}); };
  EXPECT_THROW((void)run_zmq_threads<Rational>(g, costs, factory, {}, 0), UsageError);
  EXPECT_THROW((void)run_zmq_threads<Rational>(g, costs, factory, {}, 7), UsageError);
}

}  // namespace
}  // namespace starnet::emulator
