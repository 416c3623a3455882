// The engine's semantics on small hand-made programs: port models, strict and arbitrated
// checking, unit and timed time, zero-duration events, deadlocks, traces and counters.
#include "../core/expect_error.hpp"
#include "../topology/network_examples.hpp"

#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/network.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

namespace starnet::emulator {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using topology::StarGraph;

/// A program given as a function of the context; records what each node received.
class Script final : public NodeProgram {
 public:
  using Body = std::function<void(Context&, Script&)>;
  explicit Script(Body body) : body_(std::move(body)) {}
  void react(Context& ctx) override {
    for (const auto& d : ctx.received()) received[ctx.node()].push_back(d.payload);
    body_(ctx, *this);
  }
  std::map<NodeId, std::vector<std::string>> received;

 private:
  Body body_;
};

template <class Time = Rational>
RunResult<Time> run(const topology::Topology& g, const CostModel<Time>& costs, Script::Body body,
                    RunConfig config = {}) {
  config.trace = true;
  return LocalEngine<Time>().run(g, costs, [&](NodeRange) { return std::make_unique<Script>(body); }, config);
}

Script& script(RunResult<Rational>& r) { return static_cast<Script&>(*r.programs.front()); }

/// Three processors a, b, c, all linked both ways with the given costs; speed 2 on c.
topology::Platform triangle(Rational ab, Rational bc, Rational ac) {
  topology::Platform p("triangle", /*directed=*/false);
  const auto a = p.add_node({"a", topology::Role::PROCESSOR, 1, ""});
  const auto b = p.add_node({"b", topology::Role::PROCESSOR, 1, ""});
  const auto c = p.add_node({"c", topology::Role::PROCESSOR, 2, ""});
  p.add_link(a, b, {ab});
  p.add_link(b, c, {bc});
  p.add_link(a, c, {ac});
  return p;
}

TEST(Engine, UnitTransferTakesOneStep) {
  const StarGraph g(/*n=*/2);
  const UnitCosts<Rational> costs;
  auto r = run(g, costs, [](Context& ctx, Script&) {
    if (ctx.starting()) ctx.send(StarGraph::port_of(/*k=*/2), "from " + ctx.topology().node_name(ctx.node()));
  });
  EXPECT_EQ(r.makespan, Rational(1));
  EXPECT_EQ(r.counters.messages, 2U);
  EXPECT_EQ(r.counters.payload_bytes, 14U);
  EXPECT_EQ(r.counters.max_concurrent_sends, 1U);
  EXPECT_EQ(r.counters.max_concurrent_receives, 1U);
  EXPECT_EQ(script(r).received[0], std::vector<std::string>{"from 21"});
  EXPECT_EQ(script(r).received[1], std::vector<std::string>{"from 12"});
}

TEST(Engine, StrictRejectsSecondSendInAStepNamingStepNodeAndLink) {
  const StarGraph g(/*n=*/3);
  const UnitCosts<Rational> costs;
  try {
    (void)run(g, costs, [](Context& ctx, Script&) {
      if (ctx.starting() && ctx.node() == 0) {
        ctx.send(StarGraph::port_of(2), "x");
        ctx.send(StarGraph::port_of(3), "y");
      }
    });
    FAIL() << "second send accepted";
  } catch (const ModelViolation& e) {
    EXPECT_THAT(e.what(), HasSubstr("step 0"));
    EXPECT_THAT(e.what(), HasSubstr("node 123"));
    EXPECT_THAT(e.what(), HasSubstr("link 3"));
    EXPECT_THAT(e.what(), HasSubstr("send port is busy"));
    EXPECT_EQ(e.exit_code(), 1);
  }
}

TEST(Engine, StrictRejectsSecondReceiveInAStep) {
  // On S_3, nodes 213 (link 2) and 321 (link 3) both send to 123 at step 0.
  const StarGraph g(/*n=*/3);
  const UnitCosts<Rational> costs;
  const auto target = g.rank({1, 2, 3});
  try {
    (void)run(g, costs, [&](Context& ctx, Script&) {
      if (ctx.starting() && ctx.node() != target) {
        if (const auto port = ctx.topology().port_to(ctx.node(), target)) ctx.send(*port, "x");
      }
    });
    FAIL() << "second receive accepted";
  } catch (const ModelViolation& e) {
    EXPECT_THAT(e.what(), HasSubstr("node 123 is sent a message"));
    EXPECT_THAT(e.what(), HasSubstr("receive port is busy"));
  }
}

TEST(Engine, RejectsSendAlongMissingLink) {
  const StarGraph g(/*n=*/3);
  const UnitCosts<Rational> costs;
  const auto far = g.rank({2, 3, 1});  // at distance 2 from 123
  EXPECT_THROW((void)run(g, costs,
                         [&](Context& ctx, Script&) {
                           if (ctx.starting() && ctx.node() == 0) ctx.send_to(far, "x");
                         }),
               ModelViolation);
  EXPECT_THROW((void)run(g, costs,
                         [&](Context& ctx, Script&) {
                           if (ctx.starting() && ctx.node() == 0) ctx.send(/*port=*/7, "x");
                         }),
               ModelViolation);
}

TEST(Engine, KPortAllowsKConcurrentSends) {
  const StarGraph g(/*n=*/3);
  const UnitCosts<Rational> costs;
  RunConfig config;
  config.ports.ports = 2;
  auto r = run(
      g, costs,
      [](Context& ctx, Script&) {
        if (ctx.starting() && ctx.node() == 0) {
          ctx.send(StarGraph::port_of(2), "x");
          ctx.send(StarGraph::port_of(3), "y");
        }
      },
      config);
  EXPECT_EQ(r.counters.max_concurrent_sends, 2U);
  EXPECT_EQ(r.makespan, Rational(1));
}

TEST(Engine, HalfDuplexForbidsSendingWhileReceiving) {
  const StarGraph g(/*n=*/2);
  const UnitCosts<Rational> costs;
  RunConfig config;
  config.ports.half_duplex = true;
  const Script::Body exchange = [](Context& ctx, Script&) {
    if (ctx.starting()) ctx.send(StarGraph::port_of(2), "x");
  };
  EXPECT_THROW((void)run(g, costs, exchange, config), ModelViolation);
  config.ports.half_duplex = false;
  EXPECT_NO_THROW((void)run(g, costs, exchange, config));
}

TEST(Engine, ArbitratedReceiverServesFirstComerThenNext) {
  // b and c both send to a at time 0; a's single receive port takes b first (lower id).
  const auto p = triangle(/*ab=*/Rational(3, 2), /*bc=*/1, /*ac=*/2);
  const topology::PlatformTopology g(p);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  auto r = run(
      g, costs,
      [](Context& ctx, Script&) {
        if (ctx.starting() && ctx.node() != 0) ctx.send_to(0, ctx.topology().node_name(ctx.node()));
      },
      config);
  // b→a takes 3/2; c→a waits until 3/2 and takes 2: ends at 7/2.
  EXPECT_EQ(r.makespan, Rational(7, 2));
  EXPECT_EQ(script(r).received[0], (std::vector<std::string>{"b", "c"}));
  bool saw_request = false;
  for (const auto& e : r.trace) {
    if (e.kind == EventKind::SEND && e.node == 2) {
      EXPECT_EQ(e.time, Rational(3, 2));
    }
    saw_request = saw_request || (e.kind == EventKind::REQUEST && e.node == 2);
  }
  EXPECT_TRUE(saw_request);
}

TEST(Engine, AlphaBetaTransferTakesLatencyPlusSizeTimesCost) {
  // Hockney: a message of m units on a link of latency α and bandwidth β takes α + m/β.
  topology::Platform p("pair", /*directed=*/false);
  const auto a = p.add_node({"a", topology::Role::PROCESSOR, 1, ""});
  const auto b = p.add_node({"b", topology::Role::PROCESSOR, 1, ""});
  p.add_link(a, b, {.cost = Rational(1, 4), .dimension = 0, .latency = Rational(3, 2)});
  const topology::PlatformTopology g(p);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  for (const auto& [size, expected] : {std::pair{Rational(1), Rational(7, 4)}, std::pair{Rational(8), Rational(7, 2)},
                                       std::pair{Rational(1, 2), Rational(13, 8)}}) {
    auto r = run(
        g, costs,
        [size = size](Context& ctx, Script&) {
          if (ctx.starting() && ctx.node() == 0) ctx.send_to(1, "x", size);
        },
        config);
    EXPECT_EQ(r.makespan, expected) << size.to_string();
  }
}

TEST(Engine, PostedReceivesFixTheOrderOfArrival) {
  // a posts c then b: b is ready first (cost 1 vs 2) but waits until c's message is in.
  const auto p = triangle(/*ab=*/1, /*bc=*/1, /*ac=*/2);
  const topology::PlatformTopology g(p);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  auto r = run(
      g, costs,
      [](Context& ctx, Script&) {
        if (!ctx.starting()) return;
        if (ctx.node() == 0) {
          ctx.accept(2);
          ctx.accept(1);
        } else {
          ctx.send_to(0, ctx.topology().node_name(ctx.node()));
        }
      },
      config);
  EXPECT_EQ(script(r).received[0], (std::vector<std::string>{"c", "b"}));
  EXPECT_EQ(r.makespan, Rational(3));  // c: 0..2, then b: 2..3
}

TEST(Engine, StrictRejectsAMessageThatWasNotPosted) {
  const auto p = triangle(1, 1, 1);
  const topology::PlatformTopology g(p);
  const UnitCosts<Rational> costs;
  try {
    (void)run(g, costs, [](Context& ctx, Script&) {
      if (ctx.starting() && ctx.node() == 0) ctx.accept(2);
      if (ctx.starting() && ctx.node() == 1) ctx.send_to(0, "x");
    });
    FAIL() << "unposted receive accepted";
  } catch (const ModelViolation& e) {
    EXPECT_THAT(e.what(), HasSubstr("node a is sent a message by b"));
    EXPECT_THAT(e.what(), HasSubstr("has not posted a receive"));
  }
}

TEST(Engine, TimedComputationOverlapsTransfers) {
  // a sends 2 units to b (cost 3/2 → 3) while computing 4 tasks (speed 1 → 4); c computes 4
  // tasks at speed 2 (→ 2) twice in a row (→ 4).
  const auto p = triangle(/*ab=*/Rational(3, 2), 1, 1);
  const topology::PlatformTopology g(p);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.time = TimeMode::TIMED;
  std::map<NodeId, Rational> finished;
  auto r = run(
      g, costs,
      [&](Context& ctx, Script&) {
        if (ctx.starting() && ctx.node() == 0) {
          ctx.send_to(1, "m", /*size=*/2);
          ctx.compute(/*work=*/4);
        }
        if (ctx.starting() && ctx.node() == 2) {
          ctx.compute(4, /*tag=*/1);
          ctx.compute(4, /*tag=*/2);
        }
      },
      config);
  EXPECT_EQ(r.makespan, Rational(4));
  for (const auto& e : r.trace) {
    if (e.kind == EventKind::RECEIVE) {
      EXPECT_EQ(e.time, Rational(3));
    }
    if (e.kind == EventKind::COMPUTE_END && e.node == 2 && e.tag == 1) {
      EXPECT_EQ(e.time, Rational(2));
    }
    if (e.kind == EventKind::COMPUTE_END && e.node == 2 && e.tag == 2) {
      EXPECT_EQ(e.time, Rational(4));
    }
    if (e.kind == EventKind::COMPUTE_END && e.node == 0) {
      EXPECT_EQ(e.time, Rational(4));
    }
  }
  EXPECT_EQ(r.counters.computations, 3U);
}

TEST(Engine, ZeroDurationEventsHappenInRoundsAtTheSameTime) {
  // Free computations in unit mode: a chain of compute → send → compute at one node still
  // sends once per step, and the computations all end at the time they start.
  const StarGraph g(/*n=*/2);
  const UnitCosts<Rational> costs;
  auto r = run(g, costs, [](Context& ctx, Script&) {
    if (ctx.node() != 0) return;
    if (ctx.starting()) ctx.compute(1, /*tag=*/7);
    for (const auto& c : ctx.completed()) {
      if (c.kind == Completion::Kind::COMPUTE) ctx.send(StarGraph::port_of(2), "after compute");
    }
  });
  EXPECT_EQ(r.makespan, Rational(1));
  std::uint32_t max_round = 0;
  for (const auto& e : r.trace) {
    if (e.kind == EventKind::SEND) {
      EXPECT_EQ(e.time, Rational(0));
    }
    max_round = std::max(max_round, e.round);
  }
  EXPECT_EQ(max_round, 1U);
}

TEST(Engine, TimersWakeTheNodeUp) {
  const StarGraph g(/*n=*/1);
  const UnitCosts<Rational> costs;
  int woken = 0;
  auto r = run(g, costs, [&](Context& ctx, Script&) {
    if (ctx.starting()) ctx.sleep(Rational(5, 2), /*tag=*/3);
    for (const auto& c : ctx.completed()) woken += (c.kind == Completion::Kind::TIMER && c.tag == 3) ? 1 : 0;
  });
  EXPECT_EQ(woken, 1);
  EXPECT_EQ(r.makespan, Rational(5, 2));
}

/// Node 0 sends "x"; whoever gets it relays "y" along dimension 3; counts its reactions.
class Relay final : public NodeProgram {
 public:
  explicit Relay(bool notices) : notices_(notices) {}
  void react(Context& ctx) override {
    ++reactions;
    for (const auto& c : ctx.completed()) send_notices += c.kind == Completion::Kind::SEND ? 1 : 0;
    if (ctx.starting() && ctx.node() == 0) ctx.send(StarGraph::port_of(2), "x");
    for (const auto& m : ctx.received()) {
      if (m.payload == "x") ctx.send(StarGraph::port_of(3), "y");
    }
  }
  [[nodiscard]] bool reacts_to_sends() const override { return notices_; }
  int reactions = 0;
  int send_notices = 0;

