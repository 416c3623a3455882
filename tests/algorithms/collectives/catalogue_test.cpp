// The catalogue: every algorithm × collective × family it lists, built, written, read back and run
// on the emulator at small sizes, verified chunk by chunk; the word plans and the star algorithms
// event for event as the built-ins run them; refusals naming the input.
#include "starnet_test_paths.hpp"
#include "../schedule/schedule_test_support.hpp"

#include "../../core/expect_error.hpp"

#include <starnet/algorithms/collectives/block_collectives.hpp>
#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/algorithms/generic/recursive_doubling.hpp>
#include <starnet/algorithms/generic/ring.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

namespace starnet::algorithms::collectives {
namespace {

namespace sch = algorithms::schedule;
using sch::Schedule;
using sch::ScheduleRun;
using sch::ScheduleRunSettings;
using sch::testing::parse_schedule;
using topology::NodeId;

const star::Values VALUES{true, 1};

/// Exports, writes, reads back and runs (unit time, strict, trace kept).
ScheduleRun round_trip(Algorithm a, const std::string& spec, Collective c = Collective::ALLREDUCE, std::uint32_t root = 0,
                       const emulator::PortModel& ports = {}) {
  const auto t = topology::make_topology(spec);
  const Schedule exported = build(a, c, *t, spec, root, ports).schedule;
  const Schedule read = parse_schedule(sch::write_schedule_json(exported, *t, spec), *t);
  EXPECT_EQ(read.transfers(), exported.transfers());
  ScheduleRunSettings settings;
  settings.config.trace = true;
  settings.config.ports = ports;
  settings.values = VALUES;
  return sch::run_schedule(read, *t, settings);
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

TEST(Catalogue, StarAllReduceExportRunsAsTheBuiltInEventForEvent) {
  for (const int n : {2, 3, 4, 5}) {
    const topology::StarGraph g(n);
    emulator::RunConfig config;
    config.trace = true;
    const auto expected = star::reduce_sequentially(g, star::Op::SUM, VALUES);
    const auto built_in = emulator::LocalEngine<Rational>().run(
        g, emulator::UnitCosts<Rational>(),
        [&](emulator::NodeRange r) { return star::make_allreduce_program(g, star::Op::SUM, VALUES, expected, r); },
        config);
    const auto file = round_trip(Algorithm::STAR, "star:" + std::to_string(n));
    expect_same_trace(built_in, file, true, "star:" + std::to_string(n));
    EXPECT_EQ(file.run.makespan, Rational(static_cast<std::int64_t>(star::allreduce_steps(n))));
  }
}

TEST(Catalogue, StarBroadcastExportIsANoDuplicateAllGatherWithTheBuiltInsPattern) {
  for (const int n : {3, 4, 5}) {
    const topology::StarGraph g(n);
    emulator::RunConfig config;
    config.trace = true;
    const auto built_in = emulator::LocalEngine<Rational>().run(
        g, emulator::UnitCosts<Rational>(), [&](emulator::NodeRange r) { return star::make_broadcast_program(g, r); },
        config);
    const auto spec = "star:" + std::to_string(n);
    const auto t = topology::make_topology(spec);
    const auto s = build(Algorithm::STAR, Collective::ALLGATHER, *t, spec, 0, {}).schedule;
    // NODUP: every node receives each of the n! − 1 other chunks exactly once.
    EXPECT_EQ(s.chunks_moved(), g.size() * (g.size() - 1)) << spec;
    // The file's messages carry the chunks themselves, the built-in's a rank range: compare who
    // sends to whom, when.
    expect_same_trace(built_in, round_trip(Algorithm::STAR, spec, Collective::ALLGATHER), false, spec);
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

TEST(Catalogue, RecursiveDoublingAndRingExportsRunAsTheBuiltIns) {
  for (const auto* spec : {"hypercube:2", "hypercube:3", "hypercube:4"}) {
    const auto t = topology::make_topology(spec);
    const auto built_in = run_generic(generic::recursive_doubling_schedule(*t, {}), *t, generic::Collective::ALLREDUCE, 0);
    expect_same_trace(built_in, round_trip(Algorithm::RECURSIVE_DOUBLING, spec), true, spec);
  }
  for (const auto* spec : {"ring:2", "ring:5", "ring:8", "torus:3x4"}) {
    const auto t = topology::make_topology(spec);
    const auto built_in =
        run_generic(generic::ring_schedule(*t, generic::spec_rings(spec), {}), *t, generic::Collective::ALLREDUCE, 0);
    expect_same_trace(built_in, round_trip(Algorithm::RING, spec), true, spec);
  }
}

TEST(Catalogue, BfsTreeExportsRunAsTheBuiltInsForEachCollective) {
  const std::pair<Collective, generic::Collective> collectives[] = {
      {Collective::ALLREDUCE, generic::Collective::ALLREDUCE},
      {Collective::REDUCE, generic::Collective::REDUCE},
      {Collective::BROADCAST, generic::Collective::BROADCAST}};
  for (const auto* spec : {"star:4", "hypercube:3", "torus:3x3", "debruijn:4"}) {
    const auto t = topology::make_topology(spec);
    for (const auto& [c, g] : collectives) {
      const std::uint32_t root = 1;
      const auto plan = generic::bfs_tree_schedule(*t, root, g, 1);
      expect_same_trace(run_generic(plan.schedule, *t, g, root), round_trip(Algorithm::BFS_TREE, spec, c, root), true,
                        std::string(spec) + " " + to_string(c));
    }
  }
}

TEST(Catalogue, OneNodeGetsZeroStepSchedulesAndTheGroupAlgorithmsSayWhyNot) {
  // complete:1 was a Cayley family without a group: building Bruck's or the uniform schedule
  // failed on topology "" and took every row of the study with it.
  const auto one = topology::make_topology("complete:1");
  const Shape shape = shape_of(*one, "complete:1");
  for (const Collective c : ALL_COLLECTIVES) {
    for (const Algorithm a : algorithms_for(c, shape)) {
      const Built b = build(a, c, *one, "complete:1", 0, {});
      EXPECT_EQ(b.schedule.steps(), 0U) << to_string(a) << " " << to_string(c);
    }
  }
  for (const Algorithm a : {Algorithm::BRUCK, Algorithm::UNIFORM, Algorithm::ONE_PACKET, Algorithm::COMBINING}) {
    const Collective c = a == Algorithm::UNIFORM ? Collective::ALLGATHER : Collective::ALLTOALL;
    EXPECT_ERROR(ScheduleError, build(a, c, *one, "complete:1", 0, {}), to_string(a), "two nodes or more",
                 "complete:1 has 1");
  }
}

TEST(Catalogue, RefusesAlgorithmsOffTheirTopologiesAndCollectivesNamingThem) {
  const auto ring = topology::make_topology("ring:4");
  EXPECT_ERROR(ScheduleError, build(Algorithm::STAR, Collective::ALLREDUCE, *ring, "ring:4", 0, {}), "star",
               "star graphs", "ring:4");
  EXPECT_ERROR(ScheduleError,
               build(Algorithm::RING, Collective::ALLREDUCE, *topology::make_topology("star:3"), "star:3", 0, {}),
               "star:3");
  EXPECT_ERROR(ScheduleError, build(Algorithm::RING, Collective::BROADCAST, *ring, "ring:4", 0, {}),
               "ring computes allreduce, allgather, reducescatter, not broadcast");
  EXPECT_ERROR(ScheduleError, build(Algorithm::BRUCK, Collective::ALLTOALL, *ring, "ring:4", 0, {}), "bruck",
               "complete graphs", "ring:4");
  EXPECT_ERROR(ScheduleError,
               build(Algorithm::RECURSIVE_HALVING, Collective::REDUCESCATTER, *topology::make_topology("complete:6"),
                     "complete:6", 0, {}),
               "2^k nodes", "complete:6");
  EXPECT_ERROR(ScheduleError,
               build(Algorithm::ONE_PACKET, Collective::ALLTOALL, *topology::make_topology("mesh:2x3"), "mesh:2x3", 0,
                     {}),
               "Cayley graphs", "mesh:2x3");
  const auto s8 = topology::make_topology("star:8");
  EXPECT_ERROR(ScheduleError, build(Algorithm::STAR, Collective::ALLGATHER, *s8, "star:8", 0, {}), "up to star:7");
  const auto k200 = topology::make_topology("complete:200");
  EXPECT_ERROR(ScheduleError, build(Algorithm::BFS_TREE, Collective::ALLTOALL, *k200, "complete:200", 0, {}),
               "complete:200", "200 nodes", "128");
  EXPECT_FALSE(find_builtin("bogus"));
  EXPECT_EQ(find_builtin("star-broadcast"), Algorithm::STAR);
}

TEST(Catalogue, TheStarAllGatherIsBuiltUpToStar7BeyondTheOtherBlockedCollectivesLimit) {
  // S_7 has 5,040 nodes, above MAX_BLOCK_NODES: the star algorithm has its own limit, star:7.
  const auto s7 = topology::make_topology("star:7");
  ASSERT_GT(s7->num_nodes(), MAX_BLOCK_NODES);
  const auto built = build(Algorithm::STAR, Collective::ALLGATHER, *s7, "star:7", 0, {});
  EXPECT_EQ(built.schedule.steps(), star::allreduce_steps(7));
  EXPECT_EQ(built.schedule.chunks_moved(), std::uint64_t{5040} * 5039);
  const auto run = sch::run_schedule(built.schedule, *s7, {});
  EXPECT_TRUE(run.verified) << run.report.first_problem();
  const auto s8 = topology::make_topology("star:8");
  EXPECT_ERROR(ScheduleError, build(Algorithm::STAR, Collective::REDUCESCATTER, *s8, "star:8", 0, {}), "up to star:7");
  EXPECT_ERROR(ScheduleError, build(Algorithm::UNIFORM, Collective::ALLGATHER, *s7, "star:7", 0, {}), "5040 nodes",
               "up to 1024 nodes");
}

/// The families of the table at small sizes (and a few that are none of them).
const char* const SPECS[] = {"star:3",     "star:4",       "pancake:4",       "bubblesort:4", "transposition:4",
                             "hypercube:2", "hypercube:3", "ring:5",          "ring:6",       "torus:3x3",
                             "torus:2x4",   "complete:5",  "complete:8",      "mesh:2x3",     "debruijn:3"};

TEST(Catalogue, EveryAlgorithmOfEveryCollectiveOnEveryFamilyRunsVerified) {
  std::map<std::string, int> rows_per_algorithm;
  for (const char* spec : SPECS) {
    const auto t = topology::make_topology(spec);
    const auto shape = shape_of(*t, spec);
    for (const Collective c : ALL_COLLECTIVES) {
      for (const Algorithm a : algorithms_for(c, shape)) {
        const std::string what = std::string(spec) + " " + to_string(c) + " " + to_string(a);
        const auto built = build(a, c, *t, spec, /*root=*/1, {});
        ScheduleRunSettings settings;  // unit time, strict, single port full duplex
        const auto r = sch::run_schedule(built.schedule, *t, settings);
        EXPECT_TRUE(r.verified) << what << ": " << r.report.first_problem();
        EXPECT_EQ(r.run.makespan, Rational(static_cast<std::int64_t>(built.schedule.steps()))) << what;
        EXPECT_EQ(r.report.nodes_checked, t->num_nodes()) << what;
        ++rows_per_algorithm[to_string(a)];
      }
    }
  }
  // Each algorithm ran on the collectives and families the table gives it.
  EXPECT_EQ(rows_per_algorithm["star"], 2 * 3);                // star:3, star:4 × allreduce, allgather, reducescatter
  EXPECT_EQ(rows_per_algorithm["recursive-doubling"], 3 * 2 + 1);  // Q_2, Q_3, K_8 × 2; K_5 allreduce (folded)
  EXPECT_EQ(rows_per_algorithm["recursive-halving"], 3);
  // Rings and tori, and the complete graphs' one ring in id order (the hosts of a network of switches).
  EXPECT_EQ(rows_per_algorithm["ring"], 4 * 3 + 2 * 3);
  EXPECT_EQ(rows_per_algorithm["bruck"], 2 * 3);
  EXPECT_EQ(rows_per_algorithm["uniform"], 13 * 2);  // the Cayley families × allgather, reducescatter
  EXPECT_EQ(rows_per_algorithm["one-packet"], 13);
  EXPECT_EQ(rows_per_algorithm["combining"], 13);
  EXPECT_EQ(rows_per_algorithm["dimension-ordered"], 3);  // mesh:2x3 × allreduce, allgather, reducescatter
  EXPECT_EQ(rows_per_algorithm["bfs-tree"], 15 * 8);
}

TEST(Catalogue, StepCountsAreTheClassicOnes) {
  const auto steps = [](Algorithm a, Collective c, const char* spec) {
    return build(a, c, *topology::make_topology(spec), spec, 0, {}).schedule.steps();
  };
  EXPECT_EQ(steps(Algorithm::RING, Collective::ALLGATHER, "ring:6"), 5U);               // N − 1
  EXPECT_EQ(steps(Algorithm::RING, Collective::REDUCESCATTER, "torus:3x4"), 2U + 3U);   // (A − 1) + (B − 1)
  EXPECT_EQ(steps(Algorithm::RING, Collective::ALLGATHER, "torus:4x4x4"), 3U * 3U);      // one phase per dimension
  EXPECT_EQ(steps(Algorithm::RING, Collective::ALLREDUCE, "torus:2x3x4"), 1U + 2U + 3U);
  EXPECT_EQ(steps(Algorithm::RECURSIVE_DOUBLING, Collective::ALLGATHER, "hypercube:4"), 4U);
  EXPECT_EQ(steps(Algorithm::RECURSIVE_HALVING, Collective::REDUCESCATTER, "complete:16"), 4U);
  EXPECT_EQ(steps(Algorithm::RECURSIVE_DOUBLING, Collective::ALLREDUCE, "complete:8"), 3U);
  EXPECT_EQ(steps(Algorithm::RECURSIVE_DOUBLING, Collective::ALLREDUCE, "complete:12"), 3U + 2U);  // folded
  EXPECT_EQ(steps(Algorithm::BRUCK, Collective::ALLGATHER, "complete:12"), 4U);  // ⌈log₂ 12⌉
  EXPECT_EQ(steps(Algorithm::BRUCK, Collective::ALLTOALL, "complete:12"), 4U);
  EXPECT_EQ(steps(Algorithm::STAR, Collective::ALLGATHER, "star:4"), 6U);  // n(n−1)/2
  EXPECT_EQ(steps(Algorithm::ONE_PACKET, Collective::ALLTOALL, "star:4"), 62U);  // the status of S_4
}

TEST(Catalogue, TwoPortRingAllGatherAndReduceScatterSendHalfTheBlocksEachWay) {
  const emulator::PortModel two{/*ports=*/2, /*half_duplex=*/false};
  // spec, ⌈(L−1)/2⌉ per ring (the torus: rows, then columns).
  const std::vector<std::pair<std::string, std::uint32_t>> cases{
      {"ring:16", 8}, {"ring:7", 3}, {"ring:2", 1}, {"torus:3x4", 2 + 1}, {"torus:8x8", 4 + 4}};
  for (const auto& [spec, steps] : cases) {
    const auto n = topology::make_topology(spec)->num_nodes();
    for (const Collective c : {Collective::ALLGATHER, Collective::REDUCESCATTER}) {
      const auto r = round_trip(Algorithm::RING, spec, c, 0, two);
      ASSERT_TRUE(r.verified) << spec << " " << to_string(c) << ": " << r.report.first_problem();
      EXPECT_EQ(r.report.nodes_checked, n) << spec;
      EXPECT_EQ(r.run.makespan, Rational(static_cast<std::int64_t>(steps))) << spec << " " << to_string(c);
    }
    const auto t = topology::make_topology(spec);
    const auto gather = build(Algorithm::RING, Collective::ALLGATHER, *t, spec, 0, two);
    EXPECT_EQ(gather.variant, "bidirectional") << spec;
    EXPECT_EQ(gather.schedule.chunks_moved(), n * (n - 1)) << spec;  // no block received twice
    EXPECT_EQ(build(Algorithm::RING, Collective::REDUCESCATTER, *t, spec, 0, two).variant, "bidirectional, reversed");
  }
  // One port: unidirectional, N − 1 steps as before.
  EXPECT_EQ(round_trip(Algorithm::RING, "ring:16", Collective::ALLGATHER).run.makespan, Rational(15));
}

TEST(Catalogue, EveryAllGatherMovesEachBlockOnceAndItsReduceScatterMirrorsIt) {
  for (const char* spec : {"star:4", "hypercube:3", "ring:6", "torus:3x3", "complete:6", "mesh:2x3"}) {
    const auto t = topology::make_topology(spec);
    const auto n = t->num_nodes();
    for (const Algorithm a : algorithms_for(Collective::ALLGATHER, shape_of(*t, spec))) {
      const auto gather = build(a, Collective::ALLGATHER, *t, spec, 0, {}).schedule;
      // Recursive doubling's reverse is recursive halving; the others keep their names.
      const auto reverse = a == Algorithm::RECURSIVE_DOUBLING ? Algorithm::RECURSIVE_HALVING : a;
      const auto scatter = build(reverse, Collective::REDUCESCATTER, *t, spec, 0, {}).schedule;
      EXPECT_EQ(gather.chunks_moved(), n * (n - 1)) << spec << " " << to_string(a);
      EXPECT_EQ(scatter.chunks_moved(), gather.chunks_moved()) << spec << " " << to_string(a);
      EXPECT_EQ(scatter.steps(), gather.steps()) << spec << " " << to_string(a);
      EXPECT_EQ(sch::volume(gather).sent_max, sch::volume(scatter).received_max) << spec << " " << to_string(a);
    }
  }
}

TEST(Catalogue, AReduceScatterRefusesToReverseWhatIsNoPlainAllGatherSayingWhatItGot) {
  const auto ring = topology::make_topology("ring:4");
  const auto allreduce = build(Algorithm::RING, Collective::ALLREDUCE, *ring, "ring:4", 0, {}).schedule;
  EXPECT_ERROR(ScheduleError, (void)reverse_allgather(allreduce), "not a stepped allreduce with");
  // Node 1 keeps node 0's chunk 0 in its own chunk 1.
  sch::ScheduleBuilder b(sch::ChunkRules(Collective::ALLGATHER, 2, 2, 0), /*scratch=*/0);
  const sch::TransferItem moved[] = {{0, 1, sch::ItemOp::COPY}};
  b.add_transfer(0, 0, 1, moved);
  EXPECT_ERROR(ScheduleError, (void)reverse_allgather(std::move(b).build()),
               "node 1 receives chunk 0 of node 0 at step 0 into chunk 1 by copy");
}

TEST(Catalogue, ACompleteGraphFromAFileIsComplete) {
  // K_4 as a DOT file: the catalogue treats it as complete:4 (a SimGrid cluster is such a graph).
  const auto dir = std::filesystem::temp_directory_path() / ("starnet_catalogue_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = (dir / "k4.dot").string();
  std::ofstream(file) << "graph { a -- b; a -- c; a -- d; b -- c; b -- d; c -- d; }\n";
  const auto t = topology::make_topology(file);
  const auto shape = shape_of(*t, file);
  EXPECT_EQ(shape.family, "complete");
  EXPECT_EQ(shape.cayley, "complete:4");
  for (const Collective c : {Collective::ALLREDUCE, Collective::ALLGATHER, Collective::ALLTOALL}) {
    for (const Algorithm a : algorithms_for(c, shape)) {
      const auto r = sch::run_schedule(build(a, c, *t, file, 0, {}).schedule, *t, {});
      EXPECT_TRUE(r.verified) << to_string(c) << " " << to_string(a) << ": " << r.report.first_problem();
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(Catalogue, SimGridsClusterBackboneGetsLogarithmicAlgorithms) {
  const std::filesystem::path file = std::filesystem::path(STARNET_SOURCE_DIR) / "../shared/data/simgrid/cluster_backbone.xml";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is absent (SimGrid's examples are not in the repository)";
  const auto t = topology::make_topology(file.string());
  const auto shape = shape_of(*t, file.string());
  ASSERT_EQ(shape.family, "complete");  // K_100
  const auto rd = build(Algorithm::RECURSIVE_DOUBLING, Collective::ALLREDUCE, *t, file.string(), 0, {});
  EXPECT_EQ(rd.schedule.steps(), 6U + 2U);  // 64 folded in, log₂ 64, back out: against ⌈log₂ 100⌉ = 7
  const auto r = sch::run_schedule(rd.schedule, *t, {});
  EXPECT_TRUE(r.verified) << r.report.first_problem();
  EXPECT_EQ(build(Algorithm::BRUCK, Collective::ALLGATHER, *t, file.string(), 0, {}).schedule.steps(), 7U);
}

}  // namespace
}  // namespace starnet::algorithms::collectives
