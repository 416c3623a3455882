// A user's own node programs as a library call (api/emulate.hpp): the run, its settings checked and
// named, and a violation, deadlock or step limit as a result.
#include "../core/expect_error.hpp"

#include <starnet/api/delays.hpp>
#include <starnet/api/emulate.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace starnet::api {
namespace {

using emulator::Context;
using emulator::NodeProgram;
using emulator::NodeRange;
using starnet::testing::setting_of;

/// Recursive doubling by sums on a hypercube: at step k every node trades its sum along port k.
class Doubling final : public NodeProgram {
 public:
  explicit Doubling(NodeRange range) : range_(range), total_(range.size()) {
    for (auto v = range.begin; v < range.end; ++v) total_[v - range.begin] = v + 1;
  }
  void react(Context& ctx) override {
    auto& t = total_[ctx.node() - range_.begin];
    for (const auto& m : ctx.received()) t += std::stoull(m.payload);
    if (ctx.step() < ctx.topology().degree(ctx.node())) {
      ctx.send(static_cast<topology::Port>(ctx.step()), std::to_string(t), 1, ctx.step());
    }
  }
  NodeRange range_;
  std::vector<std::uint64_t> total_;
};

/// Node 0 sends a message of size 2 to node 1, which passes it on to node 2.
class Relay final : public NodeProgram {
 public:
  void react(Context& ctx) override {
    if (ctx.starting() && ctx.node() == 0) ctx.send_to(1, "m", 2);
    if (!ctx.received().empty() && ctx.node() == 1) ctx.send_to(2, "m", 2);
  }
};

/// Two nodes passing a ball back and forth for ever.
class PingPong final : public NodeProgram {
 public:
  void react(Context& ctx) override {
    if ((ctx.starting() && ctx.node() == 0) || !ctx.received().empty()) ctx.send(0, "ball");
  }
};

template <class P>
EmulateRequest request_of(const std::string& topology) {
  return EmulateRequest(topology, [](NodeRange range) -> std::unique_ptr<NodeProgram> {
    if constexpr (std::is_constructible_v<P, NodeRange>) {
      return std::make_unique<P>(range);
    } else {
      return std::make_unique<P>();
    }
  });
}

TEST(Emulate, RecursiveDoublingGivesEveryNodeTheSumInDSteps) {
  for (const auto& engine : {"local", "zmq"}) {
    auto request = request_of<Doubling>("hypercube:5");
    request.engine.kind = parse_engine(engine);
    request.engine.workers = engine == std::string("zmq") ? 3 : 1;
    const auto r = emulate(request);
    EXPECT_TRUE(r.verified) << engine << ": " << r.problem;
    EXPECT_EQ(r.steps, 5U) << engine;
    EXPECT_EQ(r.makespan, Rational(5)) << engine;
    EXPECT_EQ(r.messages, 5U * 32U) << engine;
    std::uint64_t nodes = 0;
    for (const auto& p : r.run.programs) {
      const auto& d = dynamic_cast<const Doubling&>(*p);
      for (const auto t : d.total_) EXPECT_EQ(t, 32U * 33U / 2U) << engine;
      nodes += d.total_.size();
    }
    EXPECT_EQ(nodes, 32U) << engine;
  }
}

TEST(Emulate, TimedRunsAreExactOnAlphaBetaAndTopologyCosts) {
  auto request = request_of<Relay>("ring:3");
  request.latency = Rational(1, 10);
  request.bandwidth = Rational(4);
  auto r = emulate(request);
  EXPECT_TRUE(r.timed && r.verified) << r.problem;
  EXPECT_EQ(r.makespan, Rational(2) * (Rational(1, 10) + Rational(2, 4)));
  request.latency.reset();
  request.bandwidth.reset();
  request.costs = EmulateCosts::TOPOLOGY;  // unit link costs: 2 a message of size 2
  r = emulate(request);
  EXPECT_EQ(r.makespan, Rational(4));
  EXPECT_EQ(r.to_json().at("makespan"), 4);
}

TEST(Emulate, AViolationIsAResultNamingStepNodeAndLink) {
  class TwoSends final : public NodeProgram {
    void react(Context& ctx) override {
      if (ctx.starting() && ctx.node() == 0) {
        ctx.send(0, "a");
        ctx.send(1, "b");
      }
    }
  };
  auto r = emulate(request_of<TwoSends>("ring:4"));
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.problem.find("step 0"), std::string::npos) << r.problem;
  EXPECT_NE(r.problem.find("busy"), std::string::npos) << r.problem;
  EXPECT_EQ(r.to_json().at("verified"), false);
  auto two_ports = request_of<TwoSends>("ring:4");
  two_ports.ports = 2;
  EXPECT_TRUE(emulate(two_ports).verified);
}

