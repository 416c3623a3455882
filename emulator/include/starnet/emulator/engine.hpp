#pragma once
/// @file
/// Running node programs on a topology: the `local` engine (one process, no sockets) and what
/// every engine returns (run_result.hpp). The `zmq` engine (zmq_engine.hpp) has the same semantics.
///
/// Semantics (both engines): time advances from one event time to the next. At each event
/// time, in rounds until nothing more happens at that time: (1) transfers, computations and
/// timers that end now are delivered; (2) every node with something to react to reacts, in
/// node-id order; (3) the sends it started are checked against the port model (strict), or
/// the transfers that wait are granted, in a fixed order, as far as ports and posted receives
/// allow (arbitrated: config.hpp, docs/emulator.md). Nothing depends on how nodes are partitioned
/// among workers, so every engine and worker count produce the same trace.
///
/// Cost of an event time: proportional to the nodes that have something to react to, plus, when
/// more than 1/16 of a worker's nodes do, one pass over that worker's nodes.
///
/// Usage:
/// @code
///   const topology::StarGraph g(5);
///   const UnitCosts<Rational> costs;
///   auto result = LocalEngine<Rational>().run(g, costs, [&](NodeRange r) { return make_program(r); }, {});
/// @endcode

#include <starnet/emulator/config.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/emulator/run_result.hpp>
#include <starnet/emulator/trace.hpp>

#include <memory>
#include <utility>
#include <vector>

namespace starnet::emulator {

/// Splits the nodes into @p parts contiguous ranges of nearly equal size. On a star graph the
/// cuts fall on sub-star boundaries (multiples of m! for the largest m that still gives every
/// part a share), so that only high-dimension links cross partitions.
/// @throws UsageError when parts is 0 or exceeds the number of nodes.
[[nodiscard]] std::vector<NodeRange> partition_nodes(const topology::Topology& topology, unsigned parts);

template <class Time>
class Worker;

/// What every engine that runs node programs in this process offers its callers: LocalEngine and
/// ZmqThreadsEngine (zmq_engine.hpp). Worker processes cannot take a ProgramFactory (their
/// programs are built from a job description on the other side): run_zmq_processes.
template <class Time>
class Engine {
 public:
  Engine() = default;
  virtual ~Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  Engine(Engine&&) noexcept = default;
  Engine& operator=(Engine&&) noexcept = default;
  /// Runs the programs @p factory builds over all nodes and returns what they did.
  /// @throws ModelViolation in strict mode when a program breaks the port model, and on a
  /// deadlock: with nothing left to happen, transfers still wait (arbitrated) or a posted receive
  /// is unmet (Context::accept); the engine's own errors besides.
  virtual RunResult<Time> run(const topology::Topology& topology, const CostModel<Time>& costs,
                              const ProgramFactory& factory, const RunConfig& config) = 0;

  /// What the last run() that ended in an exception (a violation, a deadlock, a program's own
  /// exception) had done up to there: its counters, the time it stopped at (`makespan`), its trace
  /// (sorted) and its programs, so that a failed run keeps its evidence (api/emulate.hpp). Empty
  /// after a run that returned; taking it leaves it empty.
  [[nodiscard]] RunResult<Time> take_stopped() { return std::exchange(stopped_, {}); }

 protected:
  RunResult<Time> stopped_;
};

/// The single-process engine. Reusable: buffers are kept between runs, so that Monte-Carlo
/// studies running millions of small emulations do not allocate per run.
template <class Time>
class LocalEngine final : public Engine<Time> {
 public:
  LocalEngine();
  ~LocalEngine();
  LocalEngine(LocalEngine&&) noexcept;
  LocalEngine& operator=(LocalEngine&&) noexcept;

  /// Runs one program object over all nodes (Engine::run).
  RunResult<Time> run(const topology::Topology& topology, const CostModel<Time>& costs,
                      const ProgramFactory& factory, const RunConfig& config) override;

 private:
  std::unique_ptr<Worker<Time>> worker_;
};

}  // namespace starnet::emulator
