#include "run_pictures.hpp"

#include "command.hpp"

#include <starnet/api/gantt.hpp>
#include <starnet/api/swimlane.hpp>

#include <fmt/format.h>

namespace starnet::tools {

std::string RunPictures::flags() const {
  if (!gantt.empty() && !swimlane.empty()) return "--gantt and --swimlane";
  return gantt.empty() ? "--swimlane" : "--gantt";
}

void RunPictures::add_to(CLI::App& cmd, std::string_view what, const std::function<void()>& on_given) {
  auto* g = add_gantt_option(cmd, gantt, what);
  auto* s = cmd.add_option("--swimlane", swimlane,
                           fmt::format("Draw {} as a space-time diagram, SVG: a line per node, an arrow per message "
                                       "(at most {} nodes and {} messages; docs/viz.md)",
                                       what, api::MAX_SWIMLANE_NODES, api::MAX_SWIMLANE_MESSAGES))
                ->check(output_file({".svg"}));
  if (on_given) {
    for (auto* option : {g, s}) option->each([on_given](const std::string&) { on_given(); });
  }
}

void RunPictures::require(std::uint64_t nodes, const std::string& name) const {
  if (!gantt.empty()) api::require_gantt_rows(nodes, name);
  if (!swimlane.empty()) api::require_swimlane_nodes(nodes, name);
}

template <class Time>
void RunPictures::write(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& topology,
                        const std::string& title) const {
  if (!gantt.empty()) write_file_atomically(gantt, api::gantt_svg(api::gantt_chart(trace, topology, title)));
  if (!swimlane.empty()) {
    write_file_atomically(swimlane, api::swimlane_svg(api::swimlane_diagram(trace, topology, title)));
  }
}

template void RunPictures::write(const std::vector<api::TraceEvent<Rational>>&, const api::Topology&,
                                 const std::string&) const;
template void RunPictures::write(const std::vector<api::TraceEvent<double>>&, const api::Topology&,
                                 const std::string&) const;

}  // namespace starnet::tools
