#pragma once
/// @file
/// Steady-state series of collectives (Legrand, Marchal, Robert 2004) as library calls: the optimal
/// throughput as an exact fraction certified by an LP dual, a periodic schedule of one-port
/// matchings achieving it, optionally for a fixed period, and its run on the emulator for a horizon
/// (docs/steady_state.md).

#include <starnet/algorithms/steady_state/planner.hpp>
#include <starnet/algorithms/steady_state/schedule_program.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/topology.hpp>

#include <nlohmann/json.hpp>

#include <gmpxx.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::api {

/// A periodic schedule run on the emulator, as both faces report it (steady_state/schedule_program.hpp).
using algorithms::steady_state::ScheduleEmulation;


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
  std::unique_ptr<algorithms::steady_state::SteadyStateProblem> problem;
  std::unique_ptr<algorithms::steady_state::SteadyStatePlanner> planner;
  algorithms::steady_state::CertificateCheck check;
  std::unique_ptr<algorithms::steady_state::ScheduleEmulator> optimal;  ///< with `emulate`
  std::unique_ptr<algorithms::steady_state::ScheduleEmulator> fixed;    ///< with `emulate` and `period`
  /// The certificate holds and every emulation verified.
  [[nodiscard]] bool verified() const;
  /// The title of the optimal schedule's emulated run (its Gantt chart). @pre optimal.
  [[nodiscard]] std::string run_title() const;
  /// The document of `starnet steady … --json`.
  [[nodiscard]] nlohmann::json to_json() const;
};

/// @throws UsageError about "period", "emulate", "message_size", "task_work", a node name;
/// TopologyError for the platform; SolverError when the LP is not solved to optimality.
[[nodiscard]] SteadyResult run_steady(const SteadyRequest& request);

}  // namespace starnet::api
