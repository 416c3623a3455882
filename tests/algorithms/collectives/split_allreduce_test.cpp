// The split all-reduces: 2(N − 1) steps of one block on a ring, 2·log₂ N by halving then doubling,
// 2(N − 1) blocks of M/N sent by every node, every node's every block verified on the emulator.
#include "../../core/expect_error.hpp"

#include <starnet/algorithms/collectives/split_allreduce.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::collectives {
namespace {

namespace sch = algorithms::schedule;

TEST(SplitAllReduce, StepsAndVolumeAreTheClassicOnesAndEveryNodeIsVerified) {
  const emulator::PortModel one{};
  const emulator::PortModel two{/*ports=*/2, /*half_duplex=*/false};
  struct Case {
    Algorithm a;
    std::string spec;
    emulator::PortModel ports;
    std::uint32_t steps;
  };
  const std::vector<Case> cases{
      {Algorithm::RING_SPLIT, "ring:8", one, 2 * 7},          // 2(N − 1)
      {Algorithm::RING_SPLIT, "ring:16", two, 2 * 8},         // both ways: 2⌈(N − 1)/2⌉
      {Algorithm::RING_SPLIT, "torus:4x4", one, 2 * (3 + 3)},  // rows, columns, and back
      {Algorithm::RABENSEIFNER, "hypercube:4", one, 2 * 4},   // 2 log₂ N
      {Algorithm::RABENSEIFNER, "complete:8", one, 2 * 3}};
  for (const auto& k : cases) {
    const std::string what = to_string(k.a) + " " + k.spec;
    const auto t = topology::make_topology(k.spec);
    const auto n = t->num_nodes();
    const auto built = build(k.a, Collective::ALLREDUCE, *t, k.spec, 0, k.ports);
    EXPECT_EQ(built.schedule.rules().chunks(), n) << what;
    EXPECT_EQ(built.schedule.steps(), k.steps) << what;
    EXPECT_EQ(sch::volume(built.schedule).sent_max, 2 * (n - 1)) << what;  // blocks of M/N: 2(N−1)/N·M
    sch::ScheduleRunSettings settings;
    settings.config.ports = k.ports;
    const auto r = sch::run_schedule(built.schedule, *t, settings);
    EXPECT_TRUE(r.verified) << what << ": " << r.report.first_problem();
    EXPECT_EQ(r.report.nodes_checked, n) << what;
    EXPECT_EQ(r.run.makespan, Rational(static_cast<std::int64_t>(k.steps))) << what;
  }
}

TEST(SplitAllReduce, RabenseifnerGoesPastTheRingsNodeLimitWhichStaysForTheRingSplit) {
  // hypercube:11: 2,048 nodes, above MAX_BLOCK_NODES, within MAX_HALVING_BLOCK_NODES.
  static_assert(MAX_BLOCK_NODES < 2048 && 2048 <= MAX_HALVING_BLOCK_NODES);
  const auto cube = topology::make_topology("hypercube:11");
  const auto built = build(Algorithm::RABENSEIFNER, Collective::ALLREDUCE, *cube, "hypercube:11", 0, {});
  EXPECT_EQ(built.schedule.steps(), 2U * 11);
  EXPECT_EQ(sch::volume(built.schedule).sent_max, 2U * 2047);
  const auto r = sch::run_schedule(built.schedule, *cube, {});
  EXPECT_TRUE(r.verified) << r.report.first_problem();
  EXPECT_EQ(r.report.nodes_checked, 2048U);
  const auto complete = topology::make_topology("complete:1032");  // 2N(N − 1) messages: refused
  EXPECT_ERROR(ScheduleError,
               (void)build(Algorithm::RING_SPLIT, Collective::ALLREDUCE, *complete, "complete:1032", 0, {}),
               "ring-split on complete:1032: 1032 nodes", "up to 1024 nodes");
}

TEST(SplitAllReduce, RefusesOtherFamiliesCollectivesAndAlgorithmsNamingThem) {
  const auto star = topology::make_topology("star:4");
  EXPECT_ERROR(ScheduleError, (void)build(Algorithm::RABENSEIFNER, Collective::ALLREDUCE, *star, "star:4", 0, {}),
               "rabenseifner runs on hypercubes", "star:4");
  EXPECT_ERROR(ScheduleError, (void)build(Algorithm::RING_SPLIT, Collective::ALLGATHER, *star, "star:4", 0, {}),
               "ring-split computes allreduce, not allgather");
  EXPECT_ERROR(ScheduleError, (void)split_allreduce(Algorithm::RING, *star, "star:4", {}), "ring is not a split all-reduce");
}

}  // namespace
}  // namespace starnet::algorithms::collectives
