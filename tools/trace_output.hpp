#pragma once
/// @file
/// `--trace FILE [--trace-format jsonl|chrome]`, the same on every subcommand that emulates
/// (allreduce, broadcast, demo, schedule run, reduce, montecarlo --run I, steady --emulate,
/// whatif): the file api/trace.hpp writes (TraceFile), atomically once the run is over. A study of
/// several runs (whatif) writes them all to one file.

#include <starnet/api/topology.hpp>
#include <starnet/api/trace.hpp>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace starnet::tools {

struct TraceOutput {
  std::string path;
  std::string format = "jsonl";
  /// Declares --trace and --trace-format on @p app; @p what says which run is traced.
  void add_to(CLI::App& app, const std::string& what = "every event of the run");
  [[nodiscard]] bool wanted() const { return !path.empty(); }
  /// Writes @p trace to path in format (nothing when not wanted). @p topology names nodes and links.
  /// @throws UsageError naming the file when it cannot be written.
  template <class Time>
  void write(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& topology) const;
};

/// The traces of several runs, gathered for one TraceOutput file.
class TraceRuns {
 public:
  /// @throws UsageError about "trace_format" for a format api/trace.hpp does not write.
  explicit TraceRuns(const TraceOutput& output);
  /// Appends run number runs() called @p name.
  template <class Time>
  void add(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& topology,
           const std::string& name);
  [[nodiscard]] int runs() const { return runs_; }
  /// Writes the file (nothing when the output is not wanted). @throws as TraceOutput::write.
  void write() const;

 private:
  const TraceOutput& output_;
  int runs_ = 0;
  api::TraceFile file_;
};

}  // namespace starnet::tools
