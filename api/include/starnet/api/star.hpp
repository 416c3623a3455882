#pragma once
/// @file
/// The star collectives of Oh, Choi and Primeaux (ICCS 2005) as one call each: the all-reduce and
/// the all-to-all broadcast (NODUP, meta messages) on S_n in n(n−1)/2 steps, run on a chosen
/// engine and verified node by node; Table 2 of the paper measured on the emulator; and the
/// worker processes that run a partition of one (`starnet worker`).
///
/// @code
///   StarRequest request;
///   request.n = 5;
///   request.engine.kind = EngineKind::ZMQ;
///   const StarResult r = run_star(request);
///   if (r.verified) ... r.run.makespan (10 steps), r.to_json() ...
/// @endcode
/// Complexity: n(n−1)/2 steps of n! messages each; memory as EngineChoice::memory_estimate says.

#include <starnet/algorithms/star/star_report.hpp>
#include <starnet/api/engine.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/emulator/memory_estimate.hpp>
#include <starnet/emulator/run_result.hpp>
#include <starnet/emulator/zmq_options.hpp>
#include <starnet/topology/star_graph.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::api {

/// How long the SLEEP fault makes one step take: longer than any peer timeout a test uses.
inline constexpr double FAULT_SLEEP_SECONDS = 8;

/// A testing aid of worker processes: what worker `worker` does at step `step`.
struct StarFault {
  enum class Kind : std::uint8_t {
    EXIT,   ///< ends its process abruptly (a crash)
    STOP,   ///< stops its process (SIGSTOP: a hung host)
    SLEEP,  ///< computes for FAULT_SLEEP_SECONDS more, heartbeats going on (a slow step)
  };
  Kind kind = Kind::EXIT;
  unsigned worker = 0;
  std::uint64_t step = 0;
};

struct StarRequest {
  /// ALLREDUCE, or ALLGATHER for the all-to-all broadcast.
  Collective collective = Collective::ALLREDUCE;
  /// S_n, n in 1..12.
  int n = 0;
  NodeValues values{.kind = ValuesKind::INDEX};
  EngineChoice engine;
  /// Keep every event (RunResult::trace).
  bool trace = false;
  std::optional<StarFault> fault;

  /// The request for `topology`, a spec that must name a star graph ("star:5").
  /// @throws TopologyError / UsageError about setting "topology" otherwise.
  static StarRequest on(const std::string& topology, Collective collective = Collective::ALLREDUCE);
  /// What travels to worker processes, and back.
  [[nodiscard]] std::string to_job() const;
  /// @throws TransportError when @p text is not what to_job() writes.
  static StarRequest from_job(const std::string& text);
};

struct StarResult {
  StarRequest request;
  std::shared_ptr<const topology::StarGraph> graph;
  emulator::RunResult<Rational> run;
  algorithms::star::StarReport report;
  std::uint64_t expected_value = 0;  ///< all-reduce: the sequential reduction every node must hold
  std::uint64_t expected_steps = 0;  ///< n(n−1)/2
  emulator::MemoryEstimate memory;
  /// Every node right, n(n−1)/2 steps, and for the broadcast every item received exactly once.
  bool verified = false;

  /// The document of `starnet allreduce --json` (docs/json.md).
  [[nodiscard]] nlohmann::json to_json() const;
  /// The title of the run's Gantt chart: "allreduce on star:3: makespan 3".
  [[nodiscard]] std::string run_title() const;
};

/// Runs @p request and checks every node.
/// @throws UsageError / TopologyError about a setting; what the engines throw (TransportError,
/// ModelViolation); InputError when the memory estimate does not fit (unless engine.force).
[[nodiscard]] StarResult run_star(const StarRequest& request);

/// One row of Table 2 of the paper (dimension n), measured.
struct Table2Row {
  int n = 0;
  std::uint64_t size = 0;
  int tseng_formula = 0;  ///< Tseng's 3(n−1)²
  int tseng_paper = 0;
  int sheu_formula = 0;   ///< Sheu's 2·Σ_{i=2..n} (⌈log₂(i−1)⌉ + 1)
  int sheu_paper = 0;
  std::int64_t measured = 0;  ///< steps of the all-reduce on the emulator
  int paper = 0;
  int lower_bound = 0;  ///< ⌈log₂ n!⌉
  bool verified = false;
};

struct Table2Result {
  std::vector<Table2Row> rows;
  /// Where the paper's printed numbers differ from their formulas or from the measurement.
  std::vector<std::string> notes;
  bool verified = false;
  [[nodiscard]] nlohmann::json to_json() const;
};

/// Table 2 for n = 3..@p max_n (3..10), every all-reduce run on @p engine and verified.
/// @throws UsageError about "max_n" outside 3..10.
[[nodiscard]] Table2Result star_table2(int max_n, const EngineChoice& engine, const NodeValues& values = {});

/// A worker that joins a star run whose coordinator listens (EngineChoice::listen) from any host:
/// `starnet worker --join`, or `starnet.worker()` in Python.
struct JoinRequest {
  std::string join;      ///< HOST:PORT of the coordinator
  std::string key_file;  ///< the run's key file (keygen), copied from the coordinator's host
  std::optional<unsigned> index;  ///< this worker's index (none: any free one)
  std::string address;  ///< where this worker listens for its peers (empty: the address that reaches the coordinator)
  double timeout_seconds = emulator::DEFAULT_WORKER_TIMEOUT_SECONDS;
  double peer_timeout_seconds = emulator::DEFAULT_PEER_TIMEOUT_SECONDS;
};

/// Joins the run, works its partition until the coordinator has the result.
/// @return 0 when the coordinator got the result (otherwise the worker's exit code).
/// @throws UsageError about "join", "key_file", "index", "timeout" or "peer_timeout";
/// TransportError when the coordinator cannot be reached or the key cannot be read.
int join_run(const JoinRequest& request);

/// What a worker process that a coordinator started is told (`starnet worker --connect`: the
/// coordinator's endpoint, its index, the inherited key), and the shortest heartbeat timeout.
using emulator::MIN_PEER_TIMEOUT_SECONDS;
using emulator::WorkerOptions;

/// Serves the partition a coordinator gave this worker process until the coordinator has the
/// result: `starnet worker --connect`, the other half of EngineChoice::processes.
/// @return 0 when the coordinator got the result (otherwise the worker's exit code).
int serve_partition(const WorkerOptions& options);

/// Writes a fresh key file (ZeroMQ CURVE, mode 0600) for the workers of a listening run.
/// @throws UsageError about "key_file" when @p path exists or cannot be made.
void write_key_file(const std::string& path);

}  // namespace starnet::api
