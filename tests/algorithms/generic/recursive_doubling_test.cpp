#include "generic_test_support.hpp"

#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/algorithms/generic/recursive_doubling.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::generic {
namespace {

using emulator::PortModel;
using testing::run_plan;

TEST(RecursiveDoubling, TakesDStepsOnQdAndMeetsTheLogBound) {
  for (int d = 1; d <= 10; ++d) {
    const auto cube = topology::make_topology("hypercube:" + std::to_string(d));
    const NodeId n = cube->num_nodes();
    for (const PortModel ports : {PortModel{1, false}, PortModel{2, false}, PortModel{2, true}}) {
      const Schedule plan = recursive_doubling_schedule(*cube, ports);
      const auto o = run_plan(*cube, plan, Collective::ALLREDUCE, ports, d % 2 == 0 ? Op::SUM : Op::XOR);
      EXPECT_TRUE(o.report.ok()) << " d=" << d << " " << ports.to_string();
      EXPECT_EQ(o.run.makespan, Rational(d)) << " d=" << d << " " << ports.to_string();
      EXPECT_EQ(o.run.counters.messages, n * static_cast<NodeId>(d)) << " d=" << d;
    }
    EXPECT_EQ(step_lower_bound(Collective::ALLREDUCE, {}, n, static_cast<std::uint64_t>(d)).value(),
              static_cast<std::uint64_t>(d))
        << " d=" << d;
  }
}

TEST(RecursiveDoubling, SinglePortHalfDuplexSplitsEachExchangeIntoTwoSteps) {
  for (int d = 1; d <= 8; ++d) {
    const auto cube = topology::make_topology("hypercube:" + std::to_string(d));
    const PortModel half{1, true};
    const Schedule plan = recursive_doubling_schedule(*cube, half);
    const auto o = run_plan(*cube, plan, Collective::ALLREDUCE, half, Op::MIN);
    EXPECT_TRUE(o.report.ok()) << " d=" << d;
    EXPECT_EQ(o.run.makespan, Rational(2 * d)) << " d=" << d;
    EXPECT_LE(step_lower_bound(Collective::ALLREDUCE, half, cube->num_nodes(), static_cast<std::uint64_t>(d)).value(),
              static_cast<std::uint64_t>(2 * d));
  }
  // Why the split: the one-step exchange sends and receives at once, which half duplex forbids.
  const auto q3 = topology::make_topology("hypercube:3");
  EXPECT_ERROR(ModelViolation, run_plan(*q3, recursive_doubling_schedule(*q3, {}), Collective::ALLREDUCE, {1, true}),
               "step 0", "half-duplex");
}

TEST(RecursiveDoubling, TimedWithRandomCostsIsVerified) {
  const auto q6 = topology::make_topology("hypercube:6");
  const Subnetwork net(*q6, {}, 0, {CostKind::RANDOM, 11});
  for (const PortModel ports : {PortModel{1, false}, PortModel{1, true}}) {
    const auto o =
        run_plan(net, recursive_doubling_schedule(net, ports), Collective::ALLREDUCE, ports, Op::SUM, 0, true);
    EXPECT_TRUE(o.report.ok()) << ports.to_string();
    EXPECT_LE(time_lower_bound(ports, 64, net.min_cost(), diameter(net, true, false).value).value(), o.run.makespan);
  }
}

TEST(RecursiveDoubling, RejectsWhatIsNotAHypercubeNamingIt) {
  EXPECT_ERROR(ScheduleError, recursive_doubling_schedule(*topology::make_topology("ring:6"), {}), "ring:6", "6 nodes",
               "power of two");
  EXPECT_ERROR(ScheduleError, recursive_doubling_schedule(*topology::make_topology("ring:8"), {}), "ring:8", "no link",
               "dimension 2");
}

}  // namespace
}  // namespace starnet::algorithms::generic
