#include <starnet/emulator/trace_intervals.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

namespace starnet::emulator {
template <class Time>
std::string describe_event(std::size_t index, const TraceEvent<Time>& e) {
  return fmt::format("trace event {} (step {}, time {}, {} at node {}, peer {}, tag {})", index, e.step,
                     time_text(e.time), to_string(e.kind), e.node, e.peer, e.tag);
}

namespace {

inline constexpr std::size_t UNMATCHED = static_cast<std::size_t>(-1);

/// First in, first out per key: the k-th closing event of a key ends the k-th opening event of that
/// key, provided that one came earlier in the trace. Sorting the events by key (stably, so that
/// each key keeps trace order) pairs them in O(E log E) without a queue per key.
/// @return for each closing event, the ordinal of its opening event, or UNMATCHED.
template <class Key>
std::vector<std::size_t> pair_in_order(const std::vector<Key>& open_keys, const std::vector<std::size_t>& open_at,
                                       const std::vector<Key>& close_keys, const std::vector<std::size_t>& close_at) {
  const auto by_key = [](const std::vector<Key>& keys) {
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    return order;
  };
  const auto opens = by_key(open_keys);
  const auto closes = by_key(close_keys);
  std::vector<std::size_t> match(close_keys.size(), UNMATCHED);
  std::size_t o = 0;
  for (std::size_t c = 0; c < closes.size();) {
    const Key& key = close_keys[closes[c]];
    while (o < opens.size() && open_keys[opens[o]] < key) ++o;
    for (; c < closes.size() && close_keys[closes[c]] == key; ++c) {
      if (o < opens.size() && open_keys[opens[o]] == key && open_at[opens[o]] < close_at[closes[c]]) {
        match[closes[c]] = opens[o++];
      } else if (o < opens.size() && open_keys[opens[o]] == key) {
        ++o;  // this close came before its opening: unmatched, and so are the later ones of the key
      }
    }
  }
  return match;
}

/// The first closing event, in trace order, left without an opening one (UNMATCHED: none).
std::size_t first_unmatched(const std::vector<std::size_t>& match, const std::vector<std::size_t>& close_at) {
  std::size_t first = UNMATCHED;
  for (std::size_t c = 0; c < match.size(); ++c) {
    if (match[c] == UNMATCHED) first = std::min(first, close_at[c]);
  }
  return first;
}

}  // namespace

template <class Time>
TraceIntervals<Time> trace_intervals(const std::vector<TraceEvent<Time>>& trace) {
  using LinkKey = std::tuple<NodeId, NodeId, std::uint64_t>;
  using NodeKey = std::pair<NodeId, std::uint64_t>;
  TraceIntervals<Time> out;
  for (const auto& e : trace) out.makespan = std::max(out.makespan, e.time);
  std::vector<LinkKey> send_keys, receive_keys;
  std::vector<NodeKey> compute_keys, end_keys;
  std::vector<std::size_t> send_at, receive_at, compute_at, end_at;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const auto& e = trace[i];
    switch (e.kind) {
      case EventKind::SEND:
        send_keys.emplace_back(e.node, e.peer, e.tag);
        send_at.push_back(i);
        out.transfers.push_back(
            {e.node, e.peer, e.port, e.tag, e.time, out.makespan, e.step, e.step, false, false, e.payload});
        break;
      case EventKind::RECEIVE:
      case EventKind::LOST:  // the message's journey ends there too
        receive_keys.emplace_back(e.peer, e.node, e.tag);
        receive_at.push_back(i);
        break;
      case EventKind::COMPUTE:
        compute_keys.emplace_back(e.node, e.tag);
        compute_at.push_back(i);
        out.computations.push_back({e.node, e.tag, e.time, out.makespan, false, e.size});
        break;
      case EventKind::COMPUTE_END:
        end_keys.emplace_back(e.node, e.tag);
        end_at.push_back(i);
        break;
      case EventKind::REQUEST:
      case EventKind::SEND_END:
      case EventKind::TIMER:
      case EventKind::CRASH:
      case EventKind::LINK_DOWN:
        break;  // waiting, the sender's notice and timers occupy no resource
    }
  }
  const auto received = pair_in_order(send_keys, send_at, receive_keys, receive_at);
  const auto ended = pair_in_order(compute_keys, compute_at, end_keys, end_at);
  const auto bad_receive = first_unmatched(received, receive_at);
  const auto bad_end = first_unmatched(ended, end_at);
  if (bad_receive < bad_end) {
    const auto& e = trace[bad_receive];
    throw InputError(fmt::format("{}: a receive without an earlier unmatched send from node {} to node {}",
                                 describe_event(bad_receive, e), e.peer, e.node));
  }
  if (bad_end != UNMATCHED) {
    const auto& e = trace[bad_end];
    throw InputError(fmt::format("{}: a compute_end without an earlier unmatched compute at node {}",
                                 describe_event(bad_end, e), e.node));
  }
  for (std::size_t r = 0; r < received.size(); ++r) {
    auto& t = out.transfers[received[r]];
    t.end = trace[receive_at[r]].time;
    t.end_step = trace[receive_at[r]].step;
    t.finished = true;
    t.lost = trace[receive_at[r]].kind == EventKind::LOST;
  }
  for (std::size_t c = 0; c < ended.size(); ++c) {
    auto& interval = out.computations[ended[c]];
    interval.end = trace[end_at[c]].time;
    interval.finished = true;
  }
  return out;
}

template TraceIntervals<Rational> trace_intervals(const std::vector<TraceEvent<Rational>>&);
template TraceIntervals<double> trace_intervals(const std::vector<TraceEvent<double>>&);
template std::string describe_event(std::size_t, const TraceEvent<Rational>&);
template std::string describe_event(std::size_t, const TraceEvent<double>&);

}  // namespace starnet::emulator
