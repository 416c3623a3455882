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
/// IMPORTANT: CURVE authenticates the run as a whole (any holder of the run's key), not each
/// worker.

#include <starnet/emulator/engine.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::emulator {

/// The default of ProcessOptions::timeout_seconds and of the barrier wait of worker threads.
inline constexpr double DEFAULT_RUN_TIMEOUT_SECONDS = 600;

/// Runs with @p workers threads, each waiting at most @p timeout_seconds at a step's barrier for
/// its peers' batches (a sibling that fails tells the others at once; the timeout is for one that
/// is slow or stuck in its program). @throws UsageError for 0 workers or more workers than nodes,
/// ModelViolation as LocalEngine does, TransportError when a worker fails or waits too long.
template <class Time>
RunResult<Time> run_zmq_threads(const topology::Topology& topology, const CostModel<Time>& costs,
                                const ProgramFactory& factory, const RunConfig& config, unsigned workers,
                                double timeout_seconds = DEFAULT_RUN_TIMEOUT_SECONDS);

/// run_zmq_threads behind the Engine interface, for callers that pick an engine at run time.
template <class Time>
class ZmqThreadsEngine final : public Engine<Time> {
 public:
  /// @p workers threads; checked when a run starts (run_zmq_threads).
  explicit ZmqThreadsEngine(unsigned workers, double timeout_seconds = DEFAULT_RUN_TIMEOUT_SECONDS)
      : workers_(workers), timeout_(timeout_seconds) {}
  RunResult<Time> run(const topology::Topology& topology, const CostModel<Time>& costs, const ProgramFactory& factory,
                      const RunConfig& config) override {
    return run_zmq_threads(topology, costs, factory, config, workers_, timeout_);
  }

 private:
  unsigned workers_;
  double timeout_;
};

/// Whether the tcp connections of a process run use CURVE.
enum class Security {
  AUTO,   ///< CURVE iff the address is not loopback (127.0.0.0/8, ::1, localhost)
  CURVE,  ///< always, loopback too
};

/// Heartbeats between a coordinator and its worker processes, and how long a silent one is
/// given: well above a heartbeat's period, so that a busy host is not taken for a dead one.
inline constexpr double HEARTBEAT_SECONDS = 0.5;
inline constexpr double DEFAULT_PEER_TIMEOUT_SECONDS = 5;
/// The shortest peer timeout: a few heartbeats, so that one late beat is not a lost worker.
inline constexpr double MIN_PEER_TIMEOUT_SECONDS = 4 * HEARTBEAT_SECONDS;

/// How long a worker (or its coordinator) may stay silent before it is declared gone.
struct PeerTimeout {
  double seconds = DEFAULT_PEER_TIMEOUT_SECONDS;
  /// Whether the longest step seen so far is added: heartbeats share the network and the cores
  /// with the run's batches, and are late by up to a step's worth when those are large (measured:
  /// 4.9 s on S_11 over two namespaced hosts of a 2-core machine). A timeout the user sets stays
  /// as set.
  bool grows = true;
  /// The timeout once steps of up to @p longest_step seconds have been seen.
  [[nodiscard]] double after(double longest_step) const { return grows ? seconds + longest_step : seconds; }
};

/// Writes a fresh CURVE key pair for a join run to a new file @p path, mode 0600.
/// @throws UsageError when @p path exists or cannot be made, TransportError when a write fails.
void write_key_file(const std::string& path);

/// Resolves @p host (a numeric address, [IPv6], or a name) to one numeric address, without
/// brackets. @throws UsageError naming @p what and @p host when it does not resolve.
std::string resolve_host(const std::string& host, std::string_view what);

struct ProcessOptions {
  unsigned workers = 2;
  /// Where the coordinator and every worker listen: a numeric IPv4 or IPv6 address of this
  /// machine, or localhost.
  std::string address = "127.0.0.1";
  /// TCP port of the coordinator on that address; 0 picks a free one.
  int port = 0;
  Security security = Security::AUTO;
  /// The executable started as `EXE worker --connect ENDPOINT --index I --address ADDRESS
  /// [--key-fd FD]` (normally starnet itself; see WorkerOptions).
  std::string executable;
  /// Extra arguments appended to each worker's command line (e.g. fault injection in tests).
  std::function<std::vector<std::string>(unsigned index)> extra_arguments;
  /// Seconds a run may go without any worker reporting progress before it is declared hung, and
  /// that a worker waits at a step's barrier for its peers' batches; in a join run, also how long
  /// the coordinator waits for all its workers to join.
  double timeout_seconds = DEFAULT_RUN_TIMEOUT_SECONDS;
  /// Silence after which a worker is declared gone (stopped, hung, cut off).
  PeerTimeout peer_timeout;
  /// Workers are started by the user on any host (`starnet worker --join`), not by the
  /// coordinator: it listens on address:port with CURVE and waits for `workers` of them.
  bool join = false;
  /// join: the run's key file; written (mode 0600) when it does not exist.
  std::string key_file;
  /// join: told the endpoint the coordinator listens on, once it does (port 0 picks one).
  std::function<void(const std::string& endpoint)> on_listening;
};

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

/// A worker process's command line, as the coordinator writes it.
/// A worker's wait for its coordinator unless told otherwise (the coordinator passes its own).
inline constexpr double DEFAULT_WORKER_TIMEOUT_SECONDS = 60;

struct WorkerOptions {
  /// Any index the coordinator has free (a worker that joins).
  static constexpr unsigned ANY_INDEX = ~0U;
  std::string coordinator;  ///< the coordinator's endpoint, tcp://ADDRESS:PORT or ipc://DIR/NAME
  unsigned index = ANY_INDEX;
  /// Where this worker listens (the run's address); empty: the address of this machine that
  /// routes to the coordinator.
  std::string address;
  /// A worker that joins: the run's key file (instead of key_fd).
  std::string key_file;
  /// An inherited pipe holding the run's CURVE secret key (-1: plain tcp). A pipe rather than an
  /// argument or a variable: a command line is readable by every user, an environment by the
  /// user and by every process the worker might start.
  int key_fd = -1;
  /// How long the worker waits for its coordinator's CONFIG after saying hello: a worker whose
  /// coordinator is not there (or never sends) ends with TransportError instead of waiting for ever.
  double timeout_seconds = DEFAULT_WORKER_TIMEOUT_SECONDS;
  /// Seconds without the coordinator's heartbeat after which the worker gives up, until the
  /// coordinator's own peer timeout arrives with the run.
  double peer_timeout_seconds = DEFAULT_PEER_TIMEOUT_SECONDS;
};

/// The body of `starnet worker`: connects to the coordinator, runs its partition, reports.
/// @return the process exit code (0 when the coordinator got the result).
/// @throws UsageError for a malformed address, TransportError when the key cannot be read.
int run_zmq_worker(const WorkerOptions& options, const WorkerSetupFunction& setup);

}  // namespace starnet::emulator
