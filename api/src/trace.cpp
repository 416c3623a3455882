#include <starnet/api/trace.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace starnet::api {
namespace {

double to_double(const Rational& t) { return t.to_double(); }
double to_double(double t) { return t; }

/// Chrome trace-event format: one complete event ("X") per transfer on the sender's row and one
/// on the receiver's row of process @p pid, and each row named after its node.
template <class Time>
void chrome_events(const std::vector<TraceEvent<Time>>& trace, const topology::Topology& g, int pid,
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
  for (NodeId v = 0; v < g.num_nodes(); ++v) {
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", v},
                      {"args", {{"name", "node " + g.node_name(v)}}}});
  }
}

}  // namespace

TraceFormat parse_trace_format(std::string_view text, std::string_view setting) {
  const auto at = std::find(TRACE_FORMATS.begin(), TRACE_FORMATS.end(), text);
  if (at == TRACE_FORMATS.end()) {
    throw UsageError(Setting{std::string(setting), std::string(text)}, "expected jsonl or chrome");
  }
  return static_cast<TraceFormat>(at - TRACE_FORMATS.begin());
}

template <class Time>
void TraceFile::add(const std::vector<TraceEvent<Time>>& trace, const topology::Topology& topology,
                    const std::string& name) {
  const int run = runs_++;
  if (format_ == TraceFormat::CHROME) {
    if (!name.empty()) events_.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", run}, {"args", {{"name", name}}}});
    chrome_events(trace, topology, run, events_);
    return;
  }
  // Each event line is a JSON object: the run number, when there is one, goes first.
  const std::string prefix = "{\"run\":" + std::to_string(run) + ",";
  for (const auto& e : trace) {
    const std::string line = to_json_line(e, topology);
    lines_ += (numbered_ ? prefix + line.substr(1) : line) + "\n";
  }
}

std::string TraceFile::text() const {
  if (format_ == TraceFormat::CHROME) {
    return nlohmann::json{{"traceEvents", events_}, {"displayTimeUnit", "ms"}}.dump() + "\n";
  }
  return lines_;
}

template <class Time>
std::string trace_text(const std::vector<TraceEvent<Time>>& trace, const topology::Topology& topology,
                       TraceFormat format) {
  TraceFile file(format, false);
  file.add(trace, topology);
  return file.text();
}

template void TraceFile::add(const std::vector<TraceEvent<Rational>>&, const topology::Topology&, const std::string&);
template void TraceFile::add(const std::vector<TraceEvent<double>>&, const topology::Topology&, const std::string&);
template std::string trace_text(const std::vector<TraceEvent<Rational>>&, const topology::Topology&, TraceFormat);
template std::string trace_text(const std::vector<TraceEvent<double>>&, const topology::Topology&, TraceFormat);

}  // namespace starnet::api
