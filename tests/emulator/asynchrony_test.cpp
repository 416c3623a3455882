// Asynchronous runs (emulator/asynchrony.hpp): transit times after the transfer, FIFO and
// non-FIFO channels, loss, crashes, failed links, the order of reactions, and the same run under
// the local and zmq engines.
#include <starnet/emulator/asynchrony.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

namespace starnet::emulator {
namespace {

/// A transit time by payload: "slow" 5, "fast" 1, anything else 1/2.
class ByPayload final : public DelayLaw {
 public:
  [[nodiscard]] Rational delay(const Transit& m) const override {
    if (m.payload == "slow") return 5;
    if (m.payload == "fast") return 1;
    return Rational(1, 2);
  }
};

/// A transit time of 1 + the message's key modulo 4: draws that depend on the seed.
class FromKey final : public DelayLaw {
 public:
  [[nodiscard]] Rational delay(const Transit& m) const override {
    return 1 + static_cast<std::int64_t>(m.key % 4);
  }
};

/// A program given as a function of the context; records what each node received, in order.
class Script final : public NodeProgram {
 public:
  using Body = std::function<void(Context&)>;
  explicit Script(Body body) : body_(std::move(body)) {}
  void react(Context& ctx) override {
    for (const auto& d : ctx.received()) received[ctx.node()].push_back(d.payload);
    reactions.push_back(ctx.node());
    body_(ctx);
  }
  std::map<NodeId, std::vector<std::string>> received;
  std::vector<NodeId> reactions;

