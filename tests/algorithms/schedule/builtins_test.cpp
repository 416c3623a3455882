// Every built-in algorithm exported as a schedule, written, read back and run: the same step
// count and the same trace as the built-in run.
#include "schedule_test_support.hpp"

#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/algorithms/generic/recursive_doubling.hpp>
#include <starnet/algorithms/generic/ring.hpp>
#include <starnet/algorithms/schedule/builtins.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::schedule::testing {
namespace {

using topology::NodeId;

const star::Values VALUES{true, 1};

/// Exports, writes, reads back and runs (unit time, strict, trace kept).
ScheduleRun round_trip(Builtin b, const std::string& spec, Collective c = Collective::ALLREDUCE, std::uint32_t root = 0) {
  const auto t = topology::make_topology(spec);
  const Schedule exported = export_builtin(b, *t, spec, c, root, {});
  const Schedule read = parse_schedule(write_schedule_json(exported, *t, spec), *t);
  EXPECT_EQ(read.transfers(), exported.transfers());
  ScheduleRunSettings settings;
  settings.config.trace = true;
  settings.values = VALUES;
  return run_schedule(read, *t, settings);
}

void expect_same_trace(const emulator::RunResult<Rational>& built_in, const ScheduleRun& file, bool payloads,
                       const std::string& what) {
  ASSERT_TRUE(file.verified) << what << ": " << file.report.first_problem();
  EXPECT_EQ(file.run.makespan, built_in.makespan) << what;
  ASSERT_EQ(file.run.trace.size(), built_in.trace.size()) << what;
  for (std::size_t i = 0; i < built_in.trace.size(); ++i) {
    const auto& a = built_in.trace[i];
    const auto& b = file.run.trace[i];
    if (payloads) {
      ASSERT_EQ(a.key(), b.key()) << what << " event " << i;
      ASSERT_EQ(a.payload, b.payload) << what << " event " << i;
      ASSERT_EQ(a.size, b.size) << what << " event " << i;
    } else {
      ASSERT_EQ(std::tie(a.step, a.node, a.kind, a.peer), std::tie(b.step, b.node, b.kind, b.peer)) << what << " event " << i;
    }
    ASSERT_EQ(a.port, b.port) << what << " event " << i;
  }
}

TEST(Builtins, StarAllReduceExportRunsAsTheBuiltInEventForEvent) {
  for (const int n : {2, 3, 4, 5}) {
    const topology::StarGraph g(n);
    emulator::RunConfig config;
    config.trace = true;
    const auto expected = star::reduce_sequentially(g, star::Op::SUM, VALUES);
    const auto built_in = emulator::LocalEngine<Rational>().run(
        g, emulator::UnitCosts<Rational>(),
        [&](emulator::NodeRange r) { return star::make_allreduce_program(g, star::Op::SUM, VALUES, expected, r); },
        config);
    const auto file = round_trip(Builtin::STAR_ALLREDUCE, "star:" + std::to_string(n));
    expect_same_trace(built_in, file, true, "star:" + std::to_string(n));
    EXPECT_EQ(file.run.makespan, Rational(static_cast<std::int64_t>(star::allreduce_steps(n))));
  }
}

TEST(Builtins, StarBroadcastExportIsANoDuplicateAllGatherWithTheBuiltInsPattern) {
  for (const int n : {3, 4, 5}) {
    const topology::StarGraph g(n);
    emulator::RunConfig config;
    config.trace = true;
    const auto built_in = emulator::LocalEngine<Rational>().run(
        g, emulator::UnitCosts<Rational>(), [&](emulator::NodeRange r) { return star::make_broadcast_program(g, r); },
        config);
    const auto spec = "star:" + std::to_string(n);
    const auto t = topology::make_topology(spec);
    const auto s = export_builtin(Builtin::STAR_BROADCAST, *t, spec, Collective::ALLGATHER, 0, {});
    // NODUP: every node receives each of the n! − 1 other chunks exactly once.
    EXPECT_EQ(s.chunks_moved(), g.size() * (g.size() - 1)) << spec;
    // The file's messages carry the chunks themselves, the built-in's a rank range: compare who
    // sends to whom, when.
    expect_same_trace(built_in, round_trip(Builtin::STAR_BROADCAST, spec, Collective::ALLGATHER), false, spec);
  }
}

/// Runs a what-if word plan with the generic program, as `whatif` does.
emulator::RunResult<Rational> run_generic(const generic::Schedule& plan, const topology::Topology& t,
                                          generic::Collective c, NodeId root) {
  std::vector<std::uint64_t> initial(t.num_nodes());
  for (NodeId v = 0; v < t.num_nodes(); ++v) initial[v] = VALUES.of(v);
  const auto expectation = generic::expected_result(c, star::Op::SUM, initial, root);
  emulator::RunConfig config;
  config.trace = true;
  return emulator::LocalEngine<Rational>().run(
      t, emulator::UnitCosts<Rational>(),
      [&](emulator::NodeRange r) {
        return generic::make_schedule_program(plan, initial, star::Op::SUM, expectation, emulator::TimeMode::UNIT, r);
      },
      config);
}

TEST(Builtins, RecursiveDoublingAndRingExportsRunAsTheBuiltIns) {
  for (const auto* spec : {"hypercube:2", "hypercube:3", "hypercube:4"}) {
    const auto t = topology::make_topology(spec);
    const auto built_in = run_generic(generic::recursive_doubling_schedule(*t, {}), *t, generic::Collective::ALLREDUCE, 0);
    expect_same_trace(built_in, round_trip(Builtin::RECURSIVE_DOUBLING, spec), true, spec);
  }
  for (const auto* spec : {"ring:2", "ring:5", "ring:8", "torus:3x4"}) {
    const auto t = topology::make_topology(spec);
    const auto built_in =
        run_generic(generic::ring_schedule(*t, generic::spec_rings(spec), {}), *t, generic::Collective::ALLREDUCE, 0);
    expect_same_trace(built_in, round_trip(Builtin::RING, spec), true, spec);
  }
}

TEST(Builtins, BfsTreeExportsRunAsTheBuiltInsForEachCollective) {
  const std::pair<Collective, generic::Collective> collectives[] = {
      {Collective::ALLREDUCE, generic::Collective::ALLREDUCE},
      {Collective::REDUCE, generic::Collective::REDUCE},
      {Collective::BROADCAST, generic::Collective::BROADCAST}};
  for (const auto* spec : {"star:4", "hypercube:3", "torus:3x3", "debruijn:4"}) {
    const auto t = topology::make_topology(spec);
    for (const auto& [c, g] : collectives) {
      const std::uint32_t root = 1;
      const auto plan = generic::bfs_tree_schedule(*t, root, g, 1);
      expect_same_trace(run_generic(plan.schedule, *t, g, root), round_trip(Builtin::BFS_TREE, spec, c, root), true,
                        std::string(spec) + " " + to_string(c));
    }
  }
}

TEST(Builtins, RefusesAlgorithmsOffTheirTopologiesAndCollectives) {
  const auto ring = topology::make_topology("ring:4");
  EXPECT_ERROR(ScheduleError, export_builtin(Builtin::STAR_ALLREDUCE, *ring, "ring:4", Collective::ALLREDUCE, 0, {}),
               "star-allreduce", "ring:4");
  EXPECT_ERROR(ScheduleError, export_builtin(Builtin::RING, *topology::make_topology("star:3"), "star:3",
                                             Collective::ALLREDUCE, 0, {}),
               "star:3");
  EXPECT_ERROR(ScheduleError, export_builtin(Builtin::RING, *ring, "ring:4", Collective::BROADCAST, 0, {}),
               "ring computes allreduce, not broadcast");
  EXPECT_ERROR(ScheduleError, export_builtin(Builtin::BFS_TREE, *ring, "ring:4", Collective::ALLTOALL, 0, {}),
               "not alltoall");
  const auto s8 = topology::make_topology("star:8");
  EXPECT_ERROR(ScheduleError, export_builtin(Builtin::STAR_BROADCAST, *s8, "star:8", Collective::ALLGATHER, 0, {}),
               "up to star:7");
}

}  // namespace
}  // namespace starnet::algorithms::schedule::testing
