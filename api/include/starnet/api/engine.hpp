#pragma once
/// @file
/// Which engine runs a call, and how: the typed choice every emulating call of starnet::api takes
/// (docs/emulator.md, "Engines"). The local engine runs in this process; the zmq engine runs
/// workers as threads, as processes on this host, or as processes on other hosts that join a
/// listening coordinator. Options that do not apply to the choice are refused, never ignored
/// (docs/limits.md).
///
/// Errors name the setting (core/error.hpp) under the names of the fields below.

#include <starnet/algorithms/star/star_report.hpp>
#include <starnet/emulator/memory_estimate.hpp>
#include <starnet/emulator/zmq_options.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace starnet::api {

enum class EngineKind : std::uint8_t { LOCAL, ZMQ };
/// "local" or "zmq".
[[nodiscard]] std::string to_string(EngineKind kind);
/// @throws UsageError about setting "engine" for anything but local or zmq.
[[nodiscard]] EngineKind parse_engine(std::string_view text);

/// The path a run takes on the local engine and on zmq workers: the star collectives take the
/// dense step path (NodeProgram::sends_only()), other programs the general one.
enum class LocalPath : std::uint8_t { GENERAL, DENSE };

struct EngineChoice {
  EngineKind kind = EngineKind::LOCAL;
  /// Workers of the zmq engine (1..MAX_WORKERS); none: 1 on the local engine, 2 on zmq.
  std::optional<long> workers;
  /// zmq: workers as processes (over ipc:// or tcp://) instead of threads.
  bool processes = false;
  /// Worker processes: the numeric address every process listens on (default 127.0.0.1).
  std::string address;
  /// Worker processes: the coordinator's TCP port (0: any free port).
  std::optional<long> port;
  /// Workers that join from other hosts: the HOST:PORT to listen on (implies processes).
  std::string listen;
  /// With listen: the run's key file (made when it does not exist).
  std::string key_file;
  /// Worker processes: seconds without a heartbeat before a worker is declared gone (default:
  /// emulator::DEFAULT_PEER_TIMEOUT_SECONDS beyond the longest step seen).
  std::optional<double> peer_timeout;
  /// The zmq engine: seconds a worker waits at a step's barrier for its peers; worker processes
  /// also: to wait for every worker to join or say hello, and for any answer while running.
  std::optional<double> timeout;
  /// The local engine: threads of its dense step path (0..MAX_THREADS; 0 or none: every core).
  /// Traces, counters and results are the same whatever the number.
  std::optional<long> threads;
  /// Run even when the memory estimate exceeds what this process may use.
  bool force = false;
  /// Worker processes: the `starnet` command they run (default: this process's own executable).
  std::string executable;
  /// With listen: called once the coordinator listens, with its endpoint and whether the key
  /// file was written now (the command line tells the user where to start the workers).
  std::function<void(const std::string& endpoint, bool key_written)> on_listening;

  /// The number of workers. @throws UsageError about "workers" outside 1..MAX_WORKERS, or other
  /// than 1 on the local engine.
  [[nodiscard]] unsigned worker_count() const;
  /// The threads of the local engine's dense step path: threads, every core when 0 or none.
  /// @throws UsageError about "threads" outside 0..MAX_THREADS, or given to the zmq engine.
  [[nodiscard]] unsigned thread_count() const;
  /// How long a zmq worker waits at a step's barrier: timeout, or the default.
  [[nodiscard]] double barrier_timeout() const { return timeout.value_or(emulator::DEFAULT_RUN_TIMEOUT_SECONDS); }
  /// Refuses what does not apply: processes, addresses, ports, keys and a peer timeout without worker
  /// processes, a timeout on the local engine (or with a call that takes none, @p processes_allowed false), and options that do
  /// not go together. @throws UsageError about the setting at fault.
  void check(bool processes_allowed = true) const;
  /// Whether workers join from other hosts.
  [[nodiscard]] bool joined() const { return !listen.empty(); }
  /// The options of a run of worker processes. @throws as check().
  [[nodiscard]] emulator::ProcessOptions process_options() const;
  /// How the workers talk: "none" (local), "inproc" (threads), "ipc" or "tcp" (processes).
  [[nodiscard]] std::string transport() const;
  /// The same, in words: "processes over tcp on 127.0.0.1, CURVE".
  [[nodiscard]] std::string transport_text() const;

  /// What a run of @p nodes nodes needs on this engine, @p traced_messages of them recorded when
  /// @p trace, plus @p program_bytes that the node programs hold beyond the star programs' (named
  /// @p program_what), along @p path; on the dense path the programs hold @p dense_program_bytes
  /// per node (the star all-reduce's by default). Figures measured on the star collectives
  /// (docs/limits.md).
  [[nodiscard]] emulator::MemoryEstimate memory_estimate(
      std::uint64_t nodes, std::uint64_t traced_messages, bool trace, std::uint64_t program_bytes = 0,
      std::string_view program_what = {}, LocalPath path = LocalPath::GENERAL,
      std::uint64_t dense_program_bytes = algorithms::star::ALLREDUCE_PROGRAM_BYTES_PER_NODE) const;
  /// Refuses @p need when it does not fit (emulator::check_memory), naming @p what, unless force.
  void check_memory(const emulator::MemoryEstimate& need, std::string_view what) const;
};

/// A HOST:PORT setting: HOST a numeric IPv4 address, [IPv6] or a name that resolves; PORT in
/// 1..65535 (or 0 when @p any_port).
struct HostPort {
  std::string ip;  ///< numeric, without brackets
  int port = 0;
  /// @throws UsageError about @p setting.
  static HostPort parse(const std::string& text, std::string_view setting, bool any_port);
  [[nodiscard]] std::string endpoint() const;
};

}  // namespace starnet::api
