#pragma once
// Running the star collectives (all-reduce, all-to-all broadcast) on a chosen engine, for the
// `allreduce`, `broadcast`, `demo` and `worker` subcommands.

#include "trace_output.hpp"

#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/memory.hpp>
#include <starnet/emulator/zmq_engine.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace starnet::tools {

/// How long the SLEEP fault makes one step take: longer than any peer timeout a test uses.
inline constexpr double FAULT_SLEEP_SECONDS = 8;

/// More workers than any machine starnet targets has cores; threads hold a socket per pair.
inline constexpr int MAX_WORKERS = 256;

/// What to run; travels as JSON to worker processes.
struct StarJob {
  bool broadcast = false;  // all-to-all broadcast instead of all-reduce
  int n = 0;
  algorithms::star::Op op = algorithms::star::Op::SUM;
  algorithms::star::Values values;
  /// Testing aids: what worker `exit_worker` does at step `exit_step`.
  enum class Fault {
    EXIT,   ///< ends its process abruptly (a crash)
    STOP,   ///< stops its process (SIGSTOP: a hung host)
    SLEEP,  ///< computes for FAULT_SLEEP_SECONDS more, heartbeats going on (a slow step)
  };
  std::optional<unsigned> exit_worker;
  std::uint64_t exit_step = 0;
  Fault fault = Fault::EXIT;
  [[nodiscard]] std::string to_json() const;
  static StarJob from_json(const std::string& text);
};

/// The path a run takes on the local engine: the star collectives take the dense step path
/// (NodeProgram::sends_only()), other programs the general one.
enum class LocalPath : std::uint8_t { GENERAL, DENSE };

/// Which engine, how many workers, where the trace goes.
struct EngineOptions {
  std::string engine = "local";
  int workers = -1;  // unset: 1 for local, 2 for zmq
  bool processes = false;
  std::string address;  // empty: not given (loopback)
  int port = 0;
  /// --listen HOST:PORT: workers join from other hosts (implies processes).
  std::string listen;
  std::string key_file;
  double peer_timeout = emulator::DEFAULT_PEER_TIMEOUT_SECONDS;
  CLI::Option* peer_timeout_option = nullptr;  // given: the timeout stays as set
  double timeout = emulator::ProcessOptions{}.timeout_seconds;
  TraceOutput trace;
  /// Record the trace even without --trace (for drawings: --gantt, `starnet viz`).
  bool keep_trace = false;
  /// --force: run even when the memory estimate exceeds what the process may use.
  bool force = false;
  /// Declares --engine, --workers, --processes, --address, --port, --listen, --key-file,
  /// --peer-timeout, --timeout, --trace (and its format).
  void add_to(CLI::App& app);
  /// @throws UsageError for --workers < 1.
  [[nodiscard]] unsigned worker_count() const;
  /// What a run of @p nodes nodes needs on this engine, @p traced_messages of them recorded when a
  /// trace is kept (figures measured on the star collectives: docs/limits.md), plus
  /// @p program_bytes that the node programs hold beyond the star programs' (named @p program_what);
  /// on the local engine, along @p path.
  [[nodiscard]] emulator::MemoryEstimate memory_estimate(std::uint64_t nodes, std::uint64_t traced_messages,
                                                         std::uint64_t program_bytes = 0,
                                                         std::string_view program_what = {},
                                                         LocalPath path = LocalPath::GENERAL) const;
  /// Refuses @p need when it does not fit (emulator::check_memory), naming @p what, unless --force.
  void check_memory(const emulator::MemoryEstimate& need, std::string_view what) const;
  /// The options of a --processes run. @throws UsageError for --address without --processes, and
  /// for options that do not go together (--listen with --address or --port, --key-file without
  /// --listen).
  [[nodiscard]] emulator::ProcessOptions process_options() const;
  /// Whether workers join from other hosts (--listen).
  [[nodiscard]] bool joined() const { return !listen.empty(); }
};

/// A HOST:PORT option (@p option names it in messages): HOST a numeric IPv4 address, [IPv6] or a
/// name that resolves; PORT in 1..65535 (or 0 when @p any_port).
struct HostPort {
  std::string ip;  ///< numeric, without brackets
  int port = 0;
  static HostPort parse(const std::string& text, std::string_view option, bool any_port);
  [[nodiscard]] std::string endpoint() const;
};

struct StarOutcome {
  emulator::RunResult<Rational> run;
  algorithms::star::StarReport report;
  std::uint64_t expected_value = 0;
  std::uint64_t expected_steps = 0;
  bool verified = false;
};

/// Runs @p job; writes the trace if asked. @throws what the engines throw.
StarOutcome run_star_job(const StarJob& job, const EngineOptions& engine);

/// The summary printed by `allreduce`, `broadcast` and `demo` (one JSON object with --json).
nlohmann::json star_json(const StarJob& job, const EngineOptions& engine, const StarOutcome& outcome);
std::string star_text(const StarJob& job, const EngineOptions& engine, const StarOutcome& outcome);

/// How a worker process rebuilds a job.
emulator::WorkerSetup star_worker_setup(const std::string& job, unsigned index);

}  // namespace starnet::tools
