#pragma once
/// @file
/// Steady-state series of collectives (Legrand, Marchal, Robert 2004) as library calls: the optimal
/// throughput as an exact fraction certified by an LP dual, a periodic schedule of one-port
/// matchings achieving it, optionally for a fixed period, and its run on the emulator for a horizon
/// (docs/steady_state.md).

#include <starnet/algorithms/steady_state/emulation.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/topology.hpp>

#include <nlohmann/json.hpp>

#include <gmpxx.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::api {

/// A periodic schedule run on the emulator, as both faces report it (steady_state/emulation.hpp).
using algorithms::steady_state::ScheduleEmulation;

/// A periodic schedule in figures (its trees, matchings and computations are in the document).
struct SteadyPeriod {
  mpq_class period;
  mpq_class operations_per_period;
  mpq_class throughput;  ///< operations_per_period / period
  std::size_t matchings = 0;
  std::size_t trees = 0;  ///< trees (reduce) or routes (scatter, gossip)
  int startup_periods = 0;
};


struct SteadyRequest {
  /// SCATTER, ALLTOALL (the paper's "gossip": series of personalised all-to-alls) or REDUCE.
  Collective collective = Collective::SCATTER;
  TopologyRef topology = std::string();
  std::string source;                     ///< scatter
  std::vector<std::string> sources;       ///< gossip
  std::vector<std::string> targets;       ///< scatter, gossip
  std::vector<std::string> participants;  ///< reduce, in the order of ⊕
  std::string target;                     ///< reduce
  Rational message_size = 1;              ///< reduce: every partial result's size, > 0
  Rational task_work = 1;                 ///< reduce: every task's work, > 0
  std::optional<Rational> period;         ///< also the fixed-period schedule of this period (> 0)
  std::optional<Rational> emulate;        ///< run the schedule for this horizon K (> 0)
  int iteration_limit = 0;                ///< GLPK's simplex (0: none)
  bool whole_messages = false;
  bool trace = false;  ///< keep the emulated run's events
};

struct SteadyResult {
  SteadyRequest request;
  std::shared_ptr<const topology::Platform> platform;
  std::string problem;  ///< the series in words: the collective, its nodes, the platform
  mpq_class throughput;  ///< TP, the LP's optimum
  SteadyPeriod schedule;  ///< the periodic schedule achieving TP
  std::optional<SteadyPeriod> fixed_schedule;  ///< with `period`
  std::size_t lp_trees = 0;  ///< the LP's trees or routes: a fixed period loses at most lp_trees / period
  std::string certificate_failure;  ///< why the LP dual does not certify TP ("" when it does)
  std::shared_ptr<const ScheduleEmulation> optimal;  ///< with `emulate`: the schedule's run
  std::shared_ptr<const ScheduleEmulation> fixed;    ///< with `emulate` and `period`
  /// With `emulate`: the platform as the emulations saw it (node ids of their traces), for charts.
  std::shared_ptr<const Topology> emulated_on;
  nlohmann::json document;  ///< to_json()'s, made while the planner was at hand

  /// The LP dual certifies the throughput.
  [[nodiscard]] bool certified() const { return certificate_failure.empty(); }
  /// The certificate holds and every emulation verified.
  [[nodiscard]] bool verified() const;
  /// The title of the optimal schedule's emulated run (its Gantt chart). @pre optimal.
  [[nodiscard]] std::string run_title() const;
  /// The document of `starnet steady … --json`.
  [[nodiscard]] nlohmann::json to_json() const { return document; }
};

/// @throws UsageError about "period", "emulate", "message_size", "task_work", a node name;
/// TopologyError for the platform; SolverError when the LP is not solved to optimality.
[[nodiscard]] SteadyResult run_steady(const SteadyRequest& request);

}  // namespace starnet::api
