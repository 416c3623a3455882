#pragma once
// Send-only programs given as functions of the context, run on the local engine's general path,
// on its dense step path with one or several lanes, and on zmq worker threads, and compared event
// for event: the tests of the dense path (dense_step_test.cpp), of its lanes
// (dense_lanes_test.cpp) and of its batches between workers (dense_batch_test.cpp).

#include <starnet/core/error.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <typeinfo>
#include <vector>

namespace starnet::emulator::testing {

/// A send-only program given as a function of the context, one object per lane; logs what each
/// node sees.
class SendOnly final : public NodeProgram {
 public:
  using Body = std::function<void(Context&)>;
  /// @p dense: set when a reaction runs on the dense step path (shared by every lane's program).
  SendOnly(Body body, bool notices, std::shared_ptr<std::atomic<bool>> dense = nullptr)
      : body_(std::move(body)), notices_(notices), dense_(std::move(dense)) {}
  void react(Context& ctx) override {
    // The dense path's context is a class of DenseStep's own (a test's only way to tell the paths).
    if (dense_ && std::string_view(typeid(ctx).name()).find("DenseStep") != std::string_view::npos) *dense_ = true;
    auto& log = seen[ctx.node()];
    log.push_back("step " + std::to_string(ctx.step()) + (ctx.starting() ? " starting" : ""));
    for (const auto& d : ctx.received()) {
      log.push_back(fmt::format("from {} port {} tag {} size {} payload {}", d.from, d.port, d.tag, d.size.to_string(),
                                d.payload));
    }
    for (const auto& c : ctx.completed()) log.push_back(fmt::format("sent to {} tag {}", c.peer, c.tag));
    log.push_back("free " + std::to_string(ctx.free_send_ports()));
    body_(ctx);
  }
  [[nodiscard]] bool sends_only() const override { return true; }
  [[nodiscard]] bool reacts_to_sends() const override { return notices_; }
  [[nodiscard]] std::string report() const override { return std::to_string(seen.size()); }
  std::map<NodeId, std::vector<std::string>> seen;

 private:
  Body body_;
  bool notices_;
  std::shared_ptr<std::atomic<bool>> dense_;
};

struct Outcome {
  std::optional<RunResult<Rational>> result;
  std::string error;  // a port-model violation or another error, as the run threw it
  std::map<NodeId, std::vector<std::string>> seen;  // over every lane's program
  std::size_t programs = 0;
  bool dense = false;  // some reaction ran on the dense step path
};

/// The general path; a lane count of 0 in same_on_lanes().
inline constexpr unsigned GENERAL_PATH = 0;

inline Outcome run_on(Engine<Rational>&& engine, const topology::Topology& g, const SendOnly::Body& body,
                      bool notices, const RunConfig& config) {
  const UnitCosts<Rational> costs;
  Outcome o;
  const auto dense = std::make_shared<std::atomic<bool>>(false);
  try {
    o.result =
        engine.run(g, costs, [&](NodeRange) { return std::make_unique<SendOnly>(body, notices, dense); }, config);
    o.programs = o.result->programs.size();
    for (const auto& p : o.result->programs) {
      const auto& program = dynamic_cast<const SendOnly&>(*p);
      o.seen.insert(program.seen.begin(), program.seen.end());
    }
  } catch (const Error& e) {
    o.error = e.what();
  } catch (const std::runtime_error& e) {
    o.error = e.what();
  }
  o.dense = *dense;
  return o;
}

/// Runs @p body on the dense path with @p lanes lanes (one per node at most), or on the general
/// path (GENERAL_PATH).
inline Outcome run_lanes(const topology::Topology& g, const SendOnly::Body& body, bool notices, unsigned lanes) {
  RunConfig config;
  config.trace = true;
  config.dense_steps = lanes != GENERAL_PATH;
  config.threads = std::max(1U, lanes);
  config.nodes_per_thread = 1;
  config.lanes_per_thread = 1;
  return run_on(LocalEngine<Rational>(), g, body, notices, config);
}

/// Runs @p body on @p workers zmq worker threads, on the dense path unless @p dense_steps is false,
/// the messages between workers leaving in rounds of at most @p batch_messages.
inline Outcome run_workers(const topology::Topology& g, const SendOnly::Body& body, bool notices, unsigned workers,
                           bool dense_steps = true, std::uint64_t batch_messages = DEFAULT_BATCH_MESSAGES) {
  RunConfig config;
  config.trace = true;
  config.dense_steps = dense_steps;
  config.batch_messages = batch_messages;
  return run_on(ZmqThreadsEngine<Rational>(workers), g, body, notices, config);
}

inline void expect_same(const topology::Topology& g, const Outcome& a, const Outcome& b, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.error, b.error);
  ASSERT_EQ(a.result.has_value(), b.result.has_value());
  if (!a.result) return;
  const auto& x = *a.result;
  const auto& y = *b.result;
  EXPECT_EQ(x.makespan, y.makespan);
  EXPECT_EQ(x.counters.event_times, y.counters.event_times);
  EXPECT_EQ(x.counters.messages, y.counters.messages);
  EXPECT_EQ(x.counters.payload_bytes, y.counters.payload_bytes);
  EXPECT_EQ(x.counters.max_concurrent_sends, y.counters.max_concurrent_sends);
  EXPECT_EQ(x.counters.max_concurrent_receives, y.counters.max_concurrent_receives);
  EXPECT_EQ(a.seen, b.seen);
  ASSERT_EQ(x.trace.size(), y.trace.size());
  for (std::size_t i = 0; i < x.trace.size(); ++i) {
    ASSERT_EQ(to_json_line(x.trace[i], g), to_json_line(y.trace[i], g)) << " event " << i;
    ASSERT_EQ(x.trace[i].round, y.trace[i].round) << " event " << i;
  }
}

