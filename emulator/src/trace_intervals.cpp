#include <starnet/emulator/trace_intervals.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>
#include <type_traits>

namespace starnet::emulator {
namespace {

/// Exact where the time is exact ("7/2"), shortest decimal otherwise.
template <class Time>
std::string time_text(const Time& t) {
  if constexpr (std::is_same_v<Time, Rational>) {
    return t.to_string();
  } else {
    return fmt::format("{:g}", t);
  }
}

}  // namespace

template <class Time>
std::string describe_event(std::size_t index, const TraceEvent<Time>& e) {
  return fmt::format("trace event {} (step {}, time {}, {} at node {}, peer {}, tag {})", index, e.step,
                     time_text(e.time), to_string(e.kind), e.node, e.peer, e.tag);
}

template <class Time>
TraceIntervals<Time> trace_intervals(const std::vector<TraceEvent<Time>>& trace) {
  TraceIntervals<Time> out;
  for (const auto& e : trace) out.makespan = std::max(out.makespan, e.time);
  std::map<std::tuple<NodeId, NodeId, std::uint64_t>, std::deque<std::size_t>> in_flight;
  std::map<std::pair<NodeId, std::uint64_t>, std::deque<std::size_t>> computing;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const auto& e = trace[i];
    switch (e.kind) {
      case EventKind::SEND:
        in_flight[{e.node, e.peer, e.tag}].push_back(out.transfers.size());
        out.transfers.push_back(
            {e.node, e.peer, e.port, e.tag, e.time, out.makespan, e.step, e.step, false, e.payload});
        break;
      case EventKind::RECEIVE: {
        auto& queue = in_flight[{e.peer, e.node, e.tag}];
        if (queue.empty()) {
          throw InputError(fmt::format("{}: a receive without an earlier unmatched send from node {} to node {}",
                                       describe_event(i, e), e.peer, e.node));
        }
        auto& t = out.transfers[queue.front()];
        queue.pop_front();
        t.end = e.time;
        t.end_step = e.step;
        t.finished = true;
        break;
      }
      case EventKind::COMPUTE:
        computing[{e.node, e.tag}].push_back(out.computations.size());
        out.computations.push_back({e.node, e.tag, e.time, out.makespan, false, e.size});
        break;
      case EventKind::COMPUTE_END: {
        auto& queue = computing[{e.node, e.tag}];
        if (queue.empty()) {
          throw InputError(fmt::format("{}: a compute_end without an earlier unmatched compute at node {}",
                                       describe_event(i, e), e.node));
        }
        auto& c = out.computations[queue.front()];
        queue.pop_front();
        c.end = e.time;
        c.finished = true;
        break;
      }
      case EventKind::REQUEST:
      case EventKind::SEND_END:
      case EventKind::TIMER:
        break;  // waiting, the sender's notice and timers occupy no resource
    }
  }
  return out;
}

template TraceIntervals<Rational> trace_intervals(const std::vector<TraceEvent<Rational>>&);
template TraceIntervals<double> trace_intervals(const std::vector<TraceEvent<double>>&);
template std::string describe_event(std::size_t, const TraceEvent<Rational>&);
template std::string describe_event(std::size_t, const TraceEvent<double>&);

}  // namespace starnet::emulator
