#pragma once
/// @file
/// How the zmq engine (zmq_engine.hpp) is told to run: the options of a run of worker processes
/// and of one worker, security, heartbeats and timeouts, apart from the engine itself, so that
/// callers that only fill them in (starnet::api's engine choice) include this alone.

#include <functional>
#include <string>
#include <vector>

namespace starnet::emulator {

/// The default of ProcessOptions::timeout_seconds and of the barrier wait of worker threads.
inline constexpr double DEFAULT_RUN_TIMEOUT_SECONDS = 600;

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

}  // namespace starnet::emulator
