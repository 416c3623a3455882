#pragma once
/// @file
/// Collective schedules as data (docs/schedules.md) as library calls: read a schedule file (starnet
/// JSON or MSCCL XML) with the topology it runs on, build one from transfers, run it on the
/// emulator and check every node and chunk, write it, export a built-in algorithm as one.
///
/// Relative paths inside a schedule file (its "topology") are relative to the file's folder, and
/// an error about such a path says it came from the file.
///
/// @code
///   ScheduleRunRequest request;
///   request.schedule = load_schedule("ring8.json");
///   const ScheduleRunResult r = run_schedule(request);
///   if (!r.verified) std::cerr << r.problem;
/// @endcode

#include <starnet/algorithms/collectives/builtin_algorithm.hpp>
#include <starnet/algorithms/generic/step_bound.hpp>
#include <starnet/algorithms/schedule/chunk_report.hpp>
#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/api/engine.hpp>
#include <starnet/api/link_report.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/topology.hpp>
#include <starnet/topology/topology.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace starnet::api {

/// A schedule with the topology it runs on.
struct LoadedSchedule {
  std::shared_ptr<const topology::Topology> topology;
  /// The topology's spec: as given, as the file names it (a relative path resolved against the
  /// file's folder), or complete:NGPUS for an MSCCL file.
  std::string spec;
  std::shared_ptr<const algorithms::schedule::Schedule> schedule;
  /// "starnet" or "msccl".
  std::string format;
  /// Where it came from, for messages: `schedule file "ring8.json"`, or what built it.
  std::string source;
  /// The file it was read from (empty when it was built or parsed from memory).
  std::string path;
  /// The platform, when the topology was built in memory: no spec or file names it, so a saved
  /// schedule writes it beside itself (schedule_files()). Null for a spec or file.
  std::shared_ptr<const topology::Platform> in_memory;
  /// The topology as the calls take it: the platform built in memory, or the spec.
  [[nodiscard]] TopologyRef topology_ref() const;
};

/// Reads @p path (a regular file, or - for standard input): MSCCL XML by its extension or a first
/// character '<', starnet JSON otherwise. @p topology (a spec or file) overrides the topology the
/// file names. @throws UsageError / ScheduleError / TopologyError naming the file (and, for a path
/// the file names, that it came from the file).
[[nodiscard]] LoadedSchedule load_schedule(const std::string& path, const std::optional<TopologyRef>& topology);
/// The same with the topology as a spec (empty: the file's).
[[nodiscard]] LoadedSchedule load_schedule(const std::string& path, const std::string& topology = {});
/// The same for a document already in memory; @p where names it in messages, @p folder is where
/// relative paths inside it lead (empty: the current folder).
[[nodiscard]] LoadedSchedule parse_schedule(const std::string& text, const std::string& where,
                                            const std::optional<TopologyRef>& topology = std::nullopt,
                                            const std::string& folder = {});

/// Whether a receiver copies (overwrites) or reduces (⊕) a chunk that arrives.
using algorithms::schedule::ItemOp;
/// "copy" or "reduce". @throws UsageError about @p setting otherwise.
[[nodiscard]] ItemOp parse_item_op(std::string_view text, std::string_view setting = "op");

/// A schedule built transfer by transfer (the Python module's Schedule.send), checked as a starnet
/// JSON file is: node names or indices resolved on the topology, chunks and ops in range.
struct ScheduleDraft {
  /// A node by name or by index.
  using Node = std::variant<std::uint64_t, std::string>;
  struct Item {
    std::uint64_t from_chunk = 0;
    std::uint64_t to_chunk = 0;
    std::optional<ItemOp> op;  ///< none: the transfer's
  };
  struct Transfer {
    std::uint64_t step = 0;
    Node from;
    Node to;  ///< from == to: a local operation
    std::vector<Item> items;
    ItemOp op = ItemOp::COPY;  ///< what the receiver does with what arrives
  };
  Collective collective = Collective::ALLREDUCE;
  TopologyRef topology = std::string();
  std::uint64_t chunks = 1;
  std::uint64_t scratch = 0;
  std::optional<Node> root;
  std::vector<Transfer> transfers;
};
/// @p draft as a schedule on its topology; @p where names it in messages.
/// @throws ScheduleError naming @p where, the step and the transfer at fault, as parse_schedule.
[[nodiscard]] LoadedSchedule build_schedule(const ScheduleDraft& draft, const std::string& where);