/// Runs @p body on one lane, on the general path and on each of @p lanes; expects the same of
/// everything. Returns the one-lane outcome.
inline Outcome same_on_lanes(const topology::Topology& g, const SendOnly::Body& body, bool notices,
                             std::initializer_list<unsigned> lanes) {
  Outcome one = run_lanes(g, body, notices, 1);
  EXPECT_EQ(one.error.empty(), one.result.has_value());
  EXPECT_TRUE(one.dense);
  if (one.result) {
    EXPECT_EQ(one.programs, 1U);
  }
  const Outcome general = run_lanes(g, body, notices, GENERAL_PATH);
  EXPECT_FALSE(general.dense);
  expect_same(g, one, general, "the general path");
  for (const unsigned count : lanes) {
    const Outcome several = run_lanes(g, body, notices, count);
    if (several.result) {
      EXPECT_EQ(several.programs, std::min<std::size_t>(count, g.num_nodes()));
    }
    expect_same(g, one, several, fmt::format("{} lanes", count));
  }
  return one;
}

/// Every node of S_n sends along link k at step k − 2, payloads of 0 to 8 bytes, tags that differ
/// per node (a wide tag column); the steps along high links cross lanes and workers.
inline SendOnly::Body along_every_dimension(int n) {
  return [n](Context& ctx) {
    const auto step = ctx.step();
    if (step + 2 > static_cast<std::uint64_t>(n)) return;
    const auto v = ctx.node();
    ctx.send(topology::StarGraph::port_of(static_cast<int>(step) + 2),
             std::string(v % 9, static_cast<char>('a' + step)), 1, v * 1000 + step);
  };
}

/// On complete:40, three steps of payloads over 8 bytes, tags of 2^32 and more, sizes other than
/// 1 and 0, ports that differ, node ranges whose values each agree but differ from range to range
/// (a column wide only once merged): node v sends to v + @p shift·(step + 1) mod 40, one message
/// to each receiver.
inline SendOnly::Body wide_values(NodeId shift) {
  return [shift](Context& ctx) {
    if (ctx.step() > 2) return;
    const auto v = ctx.node();
    const auto step = ctx.step();
    const std::uint64_t tag = v < 20 ? 5 : (std::uint64_t{1} << 40) + step;
    const Rational size = v % 3 == 0 ? Rational(0) : v % 3 == 1 ? Rational(1) : Rational(5, 2);
    const std::string payload = v % 2 == 0 ? std::string(20 + v % 5, 'p') : std::string(v < 20 ? 1 : 3, 'w');
    ctx.send_to((v + shift * (step + 1)) % 40, payload, size, tag);
  };
}

