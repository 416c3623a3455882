#pragma once
/// @file
/// The starnet schedule format (JSON, version 1; docs/schedules.md, schema in
/// docs/schedule.schema.json): reading and writing.
///
/// @code
///   {"format": "starnet-schedule", "version": 1, "collective": "allreduce", "chunks": 1,
///    "topology": "ring:3",
///    "steps": [[{"f": "0", "t": "1", "c": [0], "op": "reduce"}],
///              [{"f": "1", "t": "2", "c": [0], "op": "reduce"}],
///              [{"f": "2", "t": "0", "c": [0]}, {"f": "2", "t": "1", "c": [0]}]]}
/// @endcode
///
/// Reading is streamed: each transfer is parsed, interned and dropped, so a file's transfers cost
/// the 40 bytes of their two actions, not a document tree. Node names are resolved once each.
///
/// Complexity: O(file size + T log T) for T transfers.
/// IMPORTANT: the reader checks the format; what a schedule does is checked by running it.

#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::algorithms::schedule {

/// The format version this build reads and writes.
inline constexpr int SCHEDULE_FORMAT_VERSION = 1;

/// A schedule file as read, node names not yet resolved against a topology.
class ScheduleFile {
 public:
  ScheduleFile();
  ~ScheduleFile();
  ScheduleFile(ScheduleFile&&) noexcept;
  ScheduleFile& operator=(ScheduleFile&&) noexcept;

  /// @param where names the input in messages (e.g. `schedule "ring.json"`).
  /// @throws ScheduleError naming @p where and the place (e.g. `steps[3][1]`) for malformed JSON,
  /// a missing or unknown field, a wrong type, an unknown collective or op, a version this build
  /// does not read.
  static ScheduleFile read(std::istream& in, const std::string& where);

  [[nodiscard]] Collective collective() const;
  /// The topology spec the file names, or "".
  [[nodiscard]] const std::string& topology() const;
  [[nodiscard]] std::uint64_t transfers() const;
  /// The "nodes" field, if the file has one.
  [[nodiscard]] std::optional<std::uint64_t> nodes() const;

  /// Resolves node names (labels on star graphs, names elsewhere, or indices) against @p topology.
  /// @throws ScheduleError naming the node for a name that is not in @p topology, a "nodes" count or
  /// root that does not match, and what ScheduleBuilder throws.
  [[nodiscard]] Schedule resolve(const topology::Topology& topology) const;

 private:
  struct Data;
  std::unique_ptr<Data> data_;
};

/// Writes @p schedule, nodes named by @p topology: a stepped schedule as "steps"; a programmed one
/// (an MSCCL file read) as "programs", each node's threads merged into one program that keeps
/// every thread's order and dependency (threads in turn: threadblocks that only worked because
/// they ran at once may deadlock as one program, which a run reports).
/// @throws ScheduleError for relays, a receive whose chunks are kept out of message order or with
/// several operations, an out-of-place layout (not expressible).
[[nodiscard]] std::string write_schedule_json(const Schedule& schedule, const topology::Topology& topology,
                                              const std::string& spec, const std::string& comment = {});

}  // namespace starnet::algorithms::schedule
