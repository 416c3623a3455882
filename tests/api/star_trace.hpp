#pragma once
// For the tests of a run's pictures (the Gantt chart, the space-time diagram): the trace of the
// star all-reduce on S_n, a real run of the emulator whose every transfer takes one step.

#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/star_graph.hpp>

#include <vector>

namespace starnet::api::testing {

inline std::vector<emulator::TraceEvent<Rational>> allreduce_trace(const topology::StarGraph& g) {
  const algorithms::star::Values values{};
  const auto expected = algorithms::star::reduce_sequentially(g, algorithms::star::Op::SUM, values);
  emulator::RunConfig config;
  config.trace = true;
  return emulator::LocalEngine<Rational>()
      .run(
          g, emulator::UnitCosts<Rational>(),
          [&](emulator::NodeRange r) {
            return algorithms::star::make_allreduce_program(g, algorithms::star::Op::SUM, values, expected, r);
          },
          config)
      .trace;
}

}  // namespace starnet::api::testing
