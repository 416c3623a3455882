// The hierarchical all-reduce among a network's hosts (collectives/hierarchical.hpp): every host
// verified on the emulator with links checked, each level's phase among the hosts of one switch,
// pod or group under any placement, and no contention on a full-bisection fat-tree.
#include "../../core/expect_error.hpp"
#include "../../topology/network_examples.hpp"

#include <starnet/algorithms/collectives/hierarchical.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>

namespace starnet::algorithms::collectives {
namespace {

namespace sch = algorithms::schedule;
using topology::HostNetwork;

std::shared_ptr<const HostNetwork> hosts_of(const std::string& spec, topology::Placement placement = {}) {
  topology::NetworkOptions options;
  options.placement = placement;
  return std::make_shared<const HostNetwork>(std::make_shared<const topology::Platform>(topology::make_platform(spec)),
                                             options);
}

sch::ScheduleRun run(const Built& built, const HostNetwork& hosts) {
  sch::ScheduleRunSettings settings;
  settings.config.checking = emulator::Checking::ARBITRATED;  // links wait, as whatif runs them
  return sch::run_schedule(built.schedule, hosts, settings);
}

TEST(HierarchicalAllReduce, EveryHostIsVerifiedInBothFormsAndTheFatTreeNeverMakesAMessageWait) {
  for (const char* spec : {"fattree:4", "fattree:8", "dragonfly:2:2:1", "dragonfly:4:3:2", "dragonfly:4:3:2:relative",
                           "dragonfly:4:3:2:circulant"}) {
    const auto hosts = hosts_of(spec);
    const auto n = hosts->num_nodes();
    for (const bool split : {true, false}) {
      const std::string what = fmt::format("{} {}", spec, split ? "split" : "word");
      const auto built = hierarchical_allreduce(*hosts, split, {});
      EXPECT_EQ(built.schedule.rules().chunks(), split ? n : 1U) << what;
      if (split) EXPECT_EQ(sch::volume(built.schedule).sent_max, 2 * (n - 1)) << what << ": 2(H − 1) blocks of M/H";
      const auto r = run(built, *hosts);
      EXPECT_TRUE(r.verified) << what << ": " << r.report.first_problem();
      EXPECT_EQ(r.report.nodes_checked, n) << what;
      // D-mod-K gives each level's pairs distinct up-links: the run takes the planned steps.
      if (std::string_view(spec).starts_with("fattree")) {
        EXPECT_EQ(r.run.makespan, Rational(static_cast<std::int64_t>(built.schedule.steps()))) << what;
      }
    }
  }
  // fattree:8: 8 pods, 4 edge switches, 4 hosts: recursive halving 2 + 2 + 3 steps, then doubling.
  EXPECT_EQ(hierarchical_allreduce(*hosts_of("fattree:8"), true, {}).schedule.steps(), 2U * (2 + 2 + 3));
}

TEST(HierarchicalAllReduce, IsVerifiedOnEveryDragonflyArrangementUnderMinimalAndValiantRouting) {
  for (const char* spec : {"dragonfly:4:3:2", "dragonfly:4:3:2:relative", "dragonfly:4:3:2:circulant"}) {
    for (const auto routing : {topology::Routing::MINIMAL, topology::Routing::VALIANT}) {
      topology::NetworkOptions options;
      options.routing = routing;
      const HostNetwork hosts(std::make_shared<const topology::Platform>(topology::make_platform(spec)), options);
      const auto r = run(hierarchical_allreduce(hosts, /*split=*/true, {}), hosts);
      EXPECT_TRUE(r.verified) << spec << ": " << r.report.first_problem();
      EXPECT_EQ(r.report.nodes_checked, hosts.num_nodes()) << spec;
    }
  }
}

TEST(HierarchicalAllReduce, TheSplitFormIsBuiltPastTheBlockedSchedulesNodeLimitAndVerified) {
  // dragonfly:8:4:4: 33 groups, 8 routers, 4 hosts: 1,056 hosts, beyond MAX_BLOCK_NODES (1,024),
  // where build() refuses a blocked schedule; the hierarchical split form has a limit of its own.
  static_assert(MAX_BLOCK_NODES < 1056);
  const auto hosts = hosts_of("dragonfly:8:4:4");
  ASSERT_EQ(hosts->num_nodes(), 1056U);
  const auto built = hierarchical_allreduce(*hosts, true, {});
  EXPECT_EQ(built.schedule.rules().chunks(), 1056U);
  EXPECT_EQ(sch::volume(built.schedule).sent_max, 2U * 1055) << "2(H − 1) blocks of M/H";
  const auto r = run(built, *hosts);
  EXPECT_TRUE(r.verified) << r.report.first_problem();
  EXPECT_EQ(r.report.nodes_checked, 1056U);
}

TEST(HierarchicalAllReduce, TheFirstPhaseStaysUnderOneEdgeSwitchUnderARandomPlacement) {
  const auto hosts = hosts_of("fattree:8", {true, 7});
  const auto built = hierarchical_allreduce(*hosts, true, {});
  EXPECT_TRUE(run(built, *hosts).verified);
  constexpr std::uint32_t INNER_STEPS = 2;  // recursive halving among the 4 hosts of an edge switch
  constexpr topology::NodeId PER_EDGE = 4;
  std::uint64_t inner = 0;
  for (std::uint32_t v = 0; v < hosts->num_nodes(); ++v) {
    for (const auto& a : built.schedule.actions(v)) {
      if (a.kind != sch::Action::Kind::SEND || a.key >= INNER_STEPS) continue;  // key: the step
      ++inner;
      EXPECT_EQ(hosts->host(v) / PER_EDGE, hosts->host(a.peer) / PER_EDGE) << "rank " << v << " → " << a.peer;
    }
  }
  EXPECT_EQ(inner, hosts->num_nodes() * INNER_STEPS);
}

TEST(HierarchicalAllReduce, APlatformWithoutTwoLevelsIsRefusedNamingIt) {
  EXPECT_ERROR(ScheduleError, (void)hierarchical_allreduce(*hosts_of("fattree:2"), true, {}), "fattree:2",
               "two levels");
  const HostNetwork dumbbell(std::make_shared<const topology::Platform>(starnet::testing::dumbbell_platform(4)), {});
  EXPECT_ERROR(ScheduleError, (void)hierarchical_allreduce(dumbbell, false, {}), "hierarchical runs among");
}

}  // namespace
}  // namespace starnet::algorithms::collectives
