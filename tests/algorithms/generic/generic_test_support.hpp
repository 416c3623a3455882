#pragma once
// Runs a schedule on the local engine as the what-if study does, for the tests of the planners.

#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/topology.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace starnet::algorithms::generic::testing {

struct Outcome {
  emulator::RunResult<Rational> run;
  ScheduleReport report;
};

/// Runs @p plan with initial values 1..N (node v holds v + 1, or a spread of large words when
/// @p op is not SUM). Unit time and strict checks by default; @p timed uses the topology's link
/// costs with arbitrated checks. The plan's relays hold values too, which the expectation leaves
/// out: a relay that combined or sent its own would be caught. @p trace keeps the run's trace.
inline Outcome run_plan(const topology::Topology& t, const Schedule& plan, Collective c, emulator::PortModel ports,
                        Op op = Op::SUM, NodeId root = 0, bool timed = false,
                        emulator::Checking checking = emulator::Checking::STRICT, bool trace = false) {
  std::vector<std::uint64_t> initial(t.num_nodes());
  std::vector<bool> relays;
  for (NodeId v = 0; v < t.num_nodes(); ++v)
    initial[v] = op == Op::SUM ? v + 1 : (v * 0x9E3779B97F4A7C15ULL) ^ (v << 7);
  if (plan.has_relays()) {
    for (NodeId v = 0; v < t.num_nodes(); ++v) relays.push_back(plan.relay(v));
  }
  const Expectation e = expected_result(c, op, initial, root, relays);
  emulator::RunConfig config;
  config.trace = trace;
  config.ports = ports;
  config.time = timed ? emulator::TimeMode::TIMED : emulator::TimeMode::UNIT;
  config.checking = timed ? emulator::Checking::ARBITRATED : checking;
  const emulator::UnitCosts<Rational> unit;
  const emulator::TopologyCosts<Rational> costed(t);
  const emulator::CostModel<Rational>& costs = timed ? static_cast<const emulator::CostModel<Rational>&>(costed) : unit;
  Outcome o{
      emulator::LocalEngine<Rational>().run(
          t, costs, [&](emulator::NodeRange r) { return make_schedule_program(plan, initial, op, e, config.time, r); },
          config),
      {}};
  for (const auto& text : o.run.reports) o.report.merge(ScheduleReport::parse(text));
  return o;
}

/// Why some router of @p relays did more than forward in @p run's trace: each message it sends must
/// be one it received earlier, unchanged (the same payload: a word, or a chunk schedule's chunks)
/// and not sent on before, and it must send on all it received. Empty when every router only
/// forwarded.
inline std::string forwarding_violation(const emulator::RunResult<Rational>& run, const std::vector<bool>& relays) {
  std::map<NodeId, std::vector<const emulator::TraceEvent<Rational>*>> events;
  for (const auto& e : run.trace) {
    const bool transfer = e.kind == emulator::EventKind::SEND || e.kind == emulator::EventKind::RECEIVE;
    if (transfer && relays[e.node]) events[e.node].push_back(&e);
  }
  for (auto& [router, list] : events) {
    // Receives first at equal times: a message that arrives at t may leave at t.
    std::stable_sort(list.begin(), list.end(), [](const auto* a, const auto* b) {
      const auto order = [](const auto* e) { return std::pair(e->time, e->kind != emulator::EventKind::RECEIVE); };
      return order(a) < order(b);
    });
    std::multiset<std::string> held;
    for (const auto* e : list) {
      if (e->kind == emulator::EventKind::RECEIVE) {
        held.insert(e->payload);
        continue;
      }
      const auto it = held.find(e->payload);
      if (it == held.end()) {
        return "router " + std::to_string(router) + " sends at " + e->time.to_string() +
               " a message it did not receive (combined or copied)";
      }
      held.erase(it);
    }
    if (!held.empty()) {
      return "router " + std::to_string(router) + " keeps " + std::to_string(held.size()) + " messages";
    }
  }
  return "";
}

}  // namespace starnet::algorithms::generic::testing
