#include "trace_output.hpp"

#include "command.hpp"
#include "gantt.hpp"

#include <starnet/topology/rational.hpp>
#include <starnet/topology/topology.hpp>

#include <nlohmann/json.hpp>

namespace starnet::tools {
namespace {

double to_double(const Rational& t) { return t.to_double(); }
double to_double(double t) { return t; }

/// Chrome trace-event format (Perfetto, chrome://tracing): one complete event ("X") per transfer on
/// the sender's row and one on the receiver's row; one time unit shows as 1 ms.
template <class Time>
std::string chrome_trace(const std::vector<emulator::TraceEvent<Time>>& trace, const topology::Topology& g) {
  constexpr double MS_PER_TIME_UNIT = 1000;
  nlohmann::json events = nlohmann::json::array();
  for (const auto& t : trace_intervals(trace).transfers) {
    const double ts = to_double(t.start) * MS_PER_TIME_UNIT;
    const double dur = to_double(t.end - t.start) * MS_PER_TIME_UNIT;
    const auto link = g.link_name(t.from, t.port);
    events.push_back({{"name", "send to " + g.node_name(t.to)}, {"ph", "X"}, {"ts", ts}, {"dur", dur},
                      {"pid", 0}, {"tid", t.from}, {"args", {{"link", link}}}});
    events.push_back({{"name", "receive from " + g.node_name(t.from)}, {"ph", "X"}, {"ts", ts}, {"dur", dur},
                      {"pid", 0}, {"tid", t.to}, {"args", {{"link", link}}}});
  }
  for (emulator::NodeId v = 0; v < g.num_nodes(); ++v) {
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", v},
                      {"args", {{"name", "node " + g.node_name(v)}}}});
  }
  return nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump() + "\n";
}

}  // namespace

void TraceOutput::add_to(CLI::App& app, const std::string& what) {
  app.add_option("--trace", path, "Write " + what + " to FILE (see --trace-format)");
  app.add_option("--trace-format", format,
                 "jsonl: one JSON object per event (docs/emulator.md); chrome: Chrome trace-event JSON for Perfetto")
      ->check(CLI::IsMember({"jsonl", "chrome"}))
      ->capture_default_str();
}

template <class Time>
void TraceOutput::write(const std::vector<emulator::TraceEvent<Time>>& trace, const topology::Topology& topology) const {
  if (!wanted()) return;
  std::string text;
  if (format == "chrome") {
    text = chrome_trace(trace, topology);
  } else {
    for (const auto& e : trace) text += emulator::to_json_line(e, topology) + "\n";
  }
  write_file_atomically(path, text);
}

template void TraceOutput::write(const std::vector<emulator::TraceEvent<Rational>>&, const topology::Topology&) const;
template void TraceOutput::write(const std::vector<emulator::TraceEvent<double>>&, const topology::Topology&) const;

}  // namespace starnet::tools
