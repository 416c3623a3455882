#pragma once
/// @file
/// The `zmq` engine: K workers, each running the nodes of one partition (contiguous node ranges;
/// sub-star ranges on S_n), exchanging one batched ZeroMQ message per peer per exchange. A
/// worker's exchange ends when it holds one batch from every peer, which is the barrier. Same
/// semantics as LocalEngine (engine.hpp): for the same input every engine and every worker count
/// produce the same trace.
///
/// Workers are threads over inproc:// (run_zmq_threads), or separate processes over tcp://
/// (run_zmq_processes + run_zmq_worker), bound to the loopback address. A coordinator only
/// launches, configures and collects results. A worker process that dies ends the run with a
/// TransportError naming it (exit 3); nothing waits forever.
///
/// IMPORTANT: process workers bind to 127.0.0.1 only: a multi-host run needs authenticated
/// transport (ZeroMQ CURVE), which this engine does not provide yet.

#include <starnet/emulator/engine.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace starnet::emulator {

/// Runs with @p workers threads. @throws UsageError for 0 workers or more workers than nodes,
/// ModelViolation as LocalEngine does, TransportError when a worker fails.
template <class Time>
RunResult<Time> run_zmq_threads(const topology::Topology& topology, const CostModel<Time>& costs,
                                const ProgramFactory& factory, const RunConfig& config, unsigned workers);

struct ProcessOptions {
  unsigned workers = 2;
  /// TCP port of the coordinator on 127.0.0.1; 0 picks a free one.
  int port = 0;
  /// The executable started as `EXE worker --connect ENDPOINT --index I` (normally starnet itself).
  std::string executable;
  /// Extra arguments appended to each worker's command line (e.g. fault injection in tests).
  std::function<std::vector<std::string>(unsigned index)> extra_arguments;
  /// Seconds a run may go without any worker reporting progress before it is declared hung.
  double timeout_seconds = 600;
};

/// Runs exact-time programs in worker processes. @p job is an opaque description that each
/// worker turns into topology, costs and program with the `setup` it was given (run_zmq_worker).
/// The coordinator computes nothing itself.
/// @throws UsageError when the port is taken, TransportError when a worker dies or hangs,
/// ModelViolation as LocalEngine does, or the error a worker reported.
RunResult<Rational> run_zmq_processes(const topology::Topology& topology, const RunConfig& config,
                                      const std::string& job, const ProcessOptions& options);

/// What a worker process builds from the job description (the run configuration comes from
/// the coordinator).
struct WorkerSetup {
  std::shared_ptr<const topology::Topology> topology;
  std::shared_ptr<const CostModel<Rational>> costs;
  ProgramFactory factory;
};
using WorkerSetupFunction = std::function<WorkerSetup(const std::string& job, unsigned index)>;

/// The body of `starnet worker`: connects to the coordinator, runs its partition, reports.
/// @return the process exit code (0 when the coordinator got the result).
int run_zmq_worker(const std::string& coordinator, unsigned index, const WorkerSetupFunction& setup);

}  // namespace starnet::emulator