/// What a schedule document says about itself before any topology is chosen.
struct ScheduleHeader {
  algorithms::Collective collective = algorithms::Collective::ALLREDUCE;
  /// Its node count (MSCCL's ngpus, a JSON file's "nodes"), if it states one.
  std::optional<std::uint64_t> nodes;
  /// The topology it names ("" when none; complete:NGPUS for MSCCL, as parse_schedule uses).
  std::string topology;
};
/// Reads @p text far enough to answer ScheduleHeader; @throws ScheduleError naming @p where for a
/// malformed document (what parse_schedule would refuse before resolving node names).
[[nodiscard]] ScheduleHeader read_schedule_header(const std::string& text, const std::string& where);

/// @p schedule as the starnet JSON format, its topology written as @p spec — a relative file path
/// rewritten relative to @p output_path's folder (when given), so that the file reads back from
/// anywhere. A topology built in memory is named by the file schedule_files() writes beside
/// @p output_path, or, without one, not at all (loading the text then needs a topology).
[[nodiscard]] std::string schedule_json(const LoadedSchedule& schedule, const std::string& comment = {},
                                        const std::string& output_path = {});

/// A file a face writes: its path and its text.
struct OutputFile {
  std::string path;
  std::string text;
};
/// The files that save @p schedule at @p path, in the order to write them. A path ending in .xml
/// is one MSCCL file (schedule_msccl(), @p comment its name; the topology stays unsaved). Otherwise
/// starnet JSON: the topology first when
/// it was built in memory (GraphML beside it, `<stem>.topology.graphml`, which the schedule names;
/// its read-back checked node for node and in order), then the schedule's JSON. load_schedule(path)
/// reads both back. @throws UsageError about setting "path" when it is empty or "-" and the
/// topology was built in memory (there is nowhere to write it); TopologyError when the topology
/// does not read back the same.
[[nodiscard]] std::vector<OutputFile> schedule_files(const LoadedSchedule& schedule, const std::string& path,
                                                     const std::string& comment = {});

/// The formats a schedule is written in: starnet's JSON, or MSCCL's XML, which GPU runtimes load
/// (msccl-executor, RCCL; docs/gpu.md).
enum class ScheduleFormat : std::uint8_t { STARNET, MSCCL };
/// "starnet" or "msccl"; empty: by @p path's extension (.xml: MSCCL; anything else, or -, starnet).
/// @throws UsageError about setting "format".
[[nodiscard]] ScheduleFormat parse_schedule_format(std::string_view text, const std::string& path);

/// How an MSCCL file is written: its name (free text) and protocol (Simple, LL128 or LL).
struct MscclSettings {
  std::string name = "starnet";
  std::string protocol = "Simple";
};
/// @p schedule as an MSCCL algorithm file (docs/gpu.md, "What the file says"), read back by
/// starnet's importer and compared with @p schedule transfer for transfer before it is returned.
/// Its topology is not in the file (MSCCL has none): it reads back on complete:N unless told.
/// @throws UsageError about setting "protocol"; ScheduleError naming the node and the reason for
/// what MSCCL cannot express; Error (exit 3) if the file read back differs (a bug).
[[nodiscard]] std::string schedule_msccl(const LoadedSchedule& schedule, const MscclSettings& settings = {});

/// @p schedule as @p output_path's extension says: MSCCL XML for .xml (schedule_msccl(), @p comment
/// its name), starnet JSON otherwise (schedule_json()).
[[nodiscard]] std::string schedule_text(const LoadedSchedule& schedule, const std::string& comment,
                                        const std::string& output_path);

/// The checking a schedule runs under unless told: strict for stepped schedules in unit time (the
/// plan must fit the port model as written), arbitrated for programs and timed runs (contending
/// transfers wait their turn).
/// The data chunks per node a schedule of @p collective on @p nodes nodes has unless told: one
/// block a node for the collectives that split the data so (all-gather, reduce-scatter, …), else 1.
[[nodiscard]] std::uint64_t default_chunks(Collective collective, std::uint64_t nodes);

[[nodiscard]] emulator::Checking default_checking(const algorithms::schedule::Schedule& schedule, bool timed);