 private:
  Body body_;
};

RunConfig asynchronous(const Asynchrony& a, Checking checking = Checking::ARBITRATED) {
  RunConfig config;
  config.trace = true;
  config.checking = checking;
  config.asynchrony = std::make_shared<Asynchrony>(a);
  return config;
}

RunResult<Rational> run(const topology::Topology& g, Script::Body body, const RunConfig& config) {
  const UnitCosts<Rational> unit;
  return LocalEngine<Rational>().run(g, unit, [&](NodeRange) { return std::make_unique<Script>(body); }, config);
}

Script& script(RunResult<Rational>& r) { return static_cast<Script&>(*r.programs.front()); }

std::size_t count(const RunResult<Rational>& r, EventKind kind) {
  return static_cast<std::size_t>(
      std::count_if(r.trace.begin(), r.trace.end(), [&](const auto& e) { return e.kind == kind; }));
}

/// Node 0 sends "slow" then "fast" to node 1 along port 0 (one port: the second waits its turn).
void slow_then_fast(Context& ctx) {
  if (ctx.starting() && ctx.node() == 0) {
    ctx.send(0, "slow");
    ctx.send(0, "fast");
  }
}

TEST(Asynchrony, DrawsArePureFunctionsOfSeedStreamNodeAndNumber) {
  EXPECT_EQ(draw_bits(7, DrawStream::DELAY, 3, 9), draw_bits(7, DrawStream::DELAY, 3, 9));
  EXPECT_NE(draw_bits(7, DrawStream::DELAY, 3, 9), draw_bits(8, DrawStream::DELAY, 3, 9));
  EXPECT_NE(draw_bits(7, DrawStream::DELAY, 3, 9), draw_bits(7, DrawStream::LOSS, 3, 9));
  EXPECT_NE(draw_bits(7, DrawStream::DELAY, 3, 9), draw_bits(7, DrawStream::DELAY, 4, 9));
  EXPECT_NE(draw_bits(7, DrawStream::DELAY, 3, 9), draw_bits(7, DrawStream::DELAY, 3, 10));
  EXPECT_EQ(unit_interval(0), 0.0);
  EXPECT_LT(unit_interval(~std::uint64_t{0}), 1.0);
  EXPECT_GT(unit_interval(~std::uint64_t{0}), 0.999999);
}

TEST(Asynchrony, AMessageArrivesItsTransitTimeAfterItsTransferWhichHeldThePortAlone) {
  const auto owned = topology::make_topology("ring:4");
  const auto& ring = *owned;
  Asynchrony a;
  a.delays = std::make_shared<ByPayload>();
  a.fifo = false;
  auto r = run(ring, slow_then_fast, asynchronous(a));
  // slow: transfer [0, 1), arrives 1 + 5 = 6; fast: waits for the port, transfer [1, 2), arrives 3.
  EXPECT_EQ(r.makespan, Rational(6));
  EXPECT_EQ(script(r).received.at(1), (std::vector<std::string>{"fast", "slow"}));  // overtaken
  std::map<std::string, Rational> arrival;
  std::map<std::string, Rational> send_end;
  for (const auto& e : r.trace) {
    if (e.kind == EventKind::RECEIVE) arrival[e.payload] = e.time;
    if (e.kind == EventKind::SEND_END) send_end[e.tag == 0 && send_end.empty() ? "slow" : "fast"] = e.time;
  }
  EXPECT_EQ(arrival.at("slow"), Rational(6));
  EXPECT_EQ(arrival.at("fast"), Rational(3));
  EXPECT_EQ(send_end.at("slow"), Rational(1));  // the port is free again when the transfer ends
  EXPECT_EQ(send_end.at("fast"), Rational(2));
  EXPECT_EQ(r.counters.messages, 2U);
}

TEST(Asynchrony, AFifoChannelKeepsTheOrderSent) {
  const auto owned = topology::make_topology("ring:4");
  const auto& ring = *owned;
  Asynchrony a;
  a.delays = std::make_shared<ByPayload>();
  auto r = run(ring, slow_then_fast, asynchronous(a));
  EXPECT_EQ(script(r).received.at(1), (std::vector<std::string>{"slow", "fast"}));
  EXPECT_EQ(r.makespan, Rational(6));  // fast waits for slow: both arrive at 6
}

TEST(Asynchrony, TransitTimesAreDrawnFromTheSeed) {
  const auto owned = topology::make_topology("ring:8");
  const auto& ring = *owned;
  const auto relay = [](Context& ctx) {
    if (ctx.starting() && ctx.node() == 0) ctx.send(0, "token");
    if (!ctx.received().empty() && ctx.node() != 0) ctx.send(0, "token");
  };
  Asynchrony a;
  a.delays = std::make_shared<FromKey>();
  a.seed = 1;
  const auto first = run(ring, relay, asynchronous(a)).makespan;
  EXPECT_EQ(run(ring, relay, asynchronous(a)).makespan, first);
  std::vector<Rational> makespans;
  makespans.push_back(first);
  for (std::uint64_t seed = 2; seed <= 4; ++seed) {
    a.seed = seed;
    makespans.push_back(run(ring, relay, asynchronous(a)).makespan);
  }
  std::sort(makespans.begin(), makespans.end());
  EXPECT_NE(makespans.front(), makespans.back());
  for (const auto& m : makespans) {  // 8 transfers of 1, each then 1 to 4 in transit
    EXPECT_GE(m, Rational(16));
    EXPECT_LE(m, Rational(40));
  }
}

TEST(Asynchrony, ALostMessageTakesItsTransferAndNeverArrives) {
  const auto owned = topology::make_topology("ring:4");
  const auto& ring = *owned;
  Asynchrony a;
  a.loss = 1;
  auto r = run(ring, slow_then_fast, asynchronous(a));
  EXPECT_EQ(r.counters.messages, 0U);
  EXPECT_EQ(r.counters.lost, 2U);
  EXPECT_EQ(count(r, EventKind::LOST), 2U);
  EXPECT_EQ(count(r, EventKind::SEND_END), 2U);
  EXPECT_FALSE(script(r).received.contains(1));
  a.loss = 0.5;
  a.seed = 3;
  std::uint64_t lost = 0;
  for (NodeId trials = 0; trials < 20; ++trials) {
    a.seed = trials;
    lost += run(ring, slow_then_fast, asynchronous(a)).counters.lost;
  }
  EXPECT_GT(lost, 5U);  // of 40 messages, about 20
  EXPECT_LT(lost, 35U);
}

TEST(Asynchrony, ACrashedNodeReactsNoMoreAndWhatItHadInFlightIsLost) {
  const auto owned = topology::make_topology("ring:4");
  const auto& ring = *owned;
  // Node 0 sends to 1 (port 0) at 0 and to 3 (port 1) at once; 1 forwards on.
  const auto body = [](Context& ctx) {
    if (ctx.starting() && ctx.node() == 0) {
      ctx.send(0, "to 1");
      ctx.send(1, "to 3");
    }
    if (!ctx.received().empty() && ctx.node() == 1) ctx.send(0, "on");
  };
  Asynchrony a;
  a.delays = std::make_shared<ByPayload>();  // 1/2 in transit
  a.crashes = {{1, Rational(1)}};            // node 1 crashes as 0's first message is in transit
  auto config = asynchronous(a);
  config.ports.ports = 2;
  auto r = run(ring, body, config);
  EXPECT_EQ(r.counters.messages, 1U);  // only "to 3"
  EXPECT_EQ(r.counters.lost, 1U);
  EXPECT_EQ(std::count(script(r).reactions.begin(), script(r).reactions.end(), NodeId{1}), 1);  // its start only
  EXPECT_EQ(count(r, EventKind::CRASH), 1U);
  const auto crash = std::find_if(r.trace.begin(), r.trace.end(), [](const auto& e) { return e.kind == EventKind::CRASH; });
  EXPECT_EQ(crash->time, Rational(1));
  EXPECT_EQ(crash->node, 1U);
}

TEST(Asynchrony, AFailedLinkLosesWhatWouldArriveOverItInBothDirections) {
  const auto owned = topology::make_topology("ring:4");
  const auto& ring = *owned;
  const auto both = [](Context& ctx) {
    if (ctx.starting() && (ctx.node() == 0 || ctx.node() == 1)) ctx.send_to(ctx.node() == 0 ? 1 : 0, "x");
    if (ctx.starting() && ctx.node() == 2) ctx.send_to(3, "x");
  };
  Asynchrony a;
  a.failed_links = {{1, 0, Rational(0)}};
  auto r = run(ring, both, asynchronous(a));
  EXPECT_EQ(r.counters.lost, 2U);
  EXPECT_EQ(r.counters.messages, 1U);
  EXPECT_EQ(count(r, EventKind::LINK_DOWN), 1U);
  a.failed_links = {{0, 1, Rational(2)}};  // fails after the messages arrived at 1
  EXPECT_EQ(run(ring, both, asynchronous(a)).counters.lost, 0U);
}

TEST(Asynchrony, ARandomOrderOfReactionsIsDrawnFromTheSeed) {
  const auto owned = topology::make_topology("ring:16");
  const auto& ring = *owned;
  const auto nothing = [](Context&) {};
  Asynchrony a;
  a.random_order = true;
  auto r = run(ring, nothing, asynchronous(a));
  const auto order = script(r).reactions;
  ASSERT_EQ(order.size(), 16U);
  EXPECT_FALSE(std::is_sorted(order.begin(), order.end()));
  auto again = run(ring, nothing, asynchronous(a));
  EXPECT_EQ(script(again).reactions, order);
  a.seed = 2;
  auto other = run(ring, nothing, asynchronous(a));
  EXPECT_NE(script(other).reactions, order);
}

TEST(Asynchrony, EachNodeHasItsOwnSeed) {
  const auto owned = topology::make_topology("ring:4");
  const auto& ring = *owned;
  std::vector<std::uint64_t> seeds(4);
  Asynchrony a;
  a.seed = 9;
  (void)run(ring, [&](Context& ctx) { seeds[ctx.node()] = ctx.seed(); }, asynchronous(a));
  EXPECT_EQ(seeds[2], draw_bits(9, DrawStream::NODE_SEED, 2, 0));
  EXPECT_NE(seeds[1], seeds[2]);
}

/// A flood: node 0 sends on every port, every other node does on its first message.
class Flood final : public NodeProgram {
 public:
  void react(Context& ctx) override {
    const bool start = ctx.starting() && ctx.node() == 0;
    if (!start && (ctx.received().empty() || !got_.insert(ctx.node()).second)) return;
    for (topology::Port p = 0; p < ctx.topology().degree(ctx.node()); ++p) ctx.send(p, "news");
  }

