#pragma once
/// @file
/// The `zmq` engine: K workers, each running the nodes of one partition (contiguous node ranges;
/// sub-star ranges on S_n), exchanging one batched ZeroMQ message per peer per exchange. A
/// worker's exchange ends when it holds one batch from every peer, which is the barrier. Same
/// semantics as LocalEngine (engine.hpp): for the same input every engine and every worker count
/// produce the same trace.
///
/// Workers are threads over inproc:// (run_zmq_threads), or separate processes over tcp://
/// (run_zmq_processes + run_zmq_worker), bound to the loopback address unless an address is
/// given. On an address that is not loopback every tcp connection of the run uses ZeroMQ CURVE
/// with one fresh key pair per run, and every server socket accepts only clients holding it
/// (docs/emulator.md, "Worker processes on an address: CURVE"). A coordinator only launches,
/// configures and collects results. A worker process that dies ends the run with a
/// TransportError naming it (exit 3); nothing waits forever.
///
/// Workers on other hosts join a coordinator that listens (ProcessOptions::join) with the run's
/// key file; they run the same protocol. Every worker sends a heartbeat to the coordinator, and
/// the coordinator to every worker: a worker (or coordinator) silent for the peer timeout ends
/// the run, so a stopped process or a cut link never leaves a run hanging.
///
/// The options of a run and of a worker, and its timeouts, are in zmq_options.hpp.
///
/// IMPORTANT: CURVE authenticates the run as a whole (any holder of the run's key), not each
/// worker.

#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_options.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::emulator {

/// Runs with @p workers threads, each waiting at most @p timeout_seconds at a step's barrier for
/// its peers' batches (a sibling that fails tells the others at once; the timeout is for one that
/// is slow or stuck in its program). @throws UsageError for 0 workers or more workers than nodes,
/// ModelViolation as LocalEngine does, TransportError when a worker fails or waits too long.
/// When it throws, @p stopped (if given) holds what the workers had done up to there
/// (Engine::take_stopped).
template <class Time>
RunResult<Time> run_zmq_threads(const topology::Topology& topology, const CostModel<Time>& costs,
                                const ProgramFactory& factory, const RunConfig& config, unsigned workers,
                                double timeout_seconds = DEFAULT_RUN_TIMEOUT_SECONDS,
                                RunResult<Time>* stopped = nullptr);

/// run_zmq_threads behind the Engine interface, for callers that pick an engine at run time.
template <class Time>
class ZmqThreadsEngine final : public Engine<Time> {
 public:
  /// @p workers threads; checked when a run starts (run_zmq_threads).
  explicit ZmqThreadsEngine(unsigned workers, double timeout_seconds = DEFAULT_RUN_TIMEOUT_SECONDS)
      : workers_(workers), timeout_(timeout_seconds) {}
  RunResult<Time> run(const topology::Topology& topology, const CostModel<Time>& costs, const ProgramFactory& factory,
                      const RunConfig& config) override {
    return run_zmq_threads(topology, costs, factory, config, workers_, timeout_, &this->stopped_);
  }

 private:
  unsigned workers_;
  double timeout_;
};

/// Writes a fresh CURVE key pair for a join run to a new file @p path, mode 0600.
/// @throws UsageError when @p path exists or cannot be made, TransportError when a write fails.
void write_key_file(const std::string& path);

/// Resolves @p host (a numeric address, [IPv6], or a name) to one numeric address, without
/// brackets. @throws UsageError naming @p what and @p host when it does not resolve.
std::string resolve_host(const std::string& host, std::string_view what);

/// @return whether a run with @p options uses CURVE.
/// @throws UsageError naming the address when it is not an IP address (or is a wildcard).
[[nodiscard]] bool uses_curve(const ProcessOptions& options);

/// @return whether a run with @p options talks over ipc:// endpoints in a private folder (mode
/// 0700) rather than tcp: on loopback without CURVE and without --port, so that another local
/// user cannot connect to the run.
[[nodiscard]] bool uses_ipc(const ProcessOptions& options);

/// Runs exact-time programs in worker processes. @p job is an opaque description that each
/// worker turns into topology, costs and program with the `setup` it was given (run_zmq_worker).
/// The coordinator computes nothing itself.
/// @throws UsageError when the address is malformed or not of this machine, or the port taken;
/// TransportError when a worker dies or hangs; ModelViolation as LocalEngine does; or the error a
/// worker reported.
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
/// @throws UsageError for a malformed address, TransportError when the key cannot be read.
int run_zmq_worker(const WorkerOptions& options, const WorkerSetupFunction& setup);

}  // namespace starnet::emulator
