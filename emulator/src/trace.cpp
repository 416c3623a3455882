// Trace events and counters (trace.hpp): their names, merging, and the JSON line of an event.
#include <starnet/emulator/trace.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <type_traits>

namespace starnet::emulator {

std::string to_string(EventKind kind) {
  switch (kind) {
    case EventKind::REQUEST: return "request";
    case EventKind::SEND: return "send";
    case EventKind::RECEIVE: return "receive";
    case EventKind::SEND_END: return "send_end";
    case EventKind::COMPUTE: return "compute";
    case EventKind::COMPUTE_END: return "compute_end";
    case EventKind::TIMER: return "timer";
    case EventKind::LOST: return "lost";
    case EventKind::CRASH: return "crash";
    case EventKind::LINK_DOWN: return "link_down";
  }
  return "?";
}

void Counters::merge(const Counters& other) {
  event_times = std::max(event_times, other.event_times);
  messages += other.messages;
  payload_bytes += other.payload_bytes;
  computations += other.computations;
  lost += other.lost;
  max_concurrent_sends = std::max(max_concurrent_sends, other.max_concurrent_sends);
  max_concurrent_receives = std::max(max_concurrent_receives, other.max_concurrent_receives);
}

namespace {
/// A BRIEF exact time with a larger denominator is written to six digits: the exact sums of an
/// asynchronous run's double draws have denominators of 2^52 (docs/emulator.md, "Asynchrony and faults").
constexpr std::int64_t BRIEF_DENOMINATOR_MAX = 1000;
}  // namespace

std::string time_text(const Rational& t, TimeText style) {
  if (style == TimeText::FULL || (t.is_small() && t.den() <= BRIEF_DENOMINATOR_MAX)) return t.to_string();
  return fmt::format("≈ {:.6g}", t.to_double());
}

std::string time_text(double t, TimeText style) {
  return style == TimeText::BRIEF ? fmt::format("{:g}", t) : fmt::format("{}", t);
}

template <class Time>
std::string to_json_line(const TraceEvent<Time>& e, const topology::Topology& topology) {
  // Exact times are strings in JSON, stochastic ones numbers.
  const bool exact = std::is_same_v<Time, Rational>;
  const std::string time = exact ? fmt::format("\"{}\"", time_text(e.time)) : time_text(e.time);
  std::string line = fmt::format(R"({{"step":{},"round":{},"time":{},"event":"{}","node":"{}")", e.step, e.round, time,
                                 to_string(e.kind), topology.node_name(e.node));
  switch (e.kind) {
    case EventKind::REQUEST:
    case EventKind::SEND:
    case EventKind::RECEIVE:
    case EventKind::LOST: {
      const NodeId from = e.kind == EventKind::RECEIVE || e.kind == EventKind::LOST ? e.peer : e.node;
      std::string hex;
      for (const unsigned char c : e.payload) hex += fmt::format("{:02x}", c);
      line += fmt::format(R"(,"peer":"{}","link":"{}","size":"{}","bytes":{},"tag":{},"payload":"{}")",
                          topology.node_name(e.peer), topology.link_name(from, e.port), e.size.to_string(), e.bytes,
                          e.tag, hex);
      break;
    }
    case EventKind::SEND_END:
      line += fmt::format(R"(,"peer":"{}","tag":{})", topology.node_name(e.peer), e.tag);
      break;
    case EventKind::COMPUTE:
    case EventKind::COMPUTE_END:
      line += fmt::format(R"(,"work":"{}","tag":{})", e.size.to_string(), e.tag);
      break;
    case EventKind::TIMER:
      line += fmt::format(R"(,"tag":{})", e.tag);
      break;
    case EventKind::CRASH: break;
    case EventKind::LINK_DOWN:
      line += fmt::format(R"(,"peer":"{}")", topology.node_name(e.peer));
      break;
  }
  return line + "}";
}

template std::string to_json_line(const TraceEvent<Rational>&, const topology::Topology&);
template std::string to_json_line(const TraceEvent<double>&, const topology::Topology&);

}  // namespace starnet::emulator