 private:
  std::set<NodeId> got_;  // of this partition's nodes
};

TEST(Asynchrony, TheZmqEngineRunsTheSameAsynchronousRun) {
  const auto owned = topology::make_topology("torus:4x4");
  const auto& torus = *owned;
  Asynchrony a;
  a.delays = std::make_shared<FromKey>();
  a.loss = 0.2;
  a.seed = 5;
  a.crashes = {{5, Rational(3)}};
  a.random_order = true;
  const auto config = asynchronous(a);
  const UnitCosts<Rational> unit;
  const ProgramFactory factory = [](NodeRange) { return std::make_unique<Flood>(); };
  const auto local = LocalEngine<Rational>().run(torus, unit, factory, config);
  for (const unsigned k : {2U, 3U}) {
    const auto zmq = ZmqThreadsEngine<Rational>(k).run(torus, unit, factory, config);
    EXPECT_EQ(zmq.makespan, local.makespan) << k;
    EXPECT_EQ(zmq.counters.messages, local.counters.messages) << k;
    EXPECT_EQ(zmq.counters.lost, local.counters.lost) << k;
    ASSERT_EQ(zmq.trace.size(), local.trace.size()) << k;
    for (std::size_t i = 0; i < local.trace.size(); ++i) {
      EXPECT_EQ(zmq.trace[i].key(), local.trace[i].key()) << k << " event " << i;
      EXPECT_EQ(zmq.trace[i].time, local.trace[i].time) << k << " event " << i;
    }
  }
  EXPECT_GT(local.counters.lost, 0U);
}

}  // namespace
}  // namespace starnet::emulator
