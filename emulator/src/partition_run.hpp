#pragma once
// One zmq worker's share of a run, as worker threads (zmq_threads.cpp) and worker processes
// (zmq_worker_process.cpp) run it: the dense step path wherever the local engine would take it
// (DenseStep::workers_apply), with the step's messages for other workers as columns; the general
// core otherwise. Private to the emulator library.

#include "dense_step.hpp"
#include "protocol.hpp"
#include "worker.hpp"

#include <starnet/emulator/config.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/emulator/trace.hpp>
#include <starnet/topology/topology.hpp>

#include <type_traits>
#include <utility>
#include <vector>

namespace starnet::emulator {

template <class Time>
class PartitionRun {
 public:
  /// Runs @p program over the nodes of @p parts[@p self] to the end. @throws as Worker::run.
  void run(const topology::Topology& topology, const CostModel<Time>& costs, const RunConfig& config,
           const std::vector<NodeRange>& parts, unsigned self, NodeProgram& program, Exchange<Time>& exchange) {
    if constexpr (std::is_same_v<Time, Rational>) {
      if (config.dense_steps && DenseStep::workers_apply(topology, costs, config, program)) {
        RunConfig one_lane = config;  // the workers are the lanes
        one_lane.threads = 1;
        DenseStep dense;
        dense.run(topology, one_lane, program, parts, self, exchange);
        makespan_ = dense.makespan();
        counters_ = dense.counters();
        trace_ = dense.take_trace();
        return;
      }
    }
    Worker<Time> worker;
    worker.reset(topology, costs, config, parts, self, program, &exchange);
    worker.run();
    makespan_ = worker.makespan();
    counters_ = worker.counters();
    trace_ = std::move(worker.trace());
  }

  [[nodiscard]] const Time& makespan() const { return makespan_; }
  [[nodiscard]] const Counters& counters() const { return counters_; }
  [[nodiscard]] std::vector<TraceEvent<Time>>& trace() { return trace_; }

 private:
  Time makespan_{};
  Counters counters_;
  std::vector<TraceEvent<Time>> trace_;
};

}  // namespace starnet::emulator
