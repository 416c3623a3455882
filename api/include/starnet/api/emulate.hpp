#pragma once
/// @file
/// A user's own node programs on the emulator: the run of `starnet.emulate` (docs/python.md,
/// "Your own algorithm") and of a C++ caller, with the port model, checking, costs and time of
/// the built-ins, every setting checked here once.
///
/// The programs are an emulator::ProgramFactory (emulator/program.hpp: react() is called for a node
/// at its start and whenever messages arrive or its sends, computations or timers end). A
/// port-model violation, a deadlock of waiting transfers, a run past max_steps (by default
/// DEFAULT_MAX_STEPS) or an exception a program throws is a result — verified false, the problem
/// named (step, node, link), the failing node and step marked — never an exception, and a failed
/// run keeps what it did up to there: its counters, trace and programs (docs/emulator.md,
/// "Failed runs"). The program's own exception is kept in EmulateResult::error for the caller to
/// rethrow (the Python face raises it as itself).
///
/// Usage:
/// @code
///   api::EmulateRequest request("hypercube:4", [](emulator::NodeRange) { return std::make_unique<MyProgram>(); });
///   request.ports = 2;
///   const auto result = api::emulate(request);   // result.steps, result.verified, result.problem
/// @endcode
///
/// IMPORTANT: what the programs compute is theirs to check; `verified` says that the run kept the
/// port model, finished, and stayed within max_steps.

#include <starnet/api/engine.hpp>
#include <starnet/api/setting_table.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/topology.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/emulator/run_result.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace starnet::api {

/// A node program and what it sees (emulator/program.hpp), as a caller of emulate() writes them.
using emulator::Completion;
using emulator::Context;
using emulator::Delivery;
using emulator::NodeProgram;
using emulator::NodeRange;
using emulator::ProgramFactory;

/// The step limit of a run unless the caller sets another or none: a runaway program (a
/// ping-pong without end) stops by itself, within seconds, naming the limit.
inline constexpr std::uint64_t DEFAULT_MAX_STEPS = 1'000'000;

/// What a transfer costs (api/settings.hpp: RunCosts).
using EmulateCosts = RunCosts;

struct EmulateRequest {
  EmulateRequest(TopologyRef on, emulator::ProgramFactory factory)
      : topology(std::move(on)), programs(std::move(factory)) {}

  TopologyRef topology;
  /// One program object per partition (one on the local engine, one per zmq worker).
  emulator::ProgramFactory programs;
  long ports = 1;
  std::string duplex = "full";
  /// "strict" (a busy port is a violation) or "arbitrated" (transfers wait their turn); none:
  /// strict, or arbitrated when the run has transit times.
  std::optional<std::string> checking;
  EmulateCosts costs = EmulateCosts::UNIT;
  /// α and β on every link; either makes the run timed (what is not given is the topology's own).
  std::optional<Rational> latency;
  std::optional<Rational> bandwidth;
  bool trace = false;
  /// The run is stopped, not verified, when a node reacts at a step beyond this; none: no limit.
  std::optional<std::uint64_t> max_steps = DEFAULT_MAX_STEPS;
  /// The local engine, or the zmq engine on worker threads (processes cannot run a caller's programs).
  EngineChoice engine;

  // Asynchrony and faults (emulator/asynchrony.hpp, api/delays.hpp); any of them makes the run
  // asynchronous.
  /// The seed of every draw: transit times, loss, the order of reactions, each node's Context::seed().
  std::uint64_t seed = 1;
  /// A transit time per message after its transfer (parse_delay_law, or a caller's own law).
  std::shared_ptr<const emulator::DelayLaw> delays;
  /// FIFO channels (the default), else messages in transit may overtake one another.
  bool fifo = true;
  double loss = 0;
  std::vector<emulator::Crash> crashes;
  std::vector<emulator::LinkFailure> failed_links;
  /// Reactions at one time in an order drawn from the seed, not by node id.
  bool random_order = false;

  /// Whether the run is timed (costs topology, α–β given, or transit times).
  [[nodiscard]] bool timed() const { return costs == EmulateCosts::TOPOLOGY || latency || bandwidth || delays; }
  /// Whether the run has transit times, loss, crashes, failed links or a random order.
  [[nodiscard]] bool asynchronous() const {
    return delays || loss > 0 || !crashes.empty() || !failed_links.empty() || random_order;
  }
};

struct EmulateResult {
  std::string topology;
  std::shared_ptr<const topology::Topology> graph;
  bool timed = false;
  /// The run kept its trace (EmulateRequest::trace).
  bool traced = false;
  /// Event times after the first (in unit time the number of steps, equal to the makespan).
  std::uint64_t steps = 0;
  Rational makespan = 0;
  std::uint64_t messages = 0;
  bool verified = false;
  /// Why the run is not verified: the violation, deadlock, step limit or exception, in the engine's words.
  std::string problem;
  /// A run that failed: the node at fault (where known) and the step it failed at.
  std::optional<topology::NodeId> failed_node;
  std::optional<std::uint64_t> failed_step;
  /// The exception a program threw that ended the run (problem names it); null otherwise.
  std::exception_ptr error;
  /// Messages that did not arrive (drawn lost, a crashed end, a failed link).
  std::uint64_t lost = 0;
  /// The nodes that crashed and the links that failed during the run (at or before its end).
  std::vector<topology::NodeId> crashed;
  std::vector<std::pair<topology::NodeId, topology::NodeId>> failed_links;
  /// The run itself, up to where it ended: counters, trace (when asked for) and the program objects.
  emulator::RunResult<Rational> run;

  /// {"topology", "timed", "steps", "makespan", "messages", "lost", "crashed", "failed_links",
  /// "verified", "problem", "failed_node", "failed_step"} (the last two null for a verified run).
  [[nodiscard]] nlohmann::json to_json() const;
};

/// The settings of a run of node programs (api/setting_table.hpp): the keywords of Python's
/// `starnet.emulate`, each read and checked here into an EmulateRequest (whose programs the face
/// gives). `engine` and `workers` set EmulateRequest::engine.
[[nodiscard]] const SettingTable<EmulateRequest>& emulate_settings();

/// Runs @p request's programs. @throws UsageError naming the setting (ports, duplex, checking,
/// latency, bandwidth, max_steps, engine, crash, fail_links) when one is off; the engine's own failures (a zmq
/// worker, a timeout, Interrupted). A program's exception is a result (EmulateResult::error).
[[nodiscard]] EmulateResult emulate(const EmulateRequest& request);

}  // namespace starnet::api
