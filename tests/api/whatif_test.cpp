// What-if studies as one library call (api/whatif.hpp): every collective's rows verified on the
// emulator, the one-packet total exchange meeting the status bound, α–β prices exact, and bad
// settings named. The catalogue itself is tested in tests/algorithms/collectives/.
#include "../core/expect_error.hpp"

#include <starnet/api/whatif.hpp>
#include <starnet/core/error.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace starnet::api {
namespace {

namespace coll = algorithms::collectives;

TEST(RunWhatIf, EveryCollectiveRunsVerifiedRowsOnEveryFamily) {
  for (const char* collective :
       {"allreduce", "reduce", "broadcast", "allgather", "reducescatter", "gather", "scatter", "alltoall"}) {
    WhatIfRequest r;
    r.collective = parse_collective(collective);
    r.topologies = {"star:4", "hypercube:3", "ring:6", "complete:8"};
    const auto out = run_whatif(r);
    EXPECT_TRUE(out.verified) << collective;
    std::size_t ran = 0;
    for (const auto& row : out.rows) {
      if (!row.applicable) continue;
      ++ran;
      EXPECT_TRUE(row.verified) << collective << " " << row.topology << " " << coll::to_string(row.algorithm) << ": "
                                << row.reason;
      EXPECT_GE(row.steps, row.lower_bound) << collective << " " << row.topology;
    }
    EXPECT_GE(ran, r.topologies.size()) << collective;  // at least a BFS tree on each
  }
}

TEST(RunWhatIf, TheOnePacketTotalExchangeTakesExactlyTheStatusInSteps) {
  WhatIfRequest r;
  r.collective = Collective::ALLTOALL;
  r.topologies = {"star:4", "hypercube:4", "torus:3x4"};
  const auto out = run_whatif(r);
  std::size_t one_packet = 0;
  for (const auto& row : out.rows) {
    if (row.algorithm != coll::Algorithm::ONE_PACKET) continue;
    ++one_packet;
    ASSERT_TRUE(row.bound_status.has_value()) << row.topology;
    EXPECT_EQ(row.steps, *row.bound_status) << row.topology;
    // The row's bound is the total exchange's (the step bound with unit costs), below its own model's s.
    EXPECT_LT(row.lower_bound, row.steps) << row.topology;
    EXPECT_FALSE(row.bound_reached) << row.topology;
  }
  EXPECT_EQ(one_packet, 3U);
}

TEST(RunWhatIf, AStudyInWhichNoRowRanIsNotVerified) {
  WhatIfRequest r;
  r.collective = Collective::ALLTOALL;
  r.topologies = {"star:10"};  // beyond the generic collectives: every row says why not
  const auto out = run_whatif(r);
  ASSERT_FALSE(out.rows.empty());
  EXPECT_EQ(out.rows_run, 0U);
  EXPECT_FALSE(out.verified);
  EXPECT_EQ(out.to_json()["rows_run"], 0);
}

TEST(WhatIfFigure, DrawsWhatTheTableRanksByWithEveryRow) {
  // star:5's total exchange at 1 KiB, 1 µs, 10 GB/s: by steps one-packet (442) is the slowest, by
  // time the tree (2.57 ms against 0.49 ms); the figure drew steps and reversed the ranking.
  WhatIfRequest r;
  r.collective = Collective::ALLTOALL;
  r.topologies = {"star:5"};
  r.latency = Rational(1, 1000000);
  r.bandwidth = Rational(10000000000);
  r.message_size = {Rational(1024)};
  const auto out = run_whatif(r);
  const auto figure = whatif_figure(out);
  EXPECT_EQ(figure.quantity, "time");
  EXPECT_THAT(figure.axis, ::testing::HasSubstr("α + m/β, in the unit α and 1/β are given in"));
  ASSERT_EQ(figure.groups.size(), 1U);
  const auto& bars = figure.groups[0].bars;
  ASSERT_EQ(bars.size(), out.rows.size());
  for (std::size_t i = 0; i < bars.size(); ++i) {
    EXPECT_EQ(bars[i].algorithm, coll::to_string(out.rows[i].algorithm));
    ASSERT_TRUE(bars[i].value.has_value());
    EXPECT_DOUBLE_EQ(*bars[i].value, out.rows[i].makespan.to_double());
  }
  EXPECT_EQ(bars[2].algorithm, "bfs-tree");
  EXPECT_GT(*bars[2].value, *bars[0].value);  // the tree is slower than the one-packet exchange
  EXPECT_FALSE(figure.log_scale);             // 2.57 ms / 52 µs: below 100
}

TEST(WhatIfFigure, MarksRowsThatDidNotRunAndTakesALogScaleWhereTheSpreadAsks) {
  WhatIfRequest r;
  r.topologies = {"star:4"};
  r.port_models = {{1, true}};  // the star all-reduce is not applicable in single-port half duplex
  const auto figure = whatif_figure(run_whatif(r));
  ASSERT_EQ(figure.groups.size(), 1U);
  EXPECT_EQ(figure.quantity, "steps");
  EXPECT_EQ(figure.groups[0].bars[0].mark, "not applicable");
  EXPECT_FALSE(figure.groups[0].bars[0].value.has_value());
  WhatIfRequest wide;
  wide.collective = Collective::ALLTOALL;
  wide.topologies = {"hypercube:8"};  // one-packet 1024 steps, combining 8
  EXPECT_TRUE(whatif_figure(run_whatif(wide)).log_scale);
}

TEST(RunWhatIf, LatencyAndBandwidthPriceAStepSynchronousRunExactly) {
  WhatIfRequest r;
  r.collective = Collective::ALLGATHER;
  r.topologies = {"hypercube:3"};
  r.latency = Rational(1);
  r.bandwidth = Rational(10);
  r.message_size = {Rational(3)};
  const auto out = run_whatif(r);
  bool found = false;
  for (const auto& row : out.rows) {
    if (row.algorithm != coll::Algorithm::RECURSIVE_DOUBLING) continue;
    found = true;
    // 3 steps carrying 1, 2 and 4 blocks of size 3 at bandwidth 10: 3·1 + (1 + 2 + 4)·3/10.
    EXPECT_EQ(row.makespan, Rational(3) + Rational(21, 10));
    EXPECT_LE(row.lower_bound_time, row.makespan);
  }
  EXPECT_TRUE(found);
}

TEST(RunWhatIf, ATopologyBuiltInMemoryGetsTheRowsOfTheSameGraphGivenAsASpec) {
  // K_4 built from edges is known by its structure: the group algorithms of complete:4 apply.
  std::vector<EdgeSpec> edges;
  for (std::size_t u = 0; u < 4; ++u) {
    for (std::size_t v = u + 1; v < 4; ++v) edges.push_back({u, v});
  }
  const auto k4 = platform_from_edges("k4", {"0", "1", "2", "3"}, edges, false);
  for (const auto c : {Collective::ALLREDUCE, Collective::ALLTOALL}) {
    WhatIfRequest built;
    built.collective = c;
    built.topologies = {k4};
    WhatIfRequest named = built;
    named.topologies = {"complete:4"};
    const auto a = run_whatif(built);
    const auto b = run_whatif(named);
    ASSERT_TRUE(a.verified);
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
      EXPECT_EQ(a.rows[i].topology, "k4");
      EXPECT_EQ(a.rows[i].algorithm, b.rows[i].algorithm);
      EXPECT_EQ(a.rows[i].steps, b.rows[i].steps);
      EXPECT_EQ(a.rows[i].lower_bound, b.rows[i].lower_bound);
    }
  }
  // A name that spells a spec gives the topology no family: a path named "ring:3" is no ring.
  const auto path = platform_from_edges("ring:3", {"a", "b", "c"}, {{0, 1}, {1, 2}}, false);
  WhatIfRequest r;
  r.topologies = {path};
  const auto out = run_whatif(r);
  ASSERT_TRUE(out.verified);
  for (const auto& row : out.rows) EXPECT_NE(row.algorithm, coll::Algorithm::RING) << row.reason;
}

TEST(RunWhatIf, RefusesBadSettingsNamingThem) {
  WhatIfRequest r;
  r.topologies = {"ring:4"};
  r.latency = Rational(-1);
  EXPECT_ERROR(UsageError, (void)run_whatif(r), "latency");
  r.latency.reset();
  r.bandwidth = Rational(0);
  EXPECT_ERROR(UsageError, (void)run_whatif(r), "bandwidth");
  r.bandwidth.reset();
  r.topologies = {"nosuch:3"};
  EXPECT_ERROR(InputError, (void)run_whatif(r), "nosuch:3");
  EXPECT_ERROR(UsageError, (void)parse_collective("scan"), "scan");
}

}  // namespace
}  // namespace starnet::api
