#include "trace_output.hpp"

#include "command.hpp"
#include <starnet/api/gantt.hpp>

#include <starnet/api/core.hpp>
#include <starnet/api/topology.hpp>

#include <nlohmann/json.hpp>

namespace starnet::tools {
namespace {

double to_double(const Rational& t) { return t.to_double(); }
double to_double(double t) { return t; }

/// Chrome trace-event format (Perfetto, chrome://tracing): one complete event ("X") per transfer on
/// the sender's row and one on the receiver's row of process @p pid; one time unit shows as 1 ms.
template <class Time>
void chrome_events(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& g, int pid,
                   nlohmann::json& events) {
  constexpr double MS_PER_TIME_UNIT = 1000;
  for (const auto& t : trace_intervals(trace).transfers) {
    const double ts = to_double(t.start) * MS_PER_TIME_UNIT;
    const double dur = to_double(t.end - t.start) * MS_PER_TIME_UNIT;
    const auto link = g.link_name(t.from, t.port);
    events.push_back({{"name", "send to " + g.node_name(t.to)}, {"ph", "X"}, {"ts", ts}, {"dur", dur},
                      {"pid", pid}, {"tid", t.from}, {"args", {{"link", link}}}});
    events.push_back({{"name", "receive from " + g.node_name(t.from)}, {"ph", "X"}, {"ts", ts}, {"dur", dur},
                      {"pid", pid}, {"tid", t.to}, {"args", {{"link", link}}}});
  }
  for (api::NodeId v = 0; v < g.num_nodes(); ++v) {
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", v},
                      {"args", {{"name", "node " + g.node_name(v)}}}});
  }
}

std::string chrome_document(const nlohmann::json& events) {
  return nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump() + "\n";
}

}  // namespace

void TraceOutput::add_to(CLI::App& app, const std::string& what) {
  auto* file = app.add_option("--trace", path, "Write " + what + " to FILE (see --trace-format)")->check(output_file({}, true));
  app.add_option("--trace-format", format,
                 "jsonl: one JSON object per event (docs/emulator.md); chrome: Chrome trace-event JSON for Perfetto")
      ->check(CLI::IsMember({"jsonl", "chrome"}))
      ->capture_default_str()
      ->needs(file);
}

template <class Time>
void TraceOutput::write(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& topology) const {
  if (!wanted()) return;
  std::string text;
  if (format == "chrome") {
    nlohmann::json events = nlohmann::json::array();
    chrome_events(trace, topology, 0, events);
    text = chrome_document(events);
  } else {
    for (const auto& e : trace) text += api::to_json_line(e, topology) + "\n";
  }
  write_file_atomically(path, text);
}

template <class Time>
void TraceRuns::add(const std::vector<api::TraceEvent<Time>>& trace, const api::Topology& topology,
                    const std::string& name) {
  const int run = runs_++;
  if (!output_.wanted()) return;
  if (output_.format == "chrome") {
    events_.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", run}, {"args", {{"name", name}}}});
    chrome_events(trace, topology, run, events_);
    return;
  }
  // Each event line is a JSON object: the run number goes first.
  const std::string prefix = "{\"run\":" + std::to_string(run) + ",";
  for (const auto& e : trace) lines_ += prefix + api::to_json_line(e, topology).substr(1) + "\n";
}

void TraceRuns::write() const {
  if (!output_.wanted()) return;
  write_file_atomically(output_.path, output_.format == "chrome" ? chrome_document(events_) : lines_);
}

template void TraceOutput::write(const std::vector<api::TraceEvent<Rational>>&, const api::Topology&) const;
template void TraceOutput::write(const std::vector<api::TraceEvent<double>>&, const api::Topology&) const;
template void TraceRuns::add(const std::vector<api::TraceEvent<Rational>>&, const api::Topology&,
                             const std::string&);

}  // namespace starnet::tools
