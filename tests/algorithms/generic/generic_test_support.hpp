#pragma once
// Runs a schedule on the local engine as the what-if study does, for the tests of the planners.

#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/topology.hpp>

#include <vector>

namespace starnet::algorithms::generic::testing {

struct Outcome {
  emulator::RunResult<Rational> run;
  ScheduleReport report;
};

/// Runs @p plan with initial values 1..N (node v holds v + 1, or a spread of large words when
/// @p op is not SUM). Unit time and strict checks by default; @p timed uses the topology's link
/// costs with arbitrated checks.
inline Outcome run_plan(const topology::Topology& t, const Schedule& plan, Collective c, emulator::PortModel ports,
                        Op op = Op::SUM, NodeId root = 0, bool timed = false,
                        emulator::Checking checking = emulator::Checking::STRICT) {
  std::vector<std::uint64_t> initial(t.num_nodes());
  for (NodeId v = 0; v < t.num_nodes(); ++v)
    initial[v] = op == Op::SUM ? v + 1 : (v * 0x9E3779B97F4A7C15ULL) ^ (v << 7);
  const Expectation e = expected_result(c, op, initial, root);
  emulator::RunConfig config;
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

}  // namespace starnet::algorithms::generic::testing
