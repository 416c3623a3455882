// run_schedule() in timed mode with the links' α–β times (TopologyCosts), on SimGrid's example
// platforms, whose decimal bandwidths and latencies give times beyond 64 bits.
#include "schedule_test_support.hpp"

#include "../../topology/simgrid_examples.hpp"

#include <starnet/algorithms/collectives/whatif.hpp>
#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/emulator/costs.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace starnet::algorithms::schedule::testing {
namespace {

/// The bfs-tree all-reduce on @p file exported, written, read back and run timed (arbitrated, as
/// `schedule run --costs topology` runs it), one unit message per chunk.
ScheduleRun run_timed(const std::string& file) {
  const auto t = topology::make_topology(file);
  const Schedule exported =
      collectives::build(collectives::Algorithm::BFS_TREE, Collective::ALLREDUCE, *t, file, 0, {}).schedule;
  const Schedule read = parse_schedule(write_schedule_json(exported, *t, file), *t);
  const emulator::TopologyCosts<Rational> costs(*t);
  ScheduleRunSettings settings;
  settings.config.time = emulator::TimeMode::TIMED;
  settings.config.checking = emulator::Checking::ARBITRATED;
  settings.costs = &costs;
  return run_schedule(read, *t, settings);
}

/// The what-if study's bfs-tree all-reduce row on @p file with topology costs: the same plan run
/// by the what-if study (collectives/), an oracle for the schedule's makespan.
Rational whatif_makespan(const std::string& file) {
  collectives::WhatIfStudy study;
  study.collective(Collective::ALLREDUCE).topologies({file}).costs(generic::CostKind::TOPOLOGY).run();
  const auto& rows = study.rows();
  const auto bfs = std::find_if(rows.begin(), rows.end(),
                                [](const collectives::WhatIfRow& r) { return r.algorithm == collectives::Algorithm::BFS_TREE; });
  EXPECT_NE(bfs, rows.end()) << file;
  EXPECT_TRUE(bfs != rows.end() && bfs->verified) << file;
  return bfs != rows.end() ? bfs->makespan : Rational(-1);
}

TEST(ScheduleRun, SimgridPlatformsRunTimedWithExactMakespans) {
  SKIP_WITHOUT_SIMGRID_EXAMPLES();
  for (const char* name : {"two_hosts.xml", "small_platform.xml", "cluster_backbone.xml"}) {
    const std::string file = starnet::testing::simgrid_example(name);
    const ScheduleRun r = run_timed(file);
    EXPECT_TRUE(r.verified) << name << ": " << r.report.first_problem();
    EXPECT_EQ(r.run.makespan, whatif_makespan(file)) << name;
  }
  // two_hosts.xml: one link of 100 µs and 125 MB/s, a unit message takes 12501/125000000 s, once
  // to reduce and once to broadcast back.
  EXPECT_EQ(run_timed(starnet::testing::simgrid_example("two_hosts.xml")).run.makespan, Rational(12501, 62500000));
  // cluster_backbone.xml: K_100, every link 2·50 µs + 500 µs and 125 MB/s; the root of the BFS
  // tree receives 99 messages one after the other, then sends 99 back: 198 · (3/5000 + 1/125000000).
  EXPECT_EQ(run_timed(starnet::testing::simgrid_example("cluster_backbone.xml")).run.makespan,
            198 * (Rational(3, 5000) + Rational(1, 125000000)));
  // small_platform.xml: the sums of its decimal times pass 64 bits and stay exact.
  EXPECT_FALSE(run_timed(starnet::testing::simgrid_example("small_platform.xml")).run.makespan.is_small());
}

}  // namespace
}  // namespace starnet::algorithms::schedule::testing