/// The lower bound what-if prints for the collective @p schedule computes on @p topology (named
/// @p spec) under @p ports.
[[nodiscard]] algorithms::generic::StepBound schedule_lower_bound(const algorithms::schedule::Schedule& schedule,
                                                                  const topology::Topology& topology,
                                                                  const std::string& spec,
                                                                  const emulator::PortModel& ports);

struct ScheduleRunRequest {
  LoadedSchedule schedule;
  emulator::PortModel ports;
  /// Strict or arbitrated; none: default_checking().
  std::optional<emulator::Checking> checking;
  /// TOPOLOGY: timed, every transfer takes latency + size × link cost (the topology's α–β,
  /// emulator::AlphaBeta); UNIT: one step each.
  RunCosts costs = RunCosts::UNIT;
  [[nodiscard]] bool timed() const { return costs == RunCosts::TOPOLOGY; }
  /// Timed: every link's latency α and bandwidth β instead of the topology's own (none: its own);
  /// a transfer of c chunks then takes α + c·chunk_size/β.
  std::optional<Rational> latency;
  std::optional<Rational> bandwidth;
  /// Size of one chunk in unit messages (timed runs).
  Rational chunk_size = 1;
  NodeValues values{.kind = ValuesKind::RANDOM};
  /// The local engine, or zmq worker threads (no worker processes).
  EngineChoice engine;
  bool trace = false;
  /// What each directed link carried (ScheduleRunResult::link_loads): the run then keeps its trace
  /// while it is read, whatever `trace` says.
  bool link_report = false;
};

struct ScheduleRunResult {
  ScheduleRunRequest request;
  emulator::Checking checking = emulator::Checking::STRICT;
  algorithms::schedule::ScheduleRun run;
  algorithms::generic::StepBound bound;
  /// Timed runs: the bound in time — every message takes at least latency + chunk size × cost on
  /// its link, so the counting term is ⌈log_(k+1) N⌉ of the cheapest link and the distance term the
  /// farthest node in those weights (docs/whatif.md, "Bounds").
  std::optional<algorithms::generic::TimeBound> time_bound;
  /// Every output chunk right, no port-model violation, no deadlock.
  bool verified = false;
  /// Why not, when not verified: the first wrong chunk, the violation or the deadlock.
  std::string problem;
  /// With ScheduleRunRequest::link_report: every directed link that carried a message of the run,
  /// the busiest first, read from the run's sends (collectives/link_loads.hpp) — on a topology whose
  /// nodes are linked directly, the link from sender to receiver; on a view of a network of
  /// switches, every link of the route. Packets are chunks, units chunks × chunk size, busy the
  /// transfers' times (steps in unit time). Empty without the report or when the run stopped at a
  /// violation.
  std::vector<LinkLoad> link_loads;
  /// The document of `starnet schedule run --json` ("link_report": the link report's lines,
  /// api/link_report.hpp, with the report).
  [[nodiscard]] nlohmann::json to_json() const;
  /// The link report as CSV (api/link_report.hpp: the columns of `whatif --link-report`).
  [[nodiscard]] std::string link_report_csv() const;
};

/// Runs and checks @p request. A violation of the port model or a deadlock is a result (verified
/// false, problem the emulator's message), not an exception.
/// @throws UsageError about a setting; ScheduleError when the schedule does not fit its topology.
[[nodiscard]] ScheduleRunResult run_schedule(const ScheduleRunRequest& request);

struct ExportRequest {
  /// A built-in of the catalogue by name (parse_builtin()).
  std::string algorithm = "bfs-tree";
  /// A spec or file, or a platform built in memory.
  TopologyRef topology = std::string();
  /// None: the first collective the algorithm computes there, in the order of
  /// algorithms/collective.hpp (allreduce first; allgather for star-broadcast).
  std::optional<Collective> collective;
  std::string root = std::string(DEFAULT_ROOT);
  emulator::PortModel ports;
};

/// A built-in algorithm as a schedule (collectives/catalogue.hpp).
/// @throws UsageError about setting "algorithm" or "collective" when it is unknown or does not apply
/// there, naming the collectives it computes; ScheduleError beyond a builder's limits.
[[nodiscard]] LoadedSchedule export_schedule(const ExportRequest& request);

/// @throws UsageError about setting "algorithm" naming the choices.
[[nodiscard]] algorithms::collectives::Algorithm parse_builtin(std::string_view text);

}  // namespace starnet::api