/// One message a step for 100 steps around a ring of @p nodes, each hop @p hop nodes on (a
/// sparse step: the receivers are listed).
inline SendOnly::Body token_around(NodeId nodes, NodeId hop) {
  return [nodes, hop](Context& ctx) {
    const bool holds = (ctx.starting() && ctx.node() == 0) || !ctx.received().empty();
    if (holds && ctx.step() < 100) ctx.send_to((ctx.node() + hop) % nodes, "token", 1, ctx.step());
  };
}

/// Programs on S_5 that break the port model, each a different way.
inline std::vector<std::pair<std::string, SendOnly::Body>> violations_on_star5() {
  using topology::StarGraph;
  return {
      {"a second send in one reaction",
       [](Context& ctx) {
         if (ctx.starting() && ctx.node() % 37 == 5) {
           ctx.send(0, "x");
           ctx.send(1, "y");
         }
       }},
      {"senders of several lanes or workers to one receiver",
       [](Context& ctx) {
         // Every neighbour of nodes 1 and 100 sends to it: along link 5 from another range.
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
}

/// On S_5, nodes 17, 80 and 119 throw at step 1, after every node sent through @p port.
inline SendOnly::Body failing_nodes(Port port) {
  return [port](Context& ctx) {
    if (ctx.step() == 1 && (ctx.node() == 17 || ctx.node() == 80 || ctx.node() == 119)) {
      throw std::runtime_error(fmt::format("node {} fails", ctx.node()));
    }
    if (ctx.starting()) ctx.send(port, "a");
  };
}

/// Runs a body on one path and on others and expects the same of everything (same_on_lanes, or a
/// test's own comparison); returns the first path's outcome.
using Compare = std::function<Outcome(const topology::Topology&, const SendOnly::Body&, bool notices)>;

/// along_every_dimension on S_n for n in @p first_n..6, with and without send notices.
inline void check_every_dimension(const Compare& same, int first_n) {
  for (int n = first_n; n <= 6; ++n) {
    const topology::StarGraph g(n);
    for (const bool notices : {false, true}) {
      SCOPED_TRACE(fmt::format("n={} notices={}", n, notices));
      const auto o = same(g, along_every_dimension(n), notices);
      ASSERT_TRUE(o.result);
      EXPECT_EQ(o.result->counters.messages, static_cast<std::uint64_t>(n - 1) * topology::StarGraph::factorial(n));
    }
  }
}

/// wide_values(@p shift) on complete:40.
inline void check_wide_values(const Compare& same, NodeId shift) {
  const auto big = topology::make_topology("complete:40");
  const auto o = same(*big, wide_values(shift), false);
  ASSERT_TRUE(o.result);
  EXPECT_EQ(o.result->counters.messages, 3U * 40U);
}

/// token_around(64, @p hop) on ring:64, with send notices as given.
inline void check_token(const Compare& same, NodeId hop, std::initializer_list<bool> notices) {
  const auto ring = topology::make_topology("ring:64");
  for (const bool with : notices) {
    const auto o = same(*ring, token_around(64, hop), with);
    ASSERT_TRUE(o.result);
    EXPECT_EQ(o.result->counters.messages, 100U);
  }
}

/// Every case of violations_on_star5 ends in a port-model violation.
inline void check_violations(const Compare& same) {
  const topology::StarGraph g(/*n=*/5);
  for (const auto& [what, body] : violations_on_star5()) {
    SCOPED_TRACE(what);
    const auto o = same(g, body, false);
    EXPECT_FALSE(o.result);
    EXPECT_NE(o.error.find("strict port-model check: step "), std::string::npos) << o.error;
  }
}

}  // namespace starnet::emulator::testing
