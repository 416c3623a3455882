#include "generic_test_support.hpp"

#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/algorithms/generic/ring.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::generic {
namespace {

using emulator::PortModel;
using testing::run_plan;

const std::vector<PortModel> MODELS = {{1, false}, {2, false}, {1, true}, {2, true}, {3, true}, {4, true}};

/// The step counts of ring.hpp, written out per model.
std::uint64_t expected_steps(std::uint64_t length, const PortModel& m) {
  if (length <= 1) return 0;
  const std::uint64_t uni = length - 1;
  const std::uint64_t bi = (length - 1 + 1) / 2;  // ⌈(L−1)/2⌉
  if (!m.half_duplex) return m.ports >= 2 ? bi : uni;
  if (m.ports >= 4) return bi;
  if (m.ports >= 2) return uni;
  return (length % 2 == 0 ? 2 : 3) * uni;
}

TEST(RingAllReduce, EveryRingLengthAndPortModelIsVerifiedInTheVariantsSteps) {
  for (std::uint64_t n = 1; n <= 13; ++n) {
    const auto ring = topology::make_topology("ring:" + std::to_string(n));
    for (const auto& m : MODELS) {
      const Schedule plan = ring_schedule(*ring, torus_rings(1, n), m);
      for (const Op op : {Op::SUM, Op::XOR, Op::MAX}) {
        const auto o = run_plan(*ring, plan, Collective::ALLREDUCE, m, op);  // strict: violations throw
        EXPECT_TRUE(o.report.ok()) << " n=" << n << " " << m.to_string() << " " << star::to_string(op);
        EXPECT_EQ(o.run.makespan, Rational(static_cast<std::int64_t>(expected_steps(n, m))))
            << " n=" << n << " " << m.to_string();
      }
      EXPECT_EQ(ring_steps(n, ring_variant(m)), expected_steps(n, m)) << " n=" << n;
      EXPECT_LE(step_lower_bound(Collective::ALLREDUCE, m, n, n / 2).value(), expected_steps(n, m))
          << " n=" << n << " " << m.to_string();
    }
  }
}

TEST(RingAllReduce, BidirectionalMeetsTheRingsDiameter) {
  for (std::uint64_t n = 2; n <= 40; ++n) {
    EXPECT_EQ(ring_steps(n, RingVariant::BIDIRECTIONAL), n / 2) << " n=" << n;  // diameter ⌊n/2⌋
  }
}

TEST(RingAllReduce, TorusRunsRowsThenColumns) {
  for (const auto& [a, b] :
       std::vector<std::pair<std::uint64_t, std::uint64_t>>{{11, 11}, {4, 5}, {2, 3}, {3, 1}, {2, 2}}) {
    const auto spec = "torus:" + std::to_string(a) + "x" + std::to_string(b);
    const auto torus = topology::make_topology(spec);
    for (const auto& m : MODELS) {
      const auto o = run_plan(*torus, ring_schedule(*torus, torus_rings(a, b), m), Collective::ALLREDUCE, m);
      EXPECT_TRUE(o.report.ok()) << spec << " " << m.to_string();
      EXPECT_EQ(o.run.makespan, Rational(static_cast<std::int64_t>(expected_steps(b, m) + expected_steps(a, m))))
          << spec << " " << m.to_string();
    }
  }
}

TEST(RingAllReduce, KAryNCubesRunOnePhasePerDimension) {
  for (const auto& sides : std::vector<std::vector<std::uint64_t>>{{4, 4, 4}, {2, 3, 4}, {3, 2, 2, 3}}) {
    std::string spec = "torus:";
    std::uint64_t expected_unit = 0;
    for (const auto side : sides) spec += (spec.size() > 6 ? "x" : "") + std::to_string(side);
    const auto torus = topology::make_topology(spec);
    EXPECT_EQ(spec_rings(spec), grid_rings(sides)) << spec;
    for (const auto& m : MODELS) {
      std::uint64_t expected = 0;
      for (const auto side : sides) expected += expected_steps(side, m);
      const auto o = run_plan(*torus, ring_schedule(*torus, grid_rings(sides), m), Collective::ALLREDUCE, m);
      EXPECT_TRUE(o.report.ok()) << spec << " " << m.to_string();
      EXPECT_EQ(o.report.nodes_correct, torus->num_nodes()) << spec << " " << m.to_string();
      EXPECT_EQ(o.run.makespan, Rational(static_cast<std::int64_t>(expected))) << spec << " " << m.to_string();
      if (m.ports == 1 && !m.half_duplex) expected_unit = expected;
    }
    if (sides.size() == 3 && sides[0] == 4) EXPECT_EQ(expected_unit, 9U);  // torus:4x4x4: 3 + 3 + 3
  }
  EXPECT_EQ(torus_rings(3, 5), grid_rings(std::vector<std::uint64_t>{3, 5}));
}

TEST(RingAllReduce, EachVariantNeedsItsPortModel) {
  // Bidirectional needs two sends at once; unidirectional needs a send and a receive at once.
  const auto ring = topology::make_topology("ring:6");
  EXPECT_ERROR(ModelViolation,
               run_plan(*ring, ring_schedule(*ring, torus_rings(1, 6), {2, false}), Collective::ALLREDUCE, {1, false}),
               "step 0", "port is busy");
  EXPECT_ERROR(ModelViolation,
               run_plan(*ring, ring_schedule(*ring, torus_rings(1, 6), {1, false}), Collective::ALLREDUCE, {1, true}),
               "step 0", "half-duplex");
}

TEST(RingAllReduce, TimedWithRandomCostsIsVerified) {
  const auto torus = topology::make_topology("torus:5x4");
  const Subnetwork net(*torus, {}, 0, {CostKind::RANDOM, 2});
  for (const auto& m : MODELS) {
    const auto o = run_plan(net, ring_schedule(net, torus_rings(5, 4), m), Collective::ALLREDUCE, m, Op::SUM, 0, true);
    EXPECT_TRUE(o.report.ok()) << m.to_string();
  }
}

TEST(RingAllReduce, RejectsRingsThatAreNotThereNamingTheLink) {
  const auto mesh = topology::make_topology("mesh:3x3");
  EXPECT_ERROR(ScheduleError, ring_schedule(*mesh, torus_rings(3, 3), {}), "mesh:3x3", "no link from (0,2) to (0,0)");
  const auto ring = topology::make_topology("ring:4");
  EXPECT_ERROR(ScheduleError, ring_schedule(*ring, {{{0, 1}, {1, 2, 3}}}, {}), "ring:4", "node 1 twice");
  EXPECT_ERROR(ScheduleError, ring_schedule(*ring, {{{0, 1, 2}}}, {}), "ring:4", "no link from 2 to 0");
  EXPECT_ERROR(ScheduleError, ring_schedule(*ring, {{{0, 1}}}, {}), "ring:4", "leaves node 2 out");
}

}  // namespace
}  // namespace starnet::algorithms::generic
