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
  /// Runs @p program over the nodes of @p parts[@p self] to the end. @throws as Worker::run, and
  /// keeps what the share did up to there (a failed run's evidence, Engine::take_stopped).
  void run(const topology::Topology& topology, const CostModel<Time>& costs, const RunConfig& config,
           const std::vector<NodeRange>& parts, unsigned self, NodeProgram& program, Exchange<Time>& exchange) {
    if constexpr (std::is_same_v<Time, Rational>) {
      if (config.dense_steps && DenseStep::workers_apply(topology, costs, config, program)) {
        RunConfig one_lane = config;  // the workers are the lanes
        one_lane.threads = 1;
        DenseStep dense;
        try {
          dense.run(topology, one_lane, program, parts, self, exchange);
        } catch (...) {
          keep(dense.makespan(), dense.counters(), dense.take_trace());
          throw;
        }
        keep(dense.makespan(), dense.counters(), dense.take_trace());
        return;
      }
    }
    Worker<Time> worker;
    worker.reset(topology, costs, config, parts, self, program, &exchange);
    try {
      worker.run();
    } catch (...) {
      keep(worker.makespan(), worker.counters(), std::move(worker.trace()));
      throw;
    }
    keep(worker.makespan(), worker.counters(), std::move(worker.trace()));
  }

  [[nodiscard]] const Time& makespan() const { return makespan_; }
  [[nodiscard]] const Counters& counters() const { return counters_; }
  [[nodiscard]] std::vector<TraceEvent<Time>>& trace() { return trace_; }

 private:
  template <class T>
  void keep(const T& makespan, const Counters& counters, std::vector<TraceEvent<Time>> trace) {
    makespan_ = makespan;
    counters_ = counters;
    trace_ = std::move(trace);
  }

  Time makespan_{};
  Counters counters_;
  std::vector<TraceEvent<Time>> trace_;
};

}  // namespace starnet::emulator
