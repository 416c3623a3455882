#pragma once
/// @file
/// `--gantt FILE.svg` and `--swimlane FILE.svg`: the pictures of one run that a subcommand draws
/// (api/gantt.hpp, api/swimlane.hpp), declared, refused before the run and written after it the
/// same way by every subcommand that runs one.

#include <starnet/api/topology.hpp>
#include <starnet/api/trace.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::tools {

struct RunPictures {
  std::string gantt;     ///< --gantt FILE.svg, empty when not asked for
  std::string swimlane;  ///< --swimlane FILE.svg

  [[nodiscard]] bool wanted() const { return !gantt.empty() || !swimlane.empty(); }
  /// The flags given ("--gantt", "--swimlane" or both joined by "and"), for messages.
  [[nodiscard]] std::string flags() const;
  /// Declares both options on @p cmd, @p what saying which run they draw; @p on_given is called
  /// when either is given (to keep the run's trace).
  void add_to(CLI::App& cmd, std::string_view what, const std::function<void()>& on_given = {});
  /// Refuses, before anything runs, a run of @p nodes nodes called @p name that a picture asked
  /// for cannot show. @throws UsageError naming the flag.
  void require(std::uint64_t nodes, const std::string& name) const;
  void require(const api::Topology& topology) const { require(topology.num_nodes(), topology.name()); }
  /// Writes each picture asked for, of @p trace recorded on @p topology, titled @p title (empty:
  /// the topology and the makespan); each file written whole or not at all.
  /// @throws as the api's pictures and write_file_atomically().
  template <class Time>
  void write(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& topology,
             const std::string& title = "") const;
};

}  // namespace starnet::tools