TEST(Emulate, ARunPastMaxStepsIsStoppedAndNotVerified) {
  auto request = request_of<PingPong>("complete:2");
  request.max_steps = 20;
  const auto r = emulate(request);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.problem.find("max_steps = 20"), std::string::npos) << r.problem;
  EXPECT_NE(r.problem.find("step 21"), std::string::npos) << r.problem;
  // Within the limit the caller gets its own program objects back, not the limit's wrapper.
  auto doubling = request_of<Doubling>("hypercube:3");
  doubling.max_steps = 3;
  const auto ok = emulate(doubling);
  ASSERT_TRUE(ok.verified) << ok.problem;
  EXPECT_NE(dynamic_cast<const Doubling*>(ok.run.programs.at(0).get()), nullptr);
}

TEST(Emulate, AFailedRunKeepsItsTraceCountsAndTheFailingStepAndNode) {
  // Node 0 passes a token around ring:4 along port 0 (toward i + 1) until step 3, then sends on
  // both ports at once: a violation at step 3, after three messages.
  class LateTwoSends final : public NodeProgram {
    void react(Context& ctx) override {
      const bool token = ctx.starting() ? ctx.node() == 0 : !ctx.received().empty();
      if (!token) return;
      ctx.send(0, "t");
      if (ctx.step() == 3) ctx.send(1, "u");
    }
  };
  auto request = request_of<LateTwoSends>("ring:4");
  request.trace = true;
  for (const auto* engine : {"local", "zmq"}) {
    request.engine.kind = parse_engine(engine);
    const auto r = emulate(request);
    EXPECT_FALSE(r.verified) << engine;
    EXPECT_NE(r.problem.find("step 3"), std::string::npos) << engine << ": " << r.problem;
    EXPECT_EQ(r.steps, 3U) << engine;
    EXPECT_EQ(r.messages, 3U) << engine;
    EXPECT_EQ(r.failed_step, std::optional<std::uint64_t>(3)) << engine;
    EXPECT_EQ(r.failed_node, std::optional<topology::NodeId>(3)) << engine;
    EXPECT_FALSE(r.run.trace.empty()) << engine;
    EXPECT_NE(dynamic_cast<const LateTwoSends*>(r.run.programs.at(0).get()), nullptr) << engine;
    EXPECT_EQ(r.to_json().at("failed_node"), 3) << engine;
  }
}

TEST(Emulate, AProgramsExceptionIsAResultThatKeepsItAndNamesTheNode) {
  class Throws final : public NodeProgram {
    void react(Context& ctx) override {
      if ((ctx.starting() && ctx.node() == 0) || !ctx.received().empty()) {
        if (ctx.step() == 2) throw std::runtime_error("my bug");
        ctx.send(0, "t");
      }
    }
  };
  auto request = request_of<Throws>("ring:4");
  request.trace = true;
  const auto r = emulate(request);
  EXPECT_FALSE(r.verified);
  ASSERT_TRUE(r.error);
  EXPECT_THROW(std::rethrow_exception(r.error), std::runtime_error);
  EXPECT_NE(r.problem.find("node 2 raised an exception at step 2: my bug"), std::string::npos) << r.problem;
  EXPECT_EQ(r.failed_node, std::optional<topology::NodeId>(2));
  EXPECT_EQ(r.messages, 2U);
  EXPECT_FALSE(r.run.trace.empty());
}

TEST(Emulate, ARunawayProgramStopsAtTheDefaultLimitAndNoneMeansNoLimit) {
  EXPECT_EQ(request_of<PingPong>("complete:2").max_steps, std::optional<std::uint64_t>(DEFAULT_MAX_STEPS));
  const SettingValue topology{"complete:2", {}};
  const auto parsed =
      emulate_settings().parse({{"topology", topology}, {"max_steps", SettingValue{}}}, request_of<PingPong>("complete:2"));
  EXPECT_FALSE(parsed.max_steps.has_value());
  const auto by_default = emulate_settings().parse({{"topology", topology}}, request_of<PingPong>("complete:2"));
  EXPECT_EQ(by_default.max_steps, std::optional<std::uint64_t>(DEFAULT_MAX_STEPS));
  const auto r = emulate(request_of<PingPong>("complete:2"));
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.problem.find("max_steps = 1000000"), std::string::npos) << r.problem;
  EXPECT_EQ(r.messages, DEFAULT_MAX_STEPS + 1);  // the ball arrives at every step 1..limit + 1
  EXPECT_EQ(r.failed_step, std::optional<std::uint64_t>(DEFAULT_MAX_STEPS + 1));
}

TEST(Emulate, AMessageSaysThePortItArrivedOn) {
  // Every node of ring:5 sends on port 0 (toward i + 1): each message arrives on port 1.
  class Arrivals final : public NodeProgram {
   public:
    void react(Context& ctx) override {
      if (ctx.starting()) ctx.send(0, "x");
      for (const auto& m : ctx.received()) {
        ports.push_back(m.arrival_port);
        EXPECT_EQ(ctx.topology().neighbor(ctx.node(), m.arrival_port), m.from);
      }
    }
    std::vector<topology::Port> ports;
  };
  const auto r = emulate(request_of<Arrivals>("ring:5"));
  ASSERT_TRUE(r.verified) << r.problem;
  const auto& ports = dynamic_cast<const Arrivals&>(*r.run.programs.at(0)).ports;
  EXPECT_EQ(ports, std::vector<topology::Port>(5, 1));
}

