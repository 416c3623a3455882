#include "runner.hpp"

#include <starnet/algorithms/nonclairvoyant/single_run.hpp>
#include <starnet/algorithms/nonclairvoyant/tree_dyn.hpp>
#include <starnet/algorithms/trees/plan_program.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/complete_graph.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

namespace starnet::algorithms::nonclairvoyant {

using emulator::NodeId;
using emulator::NodeRange;

FixedCosts::FixedCosts(TransferRule transfer, std::vector<Rational> compute)
    : transfer_(std::move(transfer)), compute_(std::move(compute)) {
  if (compute_.empty()) throw InputError("fixed costs: no processor (expected c_0..c_(n-1), n >= 1)");
  for (std::size_t i = 0; i < compute_.size(); ++i) {
    if (compute_[i] < 0) {
      throw InputError(fmt::format("fixed costs: c_{} = {} (expected >= 0)", i, compute_[i].to_string()));
    }
  }
}

FixedCosts FixedCosts::from_matrices(std::vector<std::vector<Rational>> d, std::vector<Rational> c) {
  if (d.size() != c.size()) {
    throw InputError(fmt::format("fixed costs: d has {} rows but c has n = {} entries (expected n rows)", d.size(),
                                 c.size()));
  }
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i].size() != c.size()) {
      throw InputError(fmt::format("fixed costs: row {} of d has {} entries (expected n = {})", i, d[i].size(),
                                   c.size()));
    }
    for (std::size_t j = 0; j < d.size(); ++j) {
      if (i != j && d[i][j] < 0) {
        throw InputError(fmt::format("fixed costs: d_{},{} = {} (expected >= 0)", i, j, d[i][j].to_string()));
      }
    }
  }
  auto matrix = std::make_shared<const std::vector<std::vector<Rational>>>(std::move(d));
  return FixedCosts([matrix](int from, int to) { return (*matrix)[from][to]; }, std::move(c));
}

Rational FixedCosts::transfer(NodeId from, emulator::Port, NodeId to, const Rational& size) const {
  const Rational d = transfer_(static_cast<int>(from), static_cast<int>(to));
  if (d < 0) throw ScheduleError(fmt::format("fixed costs: d_{},{} = {} (expected >= 0)", from, to, d.to_string()));
  return size * d;
}

Rational FixedCosts::compute(NodeId node, const Rational& work) const { return work * compute_[node]; }

trees::ReductionPlan static_plan(Algorithm a, int n) {
  return trees::plan_asap(std::string(to_string(a)), trees::CostModel(1, 1), static_tree(a, n));
}

Prepared::Prepared(int n)
    : graph(static_cast<NodeId>(n)),
      expected(op.sequential(static_cast<std::uint64_t>(n))),
      plans{static_plan(Algorithm::BINOMIAL_STAT, n), static_plan(Algorithm::FIBONACCI_STAT, n)} {}

template <class Time>
Emulation<Time> run_algorithm(Algorithm a, const Prepared& p, const emulator::CostModel<Time>& costs,
                              emulator::LocalEngine<Time>& engine, bool trace) {
  emulator::ProgramFactory factory;
  const bool dynamic = a == Algorithm::TREE_DYN || a == Algorithm::NONCOMMUT_TREE_DYN;
  if (a == Algorithm::TREE_DYN) {
    factory = make_tree_dyn;
  } else if (a == Algorithm::NONCOMMUT_TREE_DYN) {
    factory = make_noncommut_tree_dyn;
  } else {
    // The plans' times are not used: the machines go as soon as they are ready.
    factory = [&](NodeRange r) {
      return trees::make_plan_program(p.plans[static_cast<int>(a)], p.op, trees::Timing::AS_SOON_AS_READY, r);
    };
  }
  emulator::RunConfig config;
  config.checking = emulator::Checking::ARBITRATED;
  config.time = emulator::TimeMode::TIMED;
  config.trace = trace;
  auto result = engine.run(p.graph, costs, factory, config);
  Emulation<Time> out;
  out.makespan = result.makespan;
  if (dynamic) {
    out.verified = !result.reports.front().empty() && result.reports.front()[0] == '1';
  } else {
    const auto report = trees::PlanRunReport::merge(result.reports);
    out.verified = report.root_done && report.root_value == p.expected;
  }
  out.trace = std::move(result.trace);
  return out;
}

template Emulation<Rational> run_algorithm(Algorithm, const Prepared&, const emulator::CostModel<Rational>&,
                                           emulator::LocalEngine<Rational>&, bool);
template Emulation<double> run_algorithm(Algorithm, const Prepared&, const emulator::CostModel<double>&,
                                         emulator::LocalEngine<double>&, bool);

Emulation<Rational> emulate(Algorithm a, const FixedCosts& costs, bool trace) {
  emulator::LocalEngine<Rational> engine;
  return run_algorithm(a, Prepared(costs.n()), costs, engine, trace);
}

Emulation<Rational> emulate_tree(const trees::ReductionPlan& plan, std::span<const int> label, const FixedCosts& costs,
                                 bool trace) {
  const int n = plan.n();
  if (n != costs.n() || static_cast<int>(label.size()) != n) {
    throw InputError(fmt::format("relabelled tree: plan on {} machines, {} labels, {} processors (expected equal)", n,
                                 label.size(), costs.n()));
  }
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  for (int m = 0; m < n; ++m) {
    const int p = label[static_cast<std::size_t>(m)];
    if (p < 0 || p >= n || seen[static_cast<std::size_t>(p)]) {
      throw InputError(fmt::format("relabelled tree: label[{}] = {} (expected a permutation of 0..{})", m, p, n - 1));
    }
    seen[static_cast<std::size_t>(p)] = true;
  }
  trees::ReductionPlan relabelled = plan;
  relabelled.algorithm = plan.algorithm + " (relabelled)";
  const auto at = [&](int m) { return label[static_cast<std::size_t>(m)]; };
  relabelled.root = at(plan.root);
  for (int m = 0; m < n; ++m) {
    const auto p = static_cast<std::size_t>(at(m));
    const int q = plan.parent[static_cast<std::size_t>(m)];
    relabelled.parent[p] = q < 0 ? -1 : at(q);
    relabelled.children[p].clear();
    for (const int child : plan.children[static_cast<std::size_t>(m)]) relabelled.children[p].push_back(at(child));
  }
  for (auto& t : relabelled.transfers) t = {at(t.from), at(t.to), t.start};
  const auto sum = trees::make_operator("sum", "relabelled schedule");
  const topology::CompleteGraph graph(static_cast<NodeId>(n));
  emulator::RunConfig config;
  config.time = emulator::TimeMode::TIMED;
  config.trace = trace;
  config.checking = emulator::Checking::STRICT;
  config.ports.half_duplex = true;
  auto result = emulator::LocalEngine<Rational>().run(
      graph, costs,
      [&](NodeRange r) { return trees::make_plan_program(relabelled, *sum, trees::Timing::AT_PLANNED_TIMES, r); },
      config);
  const auto report = trees::PlanRunReport::merge(result.reports);
  Emulation<Rational> out;
  out.makespan = result.makespan;
  out.verified = report.root_done && report.late == 0 && report.root_value == sum->sequential(static_cast<std::uint64_t>(n));
  out.trace = std::move(result.trace);
  return out;
}

}  // namespace starnet::algorithms::nonclairvoyant
