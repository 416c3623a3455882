// The dimension-ordered collectives: step counts as the sums of the factors' algorithms (those of
// the hypercube and torus they equal), every node verified on the emulator in strict mode, and
// refusals naming the spec.
#include "../../core/expect_error.hpp"

#include <starnet/algorithms/collectives/dimension_ordered.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::collectives {
namespace {

namespace sch = algorithms::schedule;

/// Builds through the catalogue and runs in unit time, strict checks, under @p ports.
std::uint32_t verified_steps(Collective c, const std::string& spec, const emulator::PortModel& ports = {}) {
  const auto t = topology::make_topology(spec);
  const auto built = build(Algorithm::DIMENSION_ORDERED, c, *t, spec, /*root=*/0, ports);
  sch::ScheduleRunSettings settings;
  settings.config.ports = ports;
  const auto r = sch::run_schedule(built.schedule, *t, settings);
  EXPECT_TRUE(r.verified) << spec << " " << to_string(c) << ": " << r.report.first_problem();
  EXPECT_EQ(r.report.nodes_checked, t->num_nodes()) << spec << " " << to_string(c);
  EXPECT_EQ(r.run.makespan, Rational(static_cast<std::int64_t>(built.schedule.steps()))) << spec;
  return built.schedule.steps();
}

TEST(DimensionOrdered, FactorsOfProductsAndMeshesOnly) {
  EXPECT_EQ(dimension_factors("product:hypercube:3*ring:4"), (std::vector<std::string>{"hypercube:3", "ring:4"}));
  EXPECT_EQ(dimension_factors("mesh:2x3x4"), (std::vector<std::string>{"mesh:2", "mesh:3", "mesh:4"}));
  EXPECT_TRUE(dimension_factors("mesh:5").empty());
  EXPECT_TRUE(dimension_factors("torus:4x4").empty());  // the ring runs its dimensions
  EXPECT_TRUE(dimension_factors("star:4").empty());
}

TEST(DimensionOrdered, ProductsOfHypercubesAndRingsTakeTheStepsOfTheHypercubeAndTorus) {
  for (const Collective c : {Collective::ALLREDUCE, Collective::ALLGATHER, Collective::REDUCESCATTER}) {
    // 3 + 3, as recursive doubling on hypercube:6 (the diameter: optimal).
    EXPECT_EQ(verified_steps(c, "product:hypercube:3*hypercube:3"), 6U) << to_string(c);
    // 7 + 7, as the ring on torus:8x8; with two ports 4 + 4, the diameter.
    EXPECT_EQ(verified_steps(c, "product:ring:8*ring:8"), 14U) << to_string(c);
    EXPECT_EQ(verified_steps(c, "product:ring:8*ring:8", {/*ports=*/2, /*half_duplex=*/false}), 8U) << to_string(c);
    // Three factors, of three families: S_3's 3 (star all-reduce; uniform gossip) + 2 + 1.
    EXPECT_EQ(verified_steps(c, "product:star:3*hypercube:2*complete:2"), 3U + 2U + 1U) << to_string(c);
  }
}

TEST(DimensionOrdered, MeshesRunTreesFromEachPathsCentre) {
  // A path's best tree is rooted at a centre: path:4 takes 2 + 2 (up, down); path:3 and path:5
  // one more each way, their centre taking its two children one per port and step. mesh:4x4: 8
  // where one BFS tree from a corner takes 12.
  EXPECT_EQ(verified_steps(Collective::ALLREDUCE, "mesh:4x4"), 4U + 4U);
  EXPECT_EQ(verified_steps(Collective::ALLREDUCE, "mesh:3x5"), 4U + 6U);
  EXPECT_EQ(verified_steps(Collective::REDUCESCATTER, "mesh:2x3"), verified_steps(Collective::ALLGATHER, "mesh:2x3"));
}

TEST(DimensionOrdered, VariantNamesEachFactorsAlgorithmLastFactorFirst) {
  const std::string spec = "product:hypercube:2*ring:5";
  const auto t = topology::make_topology(spec);
  EXPECT_EQ(build(Algorithm::DIMENSION_ORDERED, Collective::ALLREDUCE, *t, spec, 0, {}).variant,
            "ring 4 + recursive-doubling 2");
  EXPECT_EQ(build(Algorithm::DIMENSION_ORDERED, Collective::REDUCESCATTER, *t, spec, 0, {}).variant,
            "ring 4 + recursive-doubling 2, reversed");
}

TEST(DimensionOrdered, RefusesOtherTopologiesAndCollectivesNamingThem) {
  const auto cube = topology::make_topology("hypercube:3");
  EXPECT_ERROR(ScheduleError, (void)build(Algorithm::DIMENSION_ORDERED, Collective::ALLREDUCE, *cube, "hypercube:3", 0, {}),
               "dimension-ordered runs on products and meshes", "hypercube:3");
  const auto mesh = topology::make_topology("mesh:2x2");
  EXPECT_ERROR(ScheduleError, (void)build(Algorithm::DIMENSION_ORDERED, Collective::BROADCAST, *mesh, "mesh:2x2", 0, {}),
               "computes allreduce, allgather, reducescatter, not broadcast");
  EXPECT_ERROR(ScheduleError, (void)dimension_ordered(Collective::ALLREDUCE, *mesh, "mesh:2x3", 0, {}),
               "mesh:2x3", "6 nodes together, the topology 4");
}

}  // namespace
}  // namespace starnet::algorithms::collectives
