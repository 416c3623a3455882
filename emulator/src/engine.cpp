#include "dense_step.hpp"
#include "trace_order.hpp"
#include "worker.hpp"

#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <chrono>
#include <type_traits>

namespace starnet::emulator {

std::vector<NodeRange> partition_nodes(const topology::Topology& topology, unsigned parts) {
  const NodeId n = topology.num_nodes();
  if (parts == 0) throw UsageError(Setting{"workers", "0"}, "at least one worker is needed");
  if (parts > n) {
    throw UsageError(Setting{"workers", std::to_string(parts)},
                     fmt::format("more workers than the {} nodes of {} (use at most {})", n, topology.name(), n));
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

namespace {

/// The dense step path, on lanes of their own program each when config.threads allows: false
/// (and the program built, when there is one lane) when the programs do not only send. The
/// first lane's program says so before the others are built.
bool run_dense(const topology::Topology& topology, const ProgramFactory& factory, const RunConfig& config,
               RunResult<Rational>& result) {
  const auto lanes = DenseStep::lanes(topology.num_nodes(), config);
  const auto ranges =
      lanes == 1 ? std::vector<NodeRange>{{0, topology.num_nodes()}} : partition_nodes(topology, lanes);
  result.programs.push_back(factory(ranges.front()));
  if (!result.programs.front()->sends_only()) {
    if (lanes > 1) result.programs.clear();
    return false;
  }
  for (std::size_t l = 1; l < ranges.size(); ++l) result.programs.push_back(factory(ranges[l]));
  std::vector<NodeProgram*> programs;
  for (const auto& p : result.programs) programs.push_back(p.get());
  DenseStep steps;
  const auto keep = [&] {
    result.makespan = steps.makespan();
    result.counters = steps.counters();
    result.trace = steps.take_trace();
  };
  try {
    steps.run(topology, config, programs, ranges);
  } catch (...) {
    keep();  // a failed run keeps its evidence (Engine::take_stopped)
    throw;
  }
  keep();
  return true;
}

}  // namespace

template <class Time>
RunResult<Time> LocalEngine<Time>::run(const topology::Topology& topology, const CostModel<Time>& costs,
                                       const ProgramFactory& factory, const RunConfig& config) {
  const auto start = std::chrono::steady_clock::now();
  this->stopped_ = {};
  RunResult<Time> result;
  bool dense = false;
  bool general = false;
  const auto keep_general = [&] {
    result.makespan = worker_->makespan();
    result.counters = worker_->counters();
    result.trace = std::move(worker_->trace());
  };
  try {
    if constexpr (std::is_same_v<Time, Rational>) {
      if (config.dense_steps && DenseStep::qualifies(topology, costs, config)) {
        dense = run_dense(topology, factory, config, result);
      }
    }
    if (!dense) {
      if (result.programs.empty()) result.programs.push_back(factory({0, topology.num_nodes()}));
      worker_->reset(topology, costs, config, {{0, topology.num_nodes()}}, 0, *result.programs.front(), nullptr);
      general = true;
      worker_->run();
    }
  } catch (...) {
    if (general) keep_general();
    sort_trace(result.trace);
    this->stopped_ = std::move(result);
    throw;
  }
  if (!dense) keep_general();
  sort_trace(result.trace);
  for (const auto& p : result.programs) result.reports.push_back(p->report());
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

template class LocalEngine<Rational>;
template class LocalEngine<double>;

}  // namespace starnet::emulator
