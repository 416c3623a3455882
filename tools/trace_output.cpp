#include "trace_output.hpp"

#include "command.hpp"

#include <starnet/api/core.hpp>

namespace starnet::tools {

void TraceOutput::add_to(CLI::App& app, const std::string& what) {
  auto* file = app.add_option("--trace", path, "Write " + what + " to FILE (see --trace-format)")->check(output_file({}, true));
  app.add_option("--trace-format", format,
                 "jsonl: one JSON object per event (docs/emulator.md); chrome: Chrome trace-event JSON for Perfetto")
      ->check(CLI::IsMember(std::vector<std::string>(api::TRACE_FORMATS.begin(), api::TRACE_FORMATS.end())))
      ->capture_default_str()
      ->needs(file);
}

template <class Time>
void TraceOutput::write(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& topology) const {
  if (!wanted()) return;
  write_file_atomically(path, api::trace_text(trace, topology, api::parse_trace_format(format)));
}

TraceRuns::TraceRuns(const TraceOutput& output)
    : output_(output), file_(api::parse_trace_format(output.format), /*numbered=*/true) {}

template <class Time>
void TraceRuns::add(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& topology,
                    const std::string& name) {
  ++runs_;
  if (output_.wanted()) file_.add(trace, topology, name);
}

void TraceRuns::write() const {
  if (output_.wanted()) write_file_atomically(output_.path, file_.text());
}

template void TraceOutput::write(const std::vector<api::TraceEvent<Rational>>&, const api::Topology&) const;
template void TraceOutput::write(const std::vector<api::TraceEvent<double>>&, const api::Topology&) const;
template void TraceRuns::add(const std::vector<api::TraceEvent<Rational>>&, const api::Topology&,
                             const std::string&);

}  // namespace starnet::tools
