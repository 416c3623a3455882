// A library user's program (tests/consumer/CMakeLists.txt), built against an installed starnet:
// it models S_4 through the public API, then writes a node program of its own — the binomial
// broadcast on a hypercube — and runs it on the emulator, which checks the single-port model on
// every send. Exit 0 when every check holds, 1 otherwise (each failure says which).
#include <starnet/core/error.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/topology/families.hpp>

#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

using starnet::emulator::Context;
using starnet::emulator::NodeProgram;
using starnet::emulator::NodeRange;

constexpr unsigned DIMENSION = 4;
constexpr unsigned NODES = 1U << DIMENSION;
const std::string VALUE = "42";

// Node 0 holds VALUE. A node that receives it along dimension d (port d - 1 of hypercube:D) sends
// it on along dimensions d + 1 .. D, one a step: the binomial tree, D steps, one send and one
// receive per node and step.
class BinomialBroadcast final : public NodeProgram {
 public:
  void react(Context& ctx) override {
    const auto v = ctx.node();
    if (ctx.starting() && v == 0) {
      held_[v] = VALUE;
      next_port_[v] = 0;
    }
    for (const auto& m : ctx.received()) {
      held_[v] = m.payload;
      next_port_[v] = m.port + 1;
    }
    if (!held_[v].empty() && next_port_[v] < ctx.topology().degree(v) && ctx.free_send_ports() > 0) {
      ctx.send(next_port_[v]++, held_[v]);
    }
  }
  std::vector<std::string> held_ = std::vector<std::string>(NODES);
  std::vector<unsigned> next_port_ = std::vector<unsigned>(NODES, 0);
};

// Every node sends on two ports at its first step: a single-port violation.
class TwoSendsAtOnce final : public NodeProgram {
 public:
  void react(Context& ctx) override {
    if (ctx.starting()) {
      ctx.send(0, "a");
      ctx.send(1, "b");
    }
  }
};

int fail(const std::string& what) {
  std::cerr << "consumer: " << what << '\n';
  return 1;
}

}  // namespace

int main() {
  try {
    const auto star = starnet::topology::make_topology("star:4");
    std::cout << star->name() << ": " << star->num_nodes() << " nodes\n";
    if (star->num_nodes() != 24) return fail("star:4 has " + std::to_string(star->num_nodes()) + " nodes (expected 24)");

    const auto cube = starnet::topology::make_topology("hypercube:" + std::to_string(DIMENSION));
    starnet::emulator::LocalEngine<starnet::Rational> engine;
    const starnet::emulator::UnitCosts<starnet::Rational> unit;
    const starnet::emulator::RunConfig config;  // single port, full duplex, strict, unit time
    auto result = engine.run(*cube, unit, [](NodeRange) { return std::make_unique<BinomialBroadcast>(); }, config);
    const auto& program = dynamic_cast<const BinomialBroadcast&>(*result.programs.at(0));
    for (unsigned v = 0; v < NODES; ++v) {
      if (program.held_[v] != VALUE) return fail("node " + std::to_string(v) + " holds '" + program.held_[v] + "'");
    }
    std::cout << cube->name() << ": binomial broadcast in " << result.makespan.to_string() << " steps, "
              << result.counters.messages << " messages, every node holds " << VALUE << '\n';
    if (result.makespan != starnet::Rational(DIMENSION)) return fail("the broadcast took " + result.makespan.to_string() + " steps");
    if (result.counters.messages != NODES - 1) return fail("the broadcast sent " + std::to_string(result.counters.messages) + " messages");

    try {
      (void)engine.run(*cube, unit, [](NodeRange) { return std::make_unique<TwoSendsAtOnce>(); }, config);
      return fail("two sends at once from a single-port node were not refused");
    } catch (const starnet::ModelViolation& e) {
      std::cout << "refused as expected: " << e.what() << '\n';
    }
    return 0;
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}
