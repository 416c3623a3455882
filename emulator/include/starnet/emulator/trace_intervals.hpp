#pragma once
/// @file
/// A trace read back as intervals: each "send" paired with its "receive" (a transfer), each
/// "compute" with its "compute_end" — what the Gantt charts, the teaching pages and the Python
/// module's pictures draw. Everything is read from the trace (what happened), never recomputed
/// from the algorithm.
///
/// IMPORTANT: a transfer is matched to the earliest unmatched send with the same sender, receiver
/// and tag (first in, first out), which is what the emulator's engines do on one link; a trace
/// edited by hand so that equal keys overtake each other is paired in swapped order.

#include <starnet/emulator/trace.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starnet::emulator {

/// A transfer as the trace tells it: a "send" event paired with its "receive".
template <class Time>
struct TransferInterval {
  NodeId from = 0;
  NodeId to = 0;
  Port port = 0;  ///< the sender's port
  std::uint64_t tag = 0;
  Time start{};
  Time end{};  ///< the receive time; the trace's last time when unfinished
  std::uint64_t start_step = 0;
  std::uint64_t end_step = 0;
  bool finished = false;  ///< false: still in flight when the trace ends (a horizon cut it)
  /// It ended lost, not received (a run with faults, emulator/asynchrony.hpp): `end` is when it was due.
  bool lost = false;
  std::string payload;
};

/// A computation: a "compute" event paired with its "compute_end".
template <class Time>
struct ComputeInterval {
  NodeId node = 0;
  std::uint64_t tag = 0;
  Time start{};
  Time end{};
  bool finished = false;
  Rational work = 0;
};

template <class Time>
struct TraceIntervals {
  std::vector<TransferInterval<Time>> transfers;    ///< in the order of their "send" events
  std::vector<ComputeInterval<Time>> computations;  ///< in the order of their "compute" events
  Time makespan{};                                  ///< time of the last event (0 for an empty trace)
};

/// Pairs the events of @p trace into transfers and computations.
/// @param trace events in the emulator's order (RunResult::trace, sorted by TraceEvent::key()).
/// @return the intervals; transfers and computations without an end event are kept, unfinished.
/// @throws InputError naming the event (index, step, nodes, tag) when a "receive" has no earlier
/// unmatched "send" or a "compute_end" no earlier unmatched "compute".
/// Complexity: O(E log E).
template <class Time>
[[nodiscard]] TraceIntervals<Time> trace_intervals(const std::vector<TraceEvent<Time>>& trace);

/// "trace event 12 (step 3, time 7/2, receive at node 4, peer 1, tag 0)", for messages.
template <class Time>
[[nodiscard]] std::string describe_event(std::size_t index, const TraceEvent<Time>& e);

}  // namespace starnet::emulator
