#include "worker.hpp"

#include <starnet/emulator/engine.hpp>
#include <starnet/topology/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <chrono>

namespace starnet::emulator {

std::string PortModel::to_string() const {
  return fmt::format("{}-port {}-duplex", ports == 1 ? std::string("single") : std::to_string(ports),
                     half_duplex ? "half" : "full");
}

std::string to_string(Checking checking) { return checking == Checking::STRICT ? "strict" : "arbitrated"; }
std::string to_string(TimeMode mode) { return mode == TimeMode::UNIT ? "unit" : "timed"; }

Checking parse_checking(std::string_view text, std::string_view what) {
  if (text == "strict") return Checking::STRICT;
  if (text == "arbitrated") return Checking::ARBITRATED;
  throw UsageError(fmt::format("{}: \"{}\" is not a checking mode (expected strict or arbitrated)", what, text));
}

std::string to_string(EventKind kind) {
  switch (kind) {
    case EventKind::REQUEST: return "request";
    case EventKind::SEND: return "send";
    case EventKind::RECEIVE: return "receive";
    case EventKind::SEND_END: return "send_end";
    case EventKind::COMPUTE: return "compute";
    case EventKind::COMPUTE_END: return "compute_end";
    case EventKind::TIMER: return "timer";
  }
  return "?";
}

void Counters::merge(const Counters& other) {
  event_times = std::max(event_times, other.event_times);
  messages += other.messages;
  payload_bytes += other.payload_bytes;
  computations += other.computations;
  max_concurrent_sends = std::max(max_concurrent_sends, other.max_concurrent_sends);
  max_concurrent_receives = std::max(max_concurrent_receives, other.max_concurrent_receives);
}

template <class Time>
std::string to_json_line(const TraceEvent<Time>& e, const topology::Topology& topology) {
  std::string time;
  if constexpr (std::is_same_v<Time, Rational>) {
    time = fmt::format("\"{}\"", e.time.to_string());
  } else {
    time = fmt::format("{}", e.time);
  }
  std::string line = fmt::format(R"({{"step":{},"round":{},"time":{},"event":"{}","node":"{}")", e.step, e.round, time,
                                 to_string(e.kind), topology.node_name(e.node));
  switch (e.kind) {
    case EventKind::REQUEST:
    case EventKind::SEND:
    case EventKind::RECEIVE: {
      const NodeId from = e.kind == EventKind::RECEIVE ? e.peer : e.node;
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
  }
  return line + "}";
}

template std::string to_json_line(const TraceEvent<Rational>&, const topology::Topology&);
template std::string to_json_line(const TraceEvent<double>&, const topology::Topology&);

std::vector<NodeRange> partition_nodes(const topology::Topology& topology, unsigned parts) {
  const NodeId n = topology.num_nodes();
  if (parts == 0) throw UsageError("--workers 0: at least one worker is needed");
  if (parts > n) {
    throw UsageError(fmt::format("--workers {}: more workers than the {} nodes of {} (use at most {})", parts, n,
                                 topology.name(), n));
  }
  // Cut on multiples of `block` nodes: m! on a star graph (whole sub-stars S_m), 1 elsewhere.
  NodeId block = 1;
  if (const auto* star = dynamic_cast<const topology::StarGraph*>(&topology)) {
    for (int m = star->n(); m >= 1; --m) {
      const NodeId size = topology::StarGraph::factorial(m);
      if (n / size >= parts) {
        block = size;
        break;
      }
    }
  }
  const NodeId blocks = n / block;
  std::vector<NodeRange> out;
  NodeId begin = 0;
  for (unsigned p = 0; p < parts; ++p) {
    const NodeId end = (blocks * (p + 1) / parts) * block;
    out.push_back({begin, p + 1 == parts ? n : end});
    begin = end;
  }
  return out;
}

template <class Time>
LocalEngine<Time>::LocalEngine() : worker_(std::make_unique<Worker<Time>>()) {}
template <class Time>
LocalEngine<Time>::~LocalEngine() = default;
template <class Time>
LocalEngine<Time>::LocalEngine(LocalEngine&&) noexcept = default;
template <class Time>
LocalEngine<Time>& LocalEngine<Time>::operator=(LocalEngine&&) noexcept = default;

template <class Time>
RunResult<Time> LocalEngine<Time>::run(const topology::Topology& topology, const CostModel<Time>& costs,
                                       const ProgramFactory& factory, const RunConfig& config) {
  const auto start = std::chrono::steady_clock::now();
  RunResult<Time> result;
  const NodeRange all{0, topology.num_nodes()};
  result.programs.push_back(factory(all));
  worker_->reset(topology, costs, config, {all}, 0, *result.programs.front(), nullptr);
  worker_->run();
  result.makespan = worker_->makespan();
  result.counters = worker_->counters();
  result.trace = std::move(worker_->trace());
  std::sort(result.trace.begin(), result.trace.end(), [](const auto& a, const auto& b) { return a.key() < b.key(); });
  result.reports.push_back(result.programs.front()->report());
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

template class LocalEngine<Rational>;
template class LocalEngine<double>;

}  // namespace starnet::emulator
