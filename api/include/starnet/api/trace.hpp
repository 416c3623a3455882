#pragma once
/// @file
/// A run's trace as the api hands it to both faces: its events (emulator/trace.hpp) and their
/// pairing into transfers and computations (emulator/trace_intervals.hpp), which the command
/// line writes as files and charts and the Python module as numpy columns; and the trace files
/// both write (`--trace FILE --trace-format F`, `result.save_trace(path, format)`).

#include <starnet/emulator/trace.hpp>
#include <starnet/emulator/trace_intervals.hpp>
#include <starnet/topology/topology.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::api {

using emulator::EventKind;
using emulator::TraceEvent;
using emulator::trace_intervals;
using emulator::TraceIntervals;
using emulator::TransferInterval;
using emulator::ComputeInterval;
using emulator::describe_event;
using emulator::NodeId;
using emulator::time_text;
using emulator::TimeText;
using emulator::to_json_line;

/// A trace file's format: JSON lines, one event per line (docs/emulator.md), or Chrome's
/// trace-event JSON, which Perfetto and chrome://tracing open (one time unit shows as 1 ms).
enum class TraceFormat : std::uint8_t { JSONL, CHROME };
inline constexpr std::array<std::string_view, 2> TRACE_FORMATS = {"jsonl", "chrome"};
/// @throws UsageError about @p setting unless @p text is one of TRACE_FORMATS.
[[nodiscard]] TraceFormat parse_trace_format(std::string_view text, std::string_view setting = "trace_format");

/// The traces of one or several runs, gathered into one file's text: a study's runs @p numbered,
/// a "run" number on every JSON line; one Chrome process per run, named after it. O(events).
class TraceFile {
 public:
  TraceFile(TraceFormat format, bool numbered) : format_(format), numbered_(numbered) {}
  /// Appends run number runs() called @p name; @p topology names its nodes and links.
  template <class Time>
  void add(const std::vector<TraceEvent<Time>>& trace, const topology::Topology& topology, const std::string& name = "");
  [[nodiscard]] int runs() const { return runs_; }
  [[nodiscard]] std::string text() const;

 private:
  TraceFormat format_;
  bool numbered_;
  int runs_ = 0;
  std::string lines_;                                  // jsonl
  nlohmann::json events_ = nlohmann::json::array();    // chrome
};

/// One run's trace file text (TraceFile of one run).
template <class Time>
[[nodiscard]] std::string trace_text(const std::vector<TraceEvent<Time>>& trace, const topology::Topology& topology,
                                     TraceFormat format);

}  // namespace starnet::api