 private:
  bool notices_;
};

TEST(Engine, AProgramThatDeclinesSendNoticesIsNotWokenForThem) {
  const StarGraph g(/*n=*/3);
  const UnitCosts<Rational> costs;
  RunConfig config;
  config.trace = true;
  std::vector<std::string> traces[2];
  for (const bool notices : {true, false}) {
    auto r = LocalEngine<Rational>().run(g, costs, [&](NodeRange) { return std::make_unique<Relay>(notices); }, config);
    const auto& relay = static_cast<const Relay&>(*r.programs.front());
    // 6 starts, 2 receipts, and the 2 senders' notices only when asked for.
    EXPECT_EQ(relay.reactions, notices ? 10 : 8);
    EXPECT_EQ(relay.send_notices, notices ? 2 : 0);
    EXPECT_EQ(r.makespan, Rational(2));
    for (const auto& e : r.trace) traces[notices ? 1 : 0].push_back(to_json_line(e, g));
  }
  EXPECT_EQ(traces[0], traces[1]);  // send_end events included: the ports are freed alike
  EXPECT_EQ(std::count_if(traces[0].begin(), traces[0].end(),
                          [](const std::string& l) { return l.find("send_end") != std::string::npos; }),
            2);
}

TEST(Engine, AReusedEngineForgetsTheReactionOfAProgramThatThrew) {
  // A program that throws leaves its reaction unfinished; the engine's next run must not hand
  // that reaction's deliveries to its first node.
  const StarGraph g(/*n=*/3);
  const UnitCosts<Rational> costs;
  const auto send_then = [](bool fail) {
    return [fail](Context& ctx, Script&) {
      if (fail && !ctx.received().empty()) throw std::runtime_error("the program gives up");
      if (ctx.starting() && ctx.node() == 0) ctx.send(StarGraph::port_of(2), "x");
    };
  };
  LocalEngine<Rational> engine;
  RunConfig config;
  config.trace = true;
  const auto on = [&](LocalEngine<Rational>& e, bool fail) {
    return e.run(g, costs, [&](NodeRange) { return std::make_unique<Script>(send_then(fail)); }, config);
  };
  EXPECT_THROW(on(engine, true), std::runtime_error);
  auto again = on(engine, false);
  auto fresh = [&] {
    LocalEngine<Rational> other;
    return on(other, false);
  }();
  EXPECT_EQ(script(again).received, script(fresh).received);
  EXPECT_EQ(script(again).received.size(), 1U);  // node 0's message, at its neighbour only
  EXPECT_EQ(again.trace.size(), fresh.trace.size());
}

TEST(Engine, HorizonStopsAnEndlessProgram) {
  const StarGraph g(/*n=*/2);
  const UnitCosts<Rational> costs;
  RunConfig config;
  config.horizon = Rational(10);
  auto r = run(
      g, costs,
      [](Context& ctx, Script&) {
        if (ctx.starting() || !ctx.received().empty()) ctx.send(StarGraph::port_of(2), "ping");
      },
      config);
  EXPECT_EQ(r.makespan, Rational(10));
  EXPECT_EQ(r.counters.messages, 20U);
}

TEST(Engine, ArbitratedHalfDuplexExchangeTakesTurnsInsteadOfDeadlocking) {
  // Both nodes send to each other: in half duplex one of them must wait. Each used to hold its
  // port while asking, so neither could receive: a deadlock at step 0.
  const StarGraph g(/*n=*/2);
  const UnitCosts<Rational> costs;
  RunConfig config;
  config.ports.half_duplex = true;
  config.checking = Checking::ARBITRATED;
  auto r = run(
      g, costs, [](Context& ctx, Script&) { if (ctx.starting()) ctx.send(StarGraph::port_of(2), "x"); }, config);
  EXPECT_EQ(r.makespan, Rational(2));
  EXPECT_EQ(r.counters.messages, 2U);
  // The lower sender id goes first; the other asks, waits, and starts when the port is free.
  std::vector<std::pair<std::uint64_t, NodeId>> sends;
  std::vector<NodeId> requests;
  for (const auto& e : r.trace) {
    if (e.kind == EventKind::SEND) sends.emplace_back(e.step, e.node);
    if (e.kind == EventKind::REQUEST) requests.push_back(e.node);
  }
  EXPECT_EQ(sends, (std::vector<std::pair<std::uint64_t, NodeId>>{{0, 0}, {1, 1}}));
  EXPECT_EQ(requests, std::vector<NodeId>{1});
}

/// Every node of ring:N sends its id to its successor and passes on what it receives, except
/// what came from its successor: an all-gather of N − 1 rounds.
void ring_all_gather(Context& ctx, Script&) {
  const NodeId n = ctx.topology().num_nodes();
  const NodeId next = (ctx.node() + 1) % n;
  if (ctx.starting()) ctx.send_to(next, std::to_string(ctx.node()));
  for (const auto& d : ctx.received()) {
    if (std::stoull(d.payload) != next) ctx.send_to(next, d.payload);
  }
}

TEST(Engine, ArbitratedHalfDuplexRingAllGatherEndsWithAMakespan) {
  // The schedule people write: each node sends and receives at every step. Half duplex lets a
  // node do one of the two, so the arbiter must take turns instead of deadlocking.
  for (const NodeId n : {NodeId{6}, NodeId{5}}) {
    const auto g = topology::make_topology("ring:" + std::to_string(n));
    const UnitCosts<Rational> costs;
    RunConfig config;
    config.ports.half_duplex = true;
    config.checking = Checking::ARBITRATED;
    auto r = run(*g, costs, ring_all_gather, config);
    EXPECT_EQ(r.counters.messages, n * (n - 1)) << " n=" << n;
    for (NodeId v = 0; v < n; ++v) EXPECT_EQ(script(r).received[v].size(), n - 1) << " n=" << n << " v=" << v;
    // Half duplex held: no node in two transfers at one step (a unit transfer lasts its step).
    std::map<std::pair<std::uint64_t, NodeId>, int> busy;
    for (const auto& e : r.trace) {
      if (e.kind != EventKind::SEND) continue;
      EXPECT_EQ(++busy[std::pair(e.step, e.node)], 1) << " n=" << n << " node " << e.node << " step " << e.step;
      EXPECT_EQ(++busy[std::pair(e.step, e.peer)], 1) << " n=" << n << " node " << e.peer << " step " << e.step;
    }
    EXPECT_EQ(r.counters.max_concurrent_sends, 1U);
    EXPECT_EQ(r.counters.max_concurrent_receives, 1U);
    // A transfer takes two of the N nodes: at most ⌊N/2⌋ at a step, N(N − 1) in all. The arbiter
    // meets that bound: 2(N − 1) steps for even N, 2N for odd N.
    EXPECT_EQ(r.makespan, Rational(static_cast<std::int64_t>(n * (n - 1) / (n / 2)))) << " n=" << n;
  }
}

TEST(Engine, ArbitratedWaitingSendHoldsNoPort) {
  // Full duplex, one port. d sends to b (cost 5, until 5); a asks at time 1 to send to b, then
  // to c. a's first send waits for b, and a sends to c meanwhile (1..2) instead of after it.
  topology::Platform p("quad", /*directed=*/false);
  for (const char* name : {"a", "b", "c", "d"}) p.add_node({name, topology::Role::PROCESSOR, 1, ""});
  p.add_link(0, 1, {Rational(1)});
  p.add_link(0, 2, {Rational(1)});
  p.add_link(3, 1, {Rational(5)});
  const topology::PlatformTopology g(p);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  auto r = run(
      g, costs,
      [](Context& ctx, Script&) {
        if (ctx.starting() && ctx.node() == 3) ctx.send_to(1, "d");
        if (ctx.starting() && ctx.node() == 0) ctx.sleep(1);
        if (!ctx.completed().empty() && ctx.completed()[0].kind == Completion::Kind::TIMER) {
          ctx.send_to(1, "a");
          ctx.send_to(2, "a");
        }
      },
      config);
  std::map<NodeId, Rational> start;
  for (const auto& e : r.trace) {
    if (e.kind == EventKind::SEND && e.node == 0) start[e.peer] = e.time;
  }
  EXPECT_EQ(start[2], Rational(1));
  EXPECT_EQ(start[1], Rational(5));
  EXPECT_EQ(r.makespan, Rational(6));
}

TEST(Engine, ArbitratedDeadlockIsReportedNotHung) {
  // a takes messages only from c, which sends nothing; b's send to a can never start.
  const auto p = triangle(/*ab=*/1, /*bc=*/1, /*ac=*/1);
  const topology::PlatformTopology g(p);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.checking = Checking::ARBITRATED;
  EXPECT_ERROR(ModelViolation,
               run(
                   g, costs,
                   [](Context& ctx, Script&) {
                     if (!ctx.starting()) return;
                     if (ctx.node() == 0) ctx.accept(2);
                     if (ctx.node() == 1) ctx.send_to(0, "b");
                   },
                   config),
               "deadlock at step 0", "node b waits to send to a", "a takes its next message only from c",
               "nothing else is left to happen");
}

TEST(Engine, APostedReceiveNoMessageMeetsIsADeadlockInBothCheckings) {
  // a posts receives from b (which sends at 1) and then from c, which never sends: the run ends
  // with a waiting for c.
  const auto p = triangle(/*ab=*/1, /*bc=*/1, /*ac=*/1);
  const topology::PlatformTopology g(p);
  const TopologyCosts<Rational> costs(g);
  for (const auto checking : {Checking::STRICT, Checking::ARBITRATED}) {
    RunConfig config;
    config.checking = checking;
    config.time = TimeMode::TIMED;
    EXPECT_ERROR(ModelViolation,
                 run(
                     g, costs,
                     [](Context& ctx, Script&) {
                       if (ctx.starting() && ctx.node() == 0) {
                         ctx.accept(1);
                         ctx.accept(2);
                       }
                       if (ctx.starting() && ctx.node() == 1) ctx.sleep(1);
                       if (!ctx.starting() && ctx.node() == 1 && !ctx.completed().empty() &&
                           ctx.completed().front().kind == Completion::Kind::TIMER) {
                         ctx.send_to(0, "b");
                       }
                     },
                     config),
                 "deadlock at step 2 (time 2)", "node a posted a receive from c that no message satisfied",
                 "nothing else is left to happen");
  }
}

TEST(Engine, ContextTimeIsTheExactEventTime) {
  // b's transfer to a costs 3/2; a then sleeps 1/3: a reacts at 0, 3/2 and 11/6.
  const auto p = triangle(/*ab=*/Rational(3, 2), 1, 1);
  const topology::PlatformTopology g(p);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.time = TimeMode::TIMED;
  std::vector<Rational> times;
  (void)run(
      g, costs,
      [&times](Context& ctx, Script&) {
        if (ctx.node() == 0) times.push_back(ctx.time());
        if (ctx.starting() && ctx.node() == 1) ctx.send_to(0, "b");
        if (ctx.node() == 0 && !ctx.received().empty()) ctx.sleep(Rational(1, 3));
      },
      config);
  EXPECT_EQ(times, (std::vector<Rational>{0, Rational(3, 2), Rational(11, 6)}));
}

TEST(Engine, StochasticTimeRunsInDoubles) {
  const StarGraph g(/*n=*/2);
  class Costs final : public CostModel<double> {
   public:
    double transfer(NodeId from, Port, NodeId, const Rational&) const override { return from == 0 ? 0.25 : 0.5; }
    double compute(NodeId, const Rational&) const override { return 0; }
  } costs;
  RunConfig config;
  config.time = TimeMode::TIMED;
  std::vector<Rational> times;  // of node 0: its start, its send's end, the arrival
  auto r = run<double>(
      g, costs,
      [&times](Context& ctx, Script&) {
        if (ctx.node() == 0) times.push_back(ctx.time());
        if (ctx.starting()) ctx.send(StarGraph::port_of(2), "x");
      },
      config);
  EXPECT_DOUBLE_EQ(r.makespan, 0.5);
  EXPECT_EQ(r.counters.event_times, 3U);
  EXPECT_EQ(times, (std::vector<Rational>{0, Rational(1, 4), Rational(1, 2)}));  // doubles, exactly
}

/// h0_0 -> h1_0 and h0_1 -> h1_1 at once: both want the one link s0->s1 (testing::dumbbell_hosts).
void across(Context& ctx, Script&) {
  if (ctx.starting() && ctx.node() < 2) ctx.send_to(ctx.node() + 2, "x");
}

TEST(Engine, StrictRefusesTwoMessagesOnOneLinkOfANetworkNamingTheLink) {
  const auto net = testing::dumbbell_hosts(/*per_switch=*/2);
  const UnitCosts<Rational> costs;
  EXPECT_ERROR(ModelViolation, (void)run(*net, costs, across), "step 0", "node h0_1", "link s0->s1",
               "carries another message");
}

TEST(Engine, ArbitratedMessagesOfANetworkTakeTheSharedLinkInTurn) {
  const auto net = testing::dumbbell_hosts(/*per_switch=*/2);
  const UnitCosts<Rational> costs;
  RunConfig config;
  config.checking = Checking::ARBITRATED;
  auto r = run(*net, costs, across, config);
  EXPECT_EQ(r.makespan, Rational(2));
  EXPECT_EQ(r.counters.messages, 2U);
  EXPECT_EQ(script(r).received[2], std::vector<std::string>{"x"});
  EXPECT_EQ(script(r).received[3], std::vector<std::string>{"x"});
  // Messages that do not share a link cross at once: h0_0 -> h0_1 and h1_0 -> h1_1 within their switches.
  auto local = run(*net, costs, [](Context& ctx, Script&) {
    if (ctx.starting() && ctx.node() % 2 == 0) ctx.send_to(ctx.node() + 1, "y");
  }, config);
  EXPECT_EQ(local.makespan, Rational(1));
}

TEST(PartitionNodes, CutsStarGraphsOnSubStarBoundaries) {
  const StarGraph g(/*n=*/5);
  const auto parts = partition_nodes(g, 3);
  ASSERT_EQ(parts.size(), 3U);
  EXPECT_EQ(parts.front().begin, 0U);
  EXPECT_EQ(parts.back().end, 120U);
  for (const auto& p : parts) EXPECT_EQ(p.begin % 24, 0U) << " a cut inside a sub-star S_4";
}

TEST(PartitionNodes, RejectsZeroAndTooManyWorkers) {
  const StarGraph g(/*n=*/3);
  EXPECT_THROW((void)partition_nodes(g, 0), UsageError);
  try {
    (void)partition_nodes(g, 7);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_THAT(e.what(), HasSubstr("workers 7: more workers than the 6 nodes"));
    ASSERT_NE(e.setting(), nullptr);
    EXPECT_EQ(e.setting()->name, "workers");
    EXPECT_EQ(e.setting()->value, "7");
    EXPECT_THAT(e.reason(), StartsWith("more workers than the 6 nodes"));
  }
}

}  // namespace
}  // namespace starnet::emulator