TEST(Emulate, ABadSettingIsNamed) {
  const auto with = [](auto change) {
    auto r = request_of<Doubling>("hypercube:2");
    change(r);
    return setting_of([&] { (void)emulate(r); });
  };
  EXPECT_EQ(with([](EmulateRequest& r) { r.ports = 0; }), "ports=0");
  EXPECT_EQ(with([](EmulateRequest& r) { r.duplex = "double"; }), "duplex=double");
  EXPECT_EQ(with([](EmulateRequest& r) { r.checking = "lenient"; }), "checking=lenient");
  EXPECT_EQ(with([](EmulateRequest& r) { r.bandwidth = Rational(0); }), "bandwidth=0");
  EXPECT_EQ(with([](EmulateRequest& r) { r.programs = nullptr; }), "programs=");
  EXPECT_EQ(with([](EmulateRequest& r) { r.crashes = {{4, 1}}; }), "crash=4@1");
  EXPECT_EQ(with([](EmulateRequest& r) { r.failed_links = {{0, 3, 0}}; }), "fail_links=0-3");  // not a link
  EXPECT_EQ(with([](EmulateRequest& r) { r.failed_links = {{0, 9, 0}}; }), "fail_links=0-9");
  EXPECT_EQ(setting_of([] { (void)parse_run_costs("free"); }), "costs=free");
}

TEST(Emulate, TransitTimesMakeTheRunTimedArbitratedAndExact) {
  auto request = request_of<Relay>("mesh:3");
  request.delays = parse_delay_law("constant:1/3");
  const auto r = emulate(request);
  ASSERT_TRUE(r.verified) << r.problem;
  EXPECT_TRUE(r.timed);
  EXPECT_EQ(r.makespan, Rational(14, 3));  // two transfers of size 2 (one step each in unit time)
  EXPECT_EQ(r.lost, 0U);
  const auto doc = r.to_json();
  EXPECT_EQ(doc["lost"], 0);
  EXPECT_TRUE(doc["crashed"].empty());
}

TEST(Emulate, TheResultNamesWhatWasLostCrashedAndFailedByTheEnd) {
  auto request = request_of<Relay>("mesh:3");
  request.crashes = {{2, 1}, {0, 100}};  // node 0's crash comes after the run's end
  request.failed_links = {{1, 0, 0}};
  const auto r = emulate(request);
  ASSERT_TRUE(r.verified) << r.problem;
  EXPECT_EQ(r.lost, 1U);  // 0 → 1 over the failed link; nothing reaches node 2
  EXPECT_EQ(r.messages, 0U);
  EXPECT_EQ(r.crashed, std::vector<topology::NodeId>{2});  // the run ends at 1, with node 2's crash
  EXPECT_EQ(r.failed_links, (std::vector<std::pair<topology::NodeId, topology::NodeId>>{{0, 1}}));
  const auto doc = r.to_json();
  EXPECT_EQ(doc["failed_links"], nlohmann::json::parse("[[0, 1]]"));
}

TEST(Emulate, TheAsynchronySettingsAreReadFromTheirText) {
  const auto request = emulate_settings().parse(
      {{"topology", {"ring:4", {}}},
       {"delays", {"uniform:1:5", {}}},
       {"channels", {"nonfifo", {}}},
       {"loss", {"0.25", {}}},
       {"crash", {"1@2,3@7/2", {}}},
       {"fail_links", {"0-1,2-3@5", {}}},
       {"order", {"random", {}}},
       {"seed", {"9", {}}}},
      request_of<Relay>("ring:4"));
  EXPECT_TRUE(request.delays != nullptr);
  EXPECT_FALSE(request.fifo);
  EXPECT_EQ(request.loss, 0.25);
  ASSERT_EQ(request.crashes.size(), 2U);
  EXPECT_EQ(request.crashes[1].node, 3U);
  EXPECT_EQ(request.crashes[1].at, Rational(7, 2));
  ASSERT_EQ(request.failed_links.size(), 2U);
  EXPECT_EQ(request.failed_links[1].at, Rational(5));
  EXPECT_TRUE(request.random_order);
  EXPECT_EQ(request.seed, 9U);
  EXPECT_TRUE(request.asynchronous());
  EXPECT_EQ(setting_of([] { (void)emulate_settings().parse({{"topology", {"ring:4", {}}}, {"loss", {"1.5", {}}}},
                                                           request_of<Relay>("ring:4")); }),
            "loss=1.5");
}

}  // namespace
}  // namespace starnet::api
