#pragma once
/// @file
/// What happened during a run: the trace (one record per event) and the counters.
///
/// Trace format (`--trace FILE`, JSON lines, one event per line, in the order
/// step, round, node, event, peer):
///   {"step":3,"round":0,"time":"3","event":"send","node":"2134","peer":"1234","link":"link 2","size":"1",
///    "bytes":8,"tag":0,"payload":"0a00000000000000"}
/// events: "request" (a send asked for, arbitrated mode, when it has to wait), "send" (a transfer
/// starts), "receive" (it finished arriving; node = receiver, peer = sender), "send_end" (seen by
/// the sender), "compute" / "compute_end", "timer". `time` is exact ("7/2") for exact runs and a
/// decimal for stochastic ones; `step` is the index of the event time (equal to the time in unit
/// mode); `payload` is the message in hex; `round` orders reactions that happen at the same time (zero-duration events).

#include <starnet/emulator/program.hpp>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace starnet::topology {
class Topology;
}

namespace starnet::emulator {

/// LOST, CRASH and LINK_DOWN happen only in runs with faults (asynchrony.hpp): a message that does
/// not arrive (at its receiver, when it was due), a node that stops, a link that fails (at its
/// lower end's node, naming the other as peer).
enum class EventKind : std::uint8_t { REQUEST, SEND, RECEIVE, SEND_END, COMPUTE, COMPUTE_END, TIMER, LOST, CRASH,
                                      LINK_DOWN };
[[nodiscard]] std::string to_string(EventKind kind);

/// How a time is written: exact for exact runs ("7/2"), except in BRIEF where its denominator
/// exceeds 1,000 ("≈ 24.4441"); for stochastic runs the shortest decimal that reads back as the same
/// double (FULL: messages and files), or six significant digits (BRIEF: a drawing's labels, where
/// room is short).
enum class TimeText : std::uint8_t { FULL, BRIEF };
[[nodiscard]] std::string time_text(const Rational& t, TimeText style = TimeText::FULL);
[[nodiscard]] std::string time_text(double t, TimeText style = TimeText::FULL);

template <class Time>
struct TraceEvent {
  std::uint64_t step = 0;
  std::uint32_t round = 0;
  Time time{};
  EventKind kind = EventKind::SEND;
  NodeId node = 0;
  NodeId peer = 0;
  Port port = 0;  ///< the sender's port for transfer events
  std::uint64_t tag = 0;
  Rational size = 0;  ///< message size, or work of a computation
  std::uint64_t bytes = 0;
  std::string payload;  ///< the message, for "send" and "receive" events
  /// The order in which traces are written: independent of how nodes were partitioned.
  [[nodiscard]] auto key() const { return std::tie(step, round, node, kind, peer, tag); }
};

/// Counters of a run (always kept, summed over workers).
struct Counters {
  std::uint64_t event_times = 0;     ///< distinct event times processed (steps of the trace)
  std::uint64_t messages = 0;        ///< transfers completed
  std::uint64_t payload_bytes = 0;   ///< payload bytes of completed transfers
  std::uint64_t computations = 0;
  std::uint64_t lost = 0;            ///< messages that did not arrive (loss, a crash, a failed link)
  unsigned max_concurrent_sends = 0;     ///< most sends one node had in flight at once
  unsigned max_concurrent_receives = 0;  ///< most receives one node had in flight at once
  void merge(const Counters& other);
};

/// One JSON line per event. @p topology names nodes and links.
template <class Time>
[[nodiscard]] std::string to_json_line(const TraceEvent<Time>& e, const topology::Topology& topology);

}  // namespace starnet::emulator
