#include "../../core/expect_error.hpp"
#include "../../topology/network_examples.hpp"
#include "../../topology/simgrid_examples.hpp"
#include "../generic/generic_test_support.hpp"

#include <starnet/algorithms/collectives/whatif.hpp>
#include <starnet/algorithms/generic/routed_tree.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/network.hpp>
#include <starnet/topology/platform.hpp>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

namespace starnet::algorithms::collectives {

using namespace generic;  // NOLINT
namespace {

using emulator::PortModel;
using ::testing::HasSubstr;

const std::vector<PortModel> MODELS = {{1, false}, {1, true}, {2, false}, {2, true}};

std::string where(const WhatIfRow& r) {
  return r.topology + " " + to_string(r.algorithm) + " " + r.ports.to_string() + " faults " + r.faults;
}

/// The relay model: switches as nodes under the port model, forwarding hop by hop.
NetworkModel relays() {
  NetworkModel model;
  model.forwarding = topology::Forwarding::STORE_AND_FORWARD;
  return model;
}

/// The acceptance checks every study must pass: every applicable row verified exactly when it
/// reached every alive processor (every alive node, without routers), and the bound never above
/// what was measured.
void expect_sound(const WhatIfStudy& study) {
  ASSERT_FALSE(study.rows().empty());
  bool cut = false;
  for (const auto& r : study.rows()) {
    if (!r.applicable) continue;
    EXPECT_EQ(r.verified, r.processors == r.alive_processors) << where(r) << ": " << r.reason;
    EXPECT_LE(r.processors, r.nodes) << where(r);
    cut = cut || r.processors < r.alive_processors;
    EXPECT_LE(r.lower_bound_time, r.makespan) << where(r);
    if (r.time == emulator::TimeMode::UNIT) {
      EXPECT_LE(r.lower_bound, r.steps) << where(r);
      // On a network of switches a message may wait for a link: steps beyond the plan's.
      if (r.link_loads.empty()) {
        EXPECT_EQ(r.steps, r.planned_steps) << where(r);
      } else {
        EXPECT_GE(r.steps, r.planned_steps) << where(r);
      }
    }
    ASSERT_TRUE(r.ratio.has_value()) << where(r);
    EXPECT_GE(*r.ratio, 1.0) << where(r);
  }
  EXPECT_EQ(study.all_verified(), !cut);
}

TEST(WhatIfStudy, StarRowsTakeNTimesNMinusOneHalfStepsAndRecursiveDoublingDSteps) {
  WhatIfStudy study;
  study.topologies({"star:3", "star:4", "star:5", "star:6", "hypercube:3", "hypercube:5", "hypercube:7"})
      .port_models(MODELS)
      .run();
  expect_sound(study);
  int star_rows = 0;
  int cube_rows = 0;
  for (const auto& r : study.rows()) {
    if (r.algorithm == Algorithm::STAR && r.applicable) {
      const int n = r.topology.back() - '0';
      EXPECT_EQ(r.steps, star::allreduce_steps(n)) << where(r);
      EXPECT_EQ(r.messages, r.nodes * star::allreduce_steps(n)) << where(r);
      ++star_rows;
    }
    if (r.algorithm == Algorithm::RECURSIVE_DOUBLING) {
      const int d = r.topology.back() - '0';
      const bool split = r.ports.half_duplex && r.ports.ports == 1;
      EXPECT_EQ(r.steps, static_cast<std::uint64_t>(split ? 2 * d : d)) << where(r);
      if (!split) {
        EXPECT_EQ(r.lower_bound, r.steps) << where(r);  // d = ⌈log₂ 2^d⌉ = diameter: optimal
      }
      ++cube_rows;
    }
  }
  EXPECT_EQ(star_rows, 4 * 3);  // single-port half duplex is not applicable
  EXPECT_EQ(cube_rows, 3 * 4);
}

TEST(WhatIfStudy, EveryCollectiveOnEveryFamilyWithFaultsIsSound) {
  for (const Collective c : {Collective::ALLREDUCE, Collective::REDUCE, Collective::BROADCAST}) {
    WhatIfStudy study;
    study.collective(c)
        .topologies(
            {"star:5", "hypercube:7", "debruijn:7", "torus:11x11", "ring:10", "complete:12", "mesh:5x5", "tiers:2"})
        .network(relays())  // faults on tiers' routers: the relay model, whose routes avoid them
        .port_models(MODELS)
        .fault_rates({0, 0.05})
        .seed(3)
        .run();
    SCOPED_TRACE(to_string(c));
    expect_sound(study);
    for (const auto& r : study.rows()) {
      if (c != Collective::ALLREDUCE) {
        EXPECT_EQ(r.algorithm, Algorithm::BFS_TREE) << where(r);
      }
      if (r.fail_rate == 0) {
        EXPECT_EQ(r.faults, "p=0 (0 links)");
      }
    }
  }
}

TEST(WhatIfStudy, OneRowPerTopologyPortModelScenarioAndAlgorithm) {
  WhatIfStudy study;
  study.topologies({"star:4", "hypercube:4", "torus:4x4", "debruijn:4"})
      .port_models({{1, false}, {2, false}})
      .fault_rates({0, 0.01, 0.05})
      .run();
  std::map<std::string, int> per_topology;
  for (const auto& r : study.rows()) ++per_topology[r.topology];
  EXPECT_EQ(per_topology["star:4"], 2 * 3 * 2);  // star, bfs-tree
  EXPECT_EQ(per_topology["hypercube:4"], 2 * 3 * 2);
  EXPECT_EQ(per_topology["torus:4x4"], 2 * 3 * 2);
  EXPECT_EQ(per_topology["debruijn:4"], 2 * 3 * 1);
}

TEST(WhatIfStudy, AFailedLinkMakesTheStarAllReduceNotApplicableAtTheFirstStepThatUsesIt) {
  // star:4, link 1234–3214 is dimension 3: levels m = 3, 4 use link 3 at steps 1 and 4.
  WhatIfStudy study;
  study.topologies({"star:4"}).failed_links("1234-3214").run();
  ASSERT_EQ(study.rows().size(), 2U);
  const auto& star = study.rows()[0];
  EXPECT_EQ(star.algorithm, Algorithm::STAR);
  EXPECT_FALSE(star.applicable);
  EXPECT_EQ(star.reason, "link 1234–3214 used at step 1 is down");
  EXPECT_EQ(star.failed_links, 1U);
  const auto& tree = study.rows()[1];
  EXPECT_TRUE(tree.applicable && tree.verified);
  EXPECT_EQ(tree.links, 36U - 1);
  // Which step is found follows level_of_step: the first s with link() == k.
  for (int k = 2; k <= 6; ++k) {
    std::uint64_t s = 0;
    while (star::level_of_step(s).link() != k) ++s;
    EXPECT_EQ(s, star::allreduce_steps(k - 1)) << " k=" << k;
  }
}

TEST(WhatIfStudy, RecursiveDoublingAndRingNameTheFirstFailedLinkTheyUse) {
  WhatIfStudy cube;
  cube.topologies({"hypercube:4"}).failed_links("0-8").run();  // dimension 4: round 3
  EXPECT_EQ(cube.rows()[0].reason, "link 0000–1000 used at step 3 is down");
  WhatIfStudy torus;
  torus.topologies({"torus:3x3"}).failed_links("(1,0)-(2,0)").run();  // a column link: phase 2, round 0
  EXPECT_EQ(torus.rows()[0].reason, "link (1,0)–(2,0) used at step 2 is down");
  WhatIfStudy node;
  node.topologies({"ring:5"}).failed_nodes("3").run();
  EXPECT_EQ(node.rows()[0].reason, "node 3 used at step 0 is down");
  EXPECT_TRUE(node.rows()[1].verified);
  EXPECT_EQ(node.rows()[1].nodes, 4U);  // bfs-tree on the path that is left
}

TEST(WhatIfStudy, ADisconnectedPlatformIsReportedWithWhatTheRootReaches) {
  WhatIfStudy study;
  study.topologies({"mesh:3x3"}).failed_links("(2,2)-(1,2),(2,2)-(2,1)").run();
  ASSERT_EQ(study.rows().size(), 2U);
  // The dimension-ordered algorithm needs the intact mesh and names the first failed link it uses.
  EXPECT_FALSE(study.rows()[0].applicable);
  EXPECT_EQ(study.rows()[0].reason, "link (2,2)–(2,1) used at step 0 is down");
  const auto& r = study.rows()[1];
  EXPECT_FALSE(r.connected);
  EXPECT_EQ(r.alive_nodes, 9U);
  EXPECT_EQ(r.nodes, 8U);
  EXPECT_FALSE(r.verified);  // the all-reduce over the nine alive nodes missed one
  EXPECT_EQ(r.reason, "reached 8 of the 9 alive nodes: the faults (2 links) cut root (0,0) off from the other 1");
  EXPECT_EQ(r.faults, "2 links");
}

TEST(WhatIfStudy, SinglePortHalfDuplexStarIsNotApplicableBecauseItWouldBreakThePortModel) {
  WhatIfStudy study;
  study.topologies({"star:4"}).port_models({{1, true}}).run();
  EXPECT_FALSE(study.rows()[0].applicable);
  EXPECT_THAT(study.rows()[0].reason, HasSubstr("half duplex"));
  // Running it anyway is a strict-mode violation: the reason is the emulator's verdict.
  const topology::StarGraph g(4);
  const emulator::UnitCosts<Rational> costs;
  emulator::RunConfig config;
  config.ports = {1, true};
  EXPECT_THROW(
      emulator::LocalEngine<Rational>().run(
          g, costs, [&](emulator::NodeRange r) { return star::make_allreduce_program(g, Op::SUM, {}, 0, r); }, config),
      ModelViolation);
}

TEST(WhatIfStudy, RandomCostsRunTimedWithExactMakespansAndTheTimedBound) {
  WhatIfStudy study;
  study.topologies({"star:4", "hypercube:5", "torus:4x5", "debruijn:5", "tiers:3"})
      .network(relays())  // faults on tiers' routers: the relay model, whose routes avoid them
      .port_models(MODELS)
      .costs(CostKind::RANDOM)
      .seed(9)
      .fault_rates({0, 0.1})
      .run();
  expect_sound(study);
  bool fractional = false;
  for (const auto& r : study.rows()) {
    if (r.algorithm == Algorithm::STAR) {
      EXPECT_FALSE(r.applicable);
      continue;
    }
    if (!r.applicable) continue;
    EXPECT_EQ(r.time, emulator::TimeMode::TIMED) << where(r);
    fractional = fractional || !r.makespan.is_integer();
  }
  EXPECT_TRUE(fractional);
  // The same seed gives the same makespans.
  WhatIfStudy again;
  again.topologies({"star:4", "hypercube:5", "torus:4x5", "debruijn:5", "tiers:3"})
      .network(relays())  // faults on tiers' routers: the relay model, whose routes avoid them
      .port_models(MODELS)
      .costs(CostKind::RANDOM)
      .seed(9)
      .fault_rates({0, 0.1})
      .run();
  ASSERT_EQ(again.rows().size(), study.rows().size());
  for (std::size_t i = 0; i < study.rows().size(); ++i) EXPECT_EQ(again.rows()[i].makespan, study.rows()[i].makespan);
}

TEST(WhatIfStudy, TopologyCostsOfEqualLinksStayInUnitTimeScaled) {
  WhatIfStudy study;
  study.topologies({"tiers:5", "ring:7"}).costs(CostKind::TOPOLOGY).run();
  expect_sound(study);
  EXPECT_EQ(study.rows()[0].time, emulator::TimeMode::TIMED);  // tiers has heterogeneous costs
  const auto ring = std::find_if(study.rows().begin(), study.rows().end(), [](const WhatIfRow& r) { return r.topology == "ring:7"; });
  ASSERT_NE(ring, study.rows().end());
  EXPECT_EQ(ring->time, emulator::TimeMode::UNIT);  // ring:7, all links cost 1
  EXPECT_EQ(ring->steps, 6U);
}

TEST(WhatIfStudy, MessageSizeUsesTheAlphaBetaTimeOfEveryLink) {
  // a —(α 2, β 4)— b —(α 1/2, cost 1)— c: a message of m units takes 2 + m/4, then 1/2 + m.
  const auto path = std::filesystem::temp_directory_path() / ("starnet_whatif_ab_" + std::to_string(::getpid()) + ".dot");
  std::ofstream(path) << "graph { a -- b [latency=2, bandwidth=4]; b -- c [latency=\"1/2\"]; }\n";
  for (const auto& [size, hop] : {std::pair{Rational(1), std::pair{Rational(9, 4), Rational(3, 2)}},
                                  std::pair{Rational(8), std::pair{Rational(4), Rational(17, 2)}}}) {
    WhatIfStudy study;
    study.topologies({path.string()}).costs(CostKind::TOPOLOGY).message_size(size).run();
    expect_sound(study);
    const auto bfs = std::find_if(study.rows().begin(), study.rows().end(),
                                  [](const WhatIfRow& r) { return r.algorithm == Algorithm::BFS_TREE; });
    ASSERT_NE(bfs, study.rows().end());
    EXPECT_EQ(bfs->time, emulator::TimeMode::TIMED);
    // Reduce to a (c→b, b→a), then broadcast back (a→b, b→c): twice the path.
    EXPECT_EQ(bfs->makespan, 2 * (hop.first + hop.second)) << size.to_string();
    // The weighted diameter of one unit of the vector (a part travels alone): 2 + 1/4, then 1/2 + 1.
    EXPECT_EQ(bfs->lower_bound_time, Rational(9, 4) + Rational(3, 2)) << size.to_string();
    EXPECT_TRUE(bfs->verified);
  }
  EXPECT_ERROR(UsageError, WhatIfStudy().topologies({path.string()}).message_size(4).run(), "message size 4",
               "topology costs only");
  EXPECT_ERROR(UsageError,
               WhatIfStudy().topologies({path.string()}).costs(CostKind::TOPOLOGY).message_size(0).run(),
               "message size 0", "> 0");
  std::filesystem::remove(path);
}

TEST(WhatIfStudy, TimesBeyond64BitsStayExact) {
  // Four links of prime bandwidths near 10^6: a path's time has a denominator near 10^24.
  const auto path = std::filesystem::temp_directory_path() / ("starnet_whatif_big_" + std::to_string(::getpid()) + ".dot");
  std::ofstream(path) << "graph { a -- b [bandwidth=1000003]; b -- c [bandwidth=1000033]; "
                         "c -- d [bandwidth=1000037]; d -- e [bandwidth=1000039]; }\n";
  WhatIfStudy study;
  study.topologies({path.string()}).costs(CostKind::TOPOLOGY).run();
  expect_sound(study);
  const auto bfs = std::find_if(study.rows().begin(), study.rows().end(),
                                [](const WhatIfRow& r) { return r.algorithm == Algorithm::BFS_TREE; });
  ASSERT_NE(bfs, study.rows().end());
  const Rational path_time = Rational(1, 1000003) + Rational(1, 1000033) + Rational(1, 1000037) + Rational(1, 1000039);
  ASSERT_FALSE(path_time.is_small());
  // Reduce to a along the path, then broadcast back: twice the path, to the last digit.
  EXPECT_EQ(bfs->makespan, 2 * path_time);
  EXPECT_EQ(bfs->lower_bound_time, path_time);
  EXPECT_TRUE(bfs->verified);
  std::filesystem::remove(path);
}

// SimGrid's example platforms with their decimal bandwidths and latencies: every row runs,
// is verified and keeps its makespan exact.
TEST(WhatIfStudy, SimgridPlatformsRunWithExactTopologyCosts) {
  SKIP_WITHOUT_SIMGRID_EXAMPLES();
  bool beyond_64_bits = false;
  for (const char* name : {"two_hosts.xml", "small_platform.xml", "cluster_backbone.xml"}) {
    WhatIfStudy study;
    study.collective(Collective::ALLREDUCE).topologies({starnet::testing::simgrid_example(name)}).costs(CostKind::TOPOLOGY).run();
    expect_sound(study);
    for (const auto& r : study.rows()) {
      if (r.applicable) beyond_64_bits = beyond_64_bits || !r.makespan.is_small();
    }
    if (std::string(name) == "two_hosts.xml") {
      // One link of 100 µs and 125 MB/s: a unit message takes 1/10000 + 1/125000000 = 12501/125000000 s,
      // one step to reduce and one to broadcast back.
      const auto bfs = std::find_if(study.rows().begin(), study.rows().end(),
                                    [](const WhatIfRow& r) { return r.algorithm == Algorithm::BFS_TREE; });
      ASSERT_NE(bfs, study.rows().end());
      EXPECT_EQ(bfs->makespan, Rational(12501, 62500000));
    }
  }
  EXPECT_TRUE(beyond_64_bits) << "small_platform.xml's times were expected to pass 64 bits";
}

TEST(WhatIfStudy, BadInputIsAnErrorNamingTheInput) {
  const auto study = [] { return WhatIfStudy().topologies({"hypercube:7"}); };
  EXPECT_ERROR(TopologyError, study().topologies({"cube:7"}).run(), "cube:7");
  EXPECT_ERROR(TopologyError, study().topologies({"star:13"}).run(), "star:13");
  EXPECT_ERROR(UsageError, study().failed_links("3-17").run(), "failed links 3-17", "no link", "hypercube:7");
  EXPECT_ERROR(UsageError, study().failed_nodes("300").run(), "failed nodes 300", "hypercube:7");
  EXPECT_ERROR(UsageError, study().port_models({{0, false}}).run(), "ports 0", "k ≥ 1");
  EXPECT_ERROR(UsageError, study().port_models({}).run(), "port models", "expected at least one");
  EXPECT_ERROR(UsageError, study().latency(Rational(-1)).run(), "latency -1", "≥ 0");
  EXPECT_ERROR(UsageError, study().bandwidth(Rational(0)).run(), "bandwidth 0", "> 0");
  EXPECT_ERROR(UsageError, study().fault_rates({1.5}).run(), "failure probability 1.5");
  EXPECT_ERROR(UsageError, study().root("zz").run(), "root zz", "hypercube:7");
  EXPECT_ERROR(UsageError, study().failed_nodes("5").root("5").run(), "root 5", "among the failed nodes");
  EXPECT_ERROR(UsageError, WhatIfStudy().run(), "topologies: no topology given");
  EXPECT_ERROR(UsageError, study().latency(Rational(-1)).run(), "latency -1", "≥ 0");
  EXPECT_ERROR(UsageError, study().bandwidth(Rational(0)).run(), "bandwidth 0", "> 0");
  EXPECT_ERROR(UsageError, study().costs(CostKind::RANDOM).bandwidth(Rational(2)).run(), "bandwidth 2", "random");
}

TEST(WhatIfStudy, EveryCollectiveIsSoundOnEveryFamilyUnderFaultsPortModelsAndRandomCosts) {
  const Collective blocked[] = {Collective::ALLGATHER, Collective::REDUCESCATTER, Collective::GATHER,
                                Collective::SCATTER, Collective::ALLTOALL};
  for (const Collective c : blocked) {
    for (const CostKind costs : {CostKind::UNIT, CostKind::RANDOM}) {
      WhatIfStudy study;
      study.collective(c)
          .topologies({"star:4", "hypercube:4", "ring:6", "torus:3x4", "complete:6", "mesh:3x3", "debruijn:4"})
          .port_models(MODELS)
          .fault_rates({0, 0.1})
          .costs(costs)
          .seed(5)
          .run();
      SCOPED_TRACE(to_string(c) + " " + to_string(costs));
      expect_sound(study);
      std::size_t ran = 0;
      for (const auto& r : study.rows()) {
        if (!r.applicable) {
          // Not applicable only for a failed part, a port model the schedule breaks, or a step-synchronous
          // program under random costs: never silently.
          EXPECT_FALSE(r.reason.empty()) << where(r);
          continue;
        }
        ++ran;
        EXPECT_GT(r.volume, 0U) << where(r);
        EXPECT_EQ(r.time, costs == CostKind::UNIT ? emulator::TimeMode::UNIT : emulator::TimeMode::TIMED) << where(r);
      }
      EXPECT_GT(ran, study.rows().size() / 2);
    }
  }
}

TEST(WhatIfStudy, ACollectiveThatCannotReachEveryAliveNodeIsNotVerified) {
  // The root's five neighbours of Q_5 fail: the tree reaches the root alone, of 27 alive nodes.
  WhatIfStudy study;
  study.topologies({"hypercube:5"}).failed_nodes("1,2,4,8,16").run();
  const auto& tree = study.rows().back();
  ASSERT_EQ(tree.algorithm, Algorithm::BFS_TREE);
  ASSERT_TRUE(tree.applicable);
  EXPECT_EQ(tree.nodes, 1U);
  EXPECT_EQ(tree.alive_nodes, 27U);
  EXPECT_FALSE(tree.verified);
  EXPECT_EQ(tree.reason, "reached 1 of the 27 alive nodes: the faults (5 nodes) cut root 00000 off from the other 26");
  EXPECT_FALSE(study.all_verified());
}

TEST(WhatIfStudy, AFailedLinkBlocksAChunkScheduleAtTheFirstStepThatUsesIt) {
  // ring:6 all-gather: every link carries a block at step 0.
  WhatIfStudy study;
  study.collective(Collective::ALLGATHER).topologies({"ring:6"}).failed_links("2-3").run();
  ASSERT_EQ(study.rows()[0].algorithm, Algorithm::RING);
  EXPECT_FALSE(study.rows()[0].applicable);
  EXPECT_EQ(study.rows()[0].reason, "link 2–3 used at step 0 is down");
  EXPECT_EQ(study.rows().back().algorithm, Algorithm::BFS_TREE);
  EXPECT_TRUE(study.rows().back().verified);  // the tree runs on the path that is left
}

TEST(WhatIfStudy, AlphaBetaPricesStepsAtTheirLargestMessageAndBoundsTheExchangeByTheStatus) {
  // Q_3, α = 2, β = 1/3 (a unit of size takes 3), messages of 1: one packet costs 5.
  WhatIfStudy study;
  study.collective(Collective::ALLTOALL).topologies({"hypercube:3"}).latency(Rational(2)).bandwidth(Rational(1, 3)).run();
  ASSERT_EQ(study.rows().size(), 3U);
  const auto& one = study.rows()[0];
  ASSERT_EQ(one.algorithm, Algorithm::ONE_PACKET);
  EXPECT_EQ(one.steps, 12U);  // s = 3·4
  EXPECT_EQ(one.makespan, Rational(12 * 5));
  EXPECT_EQ(one.bound_status, 12U);
  // The collective's bound, as every row's: α·L + m/β·max(L, s), L = 3, s = 12 (its own model's
  // s steps of one packet is bound_status, not a bound on the total exchange).
  EXPECT_EQ(one.lower_bound, 3U);
  EXPECT_EQ(one.lower_bound_time, Rational(2 * 3 + 3 * 12));
  EXPECT_FALSE(one.bound_reached);
  EXPECT_EQ(one.ratio, 60.0 / 42.0);
  const auto& comb = study.rows()[1];
  ASSERT_EQ(comb.algorithm, Algorithm::COMBINING);
  EXPECT_EQ(comb.steps, 3U);
  EXPECT_EQ(comb.volume, 12U);
  EXPECT_EQ(comb.makespan, Rational(3 * 2 + 12 * 3));
  // α·L + m/β·max(L, s): L = 3, s = 12 — met by the combining exchange.
  EXPECT_EQ(comb.lower_bound_time, Rational(2 * 3 + 3 * 12));
  EXPECT_TRUE(comb.bound_reached);
  for (const auto& r : study.rows()) EXPECT_TRUE(r.verified) << where(r);
}

TEST(WhatIfStudy, WithTwoPortsTheOnePacketExchangeStaysAtTheStatusAboveTheStepBound) {
  // Unit costs count steps: the bound is L = 3 (the combining exchange takes 3); it takes s = 12.
  WhatIfStudy study;
  study.collective(Collective::ALLTOALL).topologies({"hypercube:3"}).port_models({{2, false}}).run();
  const auto& one = study.rows()[0];
  ASSERT_EQ(one.algorithm, Algorithm::ONE_PACKET);
  EXPECT_EQ(one.steps, 12U);
  EXPECT_EQ(one.lower_bound, 3U);
  EXPECT_FALSE(one.bound_reached);
  EXPECT_EQ(one.ratio, 4.0);
}

TEST(WhatIfStudy, TheCayleyGraphsOfSnGetBothTotalExchangesVerifiedAtOrAboveTheirBounds) {
  // spec, the status (total_exchange_test.cpp derives it from the distance counts), the combining
  // exchange's steps and volume (total_exchange_test.cpp checks them against the links). The
  // one-packet exchange takes s steps, the status bound it prints; the combining one its sequence.
  // Size 6 (1–2 s a topology here): its combining exchange in total_exchange_test.cpp.
  struct Expected {
    std::string spec;
    std::uint64_t status;
    std::uint64_t combining_steps;
    std::uint64_t combining_volume;
  };
  const std::vector<Expected> cases = {{"pancake:4", 60, 5, 64},         {"pancake:5", 425, 8, 484},
                                       {"bubblesort:4", 72, 6, 72},      {"bubblesort:5", 600, 10, 600},
                                       {"transposition:4", 46, 5, 56},   {"transposition:5", 326, 8, 414}};
  std::vector<std::string> specs;
  for (const auto& c : cases) specs.push_back(c.spec);
  WhatIfStudy study;
  study.collective(Collective::ALLTOALL).topologies(specs).run();
  expect_sound(study);
  for (const auto& c : cases) {
    int rows = 0;
    for (const auto& r : study.rows()) {
      if (r.topology != c.spec || r.algorithm == Algorithm::BFS_TREE) continue;
      ++rows;
      ASSERT_TRUE(r.applicable) << where(r) << ": " << r.reason;
      EXPECT_TRUE(r.verified) << where(r) << ": " << r.reason;
      EXPECT_EQ(r.bound_status, c.status) << where(r);
      EXPECT_GE(r.steps, r.lower_bound) << where(r);
      if (r.algorithm == Algorithm::ONE_PACKET) {
        EXPECT_EQ(r.steps, c.status) << where(r);
        EXPECT_EQ(r.messages, r.nodes * c.status) << where(r);
      } else {
        ASSERT_EQ(r.algorithm, Algorithm::COMBINING) << where(r);
        EXPECT_EQ(r.steps, c.combining_steps) << where(r);
        EXPECT_EQ(r.volume, c.combining_volume) << where(r);
        EXPECT_GE(r.volume, c.status) << where(r);
      }
    }
    EXPECT_EQ(rows, 2) << c.spec;
  }
}

/// The fastest applicable row of @p study.
Rational fastest(const WhatIfStudy& study) {
  std::optional<Rational> best;
  for (const auto& r : study.rows()) {
    if (r.applicable && (!best || r.makespan < *best)) best = r.makespan;
  }
  return best.value_or(Rational(0));
}

/// Each word collective on the graph @p dot with its own link costs: the BFS tree's and the
/// weighted tree's makespans, and the tree that won the weighted row. The observer (`--trace`)
/// sees one run a row: the weighted row's is the tree it kept, though it ran both.
void expect_trees(const std::string& name, const std::string& dot,
                  const std::map<Collective, std::pair<Rational, Rational>>& expected, const std::string& variant) {
  const auto path = std::filesystem::temp_directory_path() / ("starnet_whatif_" + name + std::to_string(::getpid()) + ".dot");
  std::ofstream(path) << dot;
  for (const auto& [c, times] : expected) {
    WhatIfStudy study;
    std::vector<std::pair<Algorithm, Rational>> observed;  // each observed run's row and makespan
    study.collective(c).topologies({path.string()}).costs(CostKind::TOPOLOGY).observe_runs(
        [&](const WhatIfRow& r, const emulator::RunResult<Rational>& run, const topology::Topology&) {
          EXPECT_EQ(run.makespan, r.makespan) << where(r);
          observed.emplace_back(r.algorithm, run.makespan);
        });
    study.run();
    expect_sound(study);
    ASSERT_EQ(study.rows().size(), 2U) << to_string(c);
    const std::vector<std::pair<Algorithm, Rational>> one_each = {{Algorithm::BFS_TREE, times.first},
                                                                   {Algorithm::WEIGHTED_TREE, times.second}};
    EXPECT_EQ(observed, one_each) << to_string(c);
    EXPECT_EQ(study.rows()[0].algorithm, Algorithm::BFS_TREE);
    EXPECT_EQ(study.rows()[0].makespan, times.first) << to_string(c);
    const auto& weighted = study.rows()[1];
    EXPECT_EQ(weighted.algorithm, Algorithm::WEIGHTED_TREE);
    EXPECT_EQ(weighted.variant, variant) << to_string(c);
    EXPECT_EQ(weighted.makespan, times.second) << to_string(c);
    EXPECT_TRUE(weighted.verified) << to_string(c);
    EXPECT_EQ(weighted.nodes, 4U);
  }
  std::filesystem::remove(path);
}

TEST(WhatIfStudy, TimedWordCollectivesGetATreeThatWeighsLinkCosts) {
  // a – b costs 8, a – c – b 1 + 1, a – d 1: the BFS tree hangs b on the slow link, and a, with
  // one port, takes its three children one after the other: 1 + 1 + 8 up, as much down. The
  // shortest-path tree hangs b below c: 2 up (b → c while d → a, then c → a), 2 down. The
  // earliest-completion tree is the same tree here; the tie keeps the shortest paths.
  expect_trees("weighted", "graph { a -- b [cost=8]; a -- c [cost=1]; c -- b [cost=1]; a -- d [cost=1]; }\n",
               {{Collective::ALLREDUCE, {20, 4}}, {Collective::REDUCE, {10, 2}}, {Collective::BROADCAST, {10, 2}}},
               "shortest paths");
  // Equal links: the BFS tree already weighs them; no second tree row.
  WhatIfStudy unit;
  unit.topologies({"mesh:3x3"}).run();
  for (const auto& r : unit.rows()) EXPECT_NE(r.algorithm, Algorithm::WEIGHTED_TREE);
}

TEST(WhatIfStudy, TheWeightedTreeWeighsThePortModelWhereCheapestPathsOverloadTheRoot) {
  // a – b, a – c, a – d cost 2; b – c, b – d cost 1. Every cheapest path from a is direct, so the
  // BFS and shortest-path trees make a, with one port, serve b, c, d at 2, 4, 6 (as much up). The
  // earliest-completion tree hangs c below b: down, a → b [0, 2], then a → d [2, 4] with
  // b → c [2, 3]; up, c → b [0, 1] and d → a [0, 2], then b → a [2, 4].
  expect_trees("ecef",
               "graph { a -- b [cost=2]; a -- c [cost=2]; a -- d [cost=2]; b -- c [cost=1]; b -- d [cost=1]; }\n",
               {{Collective::ALLREDUCE, {12, 8}}, {Collective::REDUCE, {6, 4}}, {Collective::BROADCAST, {6, 4}}},
               "earliest completion");
}

TEST(WhatIfStudy, TheAllReduceBoundOfAVectorStaysBelowReduceScatterThenAllGather) {
  // hypercube:4, α = 1 µs, β = 10^9 units/s, a vector of M = 2^20 units: reduce-scatter then
  // all-gather of its sixteen blocks of M/16 take 2·(4α + 15/16·M/β) ≈ 1.974 ms, where one
  // indivisible vector per message takes 4·(α + M/β) ≈ 4.198 ms. The bound was that 4.198 ms.
  const Rational alpha(1, 1000000);
  const Rational beta(1000000000);
  const Rational vector(1 << 20);
  const auto study = [&](Collective c, const Rational& size) {
    WhatIfStudy s;
    s.collective(c).topologies({"hypercube:4"}).latency(alpha).bandwidth(beta).message_size(size).run();
    expect_sound(s);
    return s;
  };
  const auto allreduce = study(Collective::ALLREDUCE, vector);
  const auto split = fastest(study(Collective::REDUCESCATTER, vector / 16)) + fastest(study(Collective::ALLGATHER, vector / 16));
  EXPECT_EQ(split, 2 * (4 * alpha + Rational(15, 16) * vector / beta));
  // The all-reduce's own rabenseifner row is that composition, timed as one schedule.
  EXPECT_EQ(fastest(allreduce), split);
  for (const auto& r : allreduce.rows()) {
    if (r.algorithm == Algorithm::RABENSEIFNER) EXPECT_EQ(r.makespan, split);
    // α·L + M/β·2(N − 1)/N: the latency term and the bandwidth term of any all-reduce.
    EXPECT_EQ(r.lower_bound_time, 4 * alpha + vector / beta * Rational(30, 16)) << where(r);
    EXPECT_LE(r.lower_bound_time, split) << where(r);
    EXPECT_EQ(r.bound_volume, Rational(30, 16)) << where(r);
  }
}

TEST(WhatIfStudy, EveryBoundIsBelowEveryRowAndEveryComposedAllReduceOnEveryFamily) {
  // Directed links too: a digraph whose arcs have other costs each way (timed, directed distances),
  // and one with a one-way arc (its trees are not applicable, never silently).
  const auto dir = std::filesystem::temp_directory_path();
  const auto two_way = dir / ("starnet_whatif_dir2_" + std::to_string(::getpid()) + ".dot");
  const auto one_way = dir / ("starnet_whatif_dir1_" + std::to_string(::getpid()) + ".dot");
  std::ofstream(two_way) << "digraph { a -> b [latency=1, bandwidth=2]; b -> a [latency=3, bandwidth=1]; "
                            "b -> c [latency=1, bandwidth=4]; c -> b [latency=2, bandwidth=1]; "
                            "c -> a [latency=1, bandwidth=1]; a -> c [latency=5, bandwidth=3]; }\n";
  std::ofstream(one_way) << "digraph { a -> b; b -> c; c -> a; a -> c; }\n";
  const std::vector<std::string> families = {"star:4",     "hypercube:3",     "ring:6",          "torus:3x4",
                                             "complete:6", "mesh:2x3",        "debruijn:3",      "fattree:4",
                                             "dragonfly:2:2:1", "dragonfly:4:3:2", "tiers:1",   two_way.string(),
                                             one_way.string()};
  for (const Rational& m : {Rational(1), Rational(4096)}) {
    std::map<std::pair<std::string, Collective>, Rational> best;  // fastest row, single port full duplex
    for (const Collective c : ALL_COLLECTIVES) {
      WhatIfStudy study;
      study.collective(c)
          .topologies(families)
          .port_models({{1, false}, {1, true}, {2, false}})
          .latency(Rational(1, 1000))
          .bandwidth(Rational(1000))
          .message_size(c == Collective::ALLREDUCE ? m : m / 6)
          .run();
      SCOPED_TRACE(to_string(c) + " m=" + m.to_string());
      expect_sound(study);
      for (const auto& r : study.rows()) {
        if (!r.applicable) {
          EXPECT_FALSE(r.reason.empty()) << where(r);
          continue;
        }
        EXPECT_LE(r.bound_volume, Rational(static_cast<std::int64_t>(r.volume))) << where(r);
        if (r.ports.ports == 1 && !r.ports.half_duplex && r.nodes == 6) {
          const auto key = std::pair{r.topology, c};
          if (!best.contains(key) || r.makespan < best[key]) best[key] = r.makespan;
        }
      }
    }
    // An all-reduce of six blocks is a reduce-scatter then an all-gather of them: the all-reduce's
    // bound is below that sum wherever both run on six nodes.
    WhatIfStudy allreduce;
    allreduce.topologies({"ring:6", "complete:6", "mesh:2x3"}).latency(Rational(1, 1000)).bandwidth(Rational(1000)).message_size(m).run();
    for (const auto& r : allreduce.rows()) {
      const auto rs = best.find({r.topology, Collective::REDUCESCATTER});
      const auto ag = best.find({r.topology, Collective::ALLGATHER});
      ASSERT_TRUE(rs != best.end() && ag != best.end()) << where(r);
      EXPECT_LE(r.lower_bound_time, rs->second + ag->second) << where(r) << " m=" << m.to_string();
    }
  }
  std::filesystem::remove(two_way);
  std::filesystem::remove(one_way);
}

TEST(WhatIfStudy, LinksOfEqualTimeButUnequalAlphaAndBetaRunTimedAgainstTheTimedBound) {
  // a —(α 1, β 1)— b —(α 1/2, β 2/3)— c: a one-unit message takes 2 on either link, but a larger
  // one does not, so the links are not equal: every row runs timed, its bound in the same units.
  const auto path = std::filesystem::temp_directory_path() / ("starnet_whatif_eq_" + std::to_string(::getpid()) + ".dot");
  std::ofstream(path) << "graph { a -- b [latency=1, bandwidth=1]; b -- c [latency=\"1/2\", bandwidth=\"2/3\"]; }\n";
  for (const Collective c : {Collective::ALLREDUCE, Collective::BROADCAST, Collective::ALLGATHER}) {
    WhatIfStudy study;
    study.collective(c).topologies({path.string()}).costs(CostKind::TOPOLOGY).run();
    expect_sound(study);
    for (const auto& r : study.rows()) EXPECT_EQ(r.time, emulator::TimeMode::TIMED) << where(r);
  }
  WhatIfStudy study;
  study.topologies({path.string()}).costs(CostKind::TOPOLOGY).run();
  // The path is its own shortest-path tree: the weighted-tree row, last, takes the same time.
  ASSERT_EQ(study.rows().back().algorithm, Algorithm::WEIGHTED_TREE);
  EXPECT_EQ(study.rows().back().makespan, Rational(8));
  const auto& bfs = study.rows()[study.rows().size() - 2];
  ASSERT_EQ(bfs.algorithm, Algorithm::BFS_TREE);
  // Reduce to a along the path, then broadcast back: 2 · (2 + 2); the bound is the path, 4.
  EXPECT_EQ(bfs.makespan, Rational(8));
  EXPECT_EQ(bfs.lower_bound_time, Rational(4));
  EXPECT_EQ(bfs.ratio, 2.0);
  std::filesystem::remove(path);
}

TEST(WhatIfStudy, BeyondTheGenericCollectivesATotalExchangeSaysTheTopologyIsTooLarge) {
  WhatIfStudy study;
  study.collective(Collective::ALLTOALL).topologies({"star:10"}).run();
  ASSERT_FALSE(study.rows().empty());
  for (const auto& r : study.rows()) {
    EXPECT_FALSE(r.applicable) << where(r);
    EXPECT_THAT(r.reason, HasSubstr("3628800 nodes exceed the 1048576 nodes")) << where(r);
  }
}

TEST(WhatIfStudy, TheRootOfReduceAndBroadcastCanBeChosen) {
  WhatIfStudy study;
  study.collective(Collective::BROADCAST).topologies({"mesh:1x9"}).root("(0,4)").run();
  const auto& r = study.rows()[0];
  EXPECT_EQ(r.root, "(0,4)");
  EXPECT_TRUE(r.verified);
  // The middle of a path of 9 serves one side a step later: 1 + 4 steps, one above the bound 4.
  EXPECT_EQ(r.steps, 5U);
  EXPECT_EQ(r.lower_bound, 4U);
}

TEST(WhatIfStudy, RoutersHoldNoValueAndTheDefaultRootIsAProcessor) {
  for (const char* spec : {"tiers:1", "tiers:4", "fattree:4", "dragonfly:2:2:1"}) {
    const auto topology = topology::make_topology(spec);
    const auto* platform = dynamic_cast<const topology::PlatformTopology*>(topology.get());
    ASSERT_NE(platform, nullptr) << spec;
    const auto& g = platform->platform().graph();
    EXPECT_EQ(g[0].role, topology::Role::PROCESSOR) << spec;  // the default root "0"
    for (const Op op : {Op::SUM, Op::MIN, Op::MAX, Op::XOR}) {
      const auto words = word_values(*topology, star::Values{}, op);
      std::uint64_t processors_only = star::Values{}.of(0);
      for (NodeId v = 0; v < topology->num_nodes(); ++v) {
        if (g[v].role == topology::Role::PROCESSOR) {
          EXPECT_EQ(words[v], star::Values{}.of(v)) << spec << " v=" << v;
          if (v > 0) processors_only = star::apply(op, processors_only, words[v]);
        }
      }
      // A router's word changes nothing: the whole fold is the processors' fold.
      std::uint64_t all = words[0];
      for (NodeId v = 1; v < topology->num_nodes(); ++v) all = star::apply(op, all, words[v]);
      EXPECT_EQ(all, processors_only) << spec << " op=" << star::to_string(op);
    }
    for (const Collective c : {Collective::ALLREDUCE, Collective::REDUCE, Collective::BROADCAST}) {
      WhatIfStudy study;
      study.collective(c).topologies({spec}).run();
      for (const auto& r : study.rows()) {
        EXPECT_TRUE(r.verified) << where(r) << ": " << r.reason;
        EXPECT_EQ(g[*find_node(*topology, r.root)].role, topology::Role::PROCESSOR) << where(r);
      }
    }
  }
}

TEST(WhatIfStudy, RoutersOnlyForwardAndTheCollectiveIsAmongTheProcessors) {
  for (const char* spec : {"fattree:4", "dragonfly:2:2:1", "tiers:1"}) {
    const auto base = topology::make_topology(spec);
    const auto routers = router_flags(*base);
    const auto processors = static_cast<std::uint64_t>(std::count(routers.begin(), routers.end(), false));
    for (const Collective c : {Collective::ALLREDUCE, Collective::REDUCE, Collective::BROADCAST, Collective::ALLGATHER,
                               Collective::GATHER, Collective::SCATTER, Collective::REDUCESCATTER,
                               Collective::ALLTOALL}) {
      std::vector<std::string> violations;
      WhatIfStudy study;
      // The relay model's routed trees (the crossbar default is WhatIfNetwork's below).
      study.collective(c).topologies({spec}).network(relays()).port_models(MODELS).observe_runs(
          [&](const WhatIfRow& r, const emulator::RunResult<Rational>& run, const topology::Topology& net) {
            // The observer sees the network the row ran on; its routers are the base's.
            const auto& sub = dynamic_cast<const Subnetwork&>(net);
            std::vector<bool> relays(sub.num_nodes());
            for (NodeId v = 0; v < sub.num_nodes(); ++v) relays[v] = routers[sub.original(v)];
            violations.push_back(where(r) + ": " + testing::forwarding_violation(run, relays));
          });
      study.run();
      expect_sound(study);
      for (const auto& r : study.rows()) {
        EXPECT_TRUE(r.verified) << where(r) << ": " << r.reason;
        EXPECT_EQ(r.processors, processors) << where(r);
        EXPECT_EQ(r.alive_processors, processors) << where(r);
        EXPECT_EQ(r.nodes, base->num_nodes()) << where(r);
        EXPECT_THAT(r.variant, HasSubstr("routed")) << where(r);
        // The bound counts the processors: ⌈log₂ P⌉ (+0 in half duplex: a router may send last).
        EXPECT_GE(r.bound_counting, Rational(static_cast<std::int64_t>(ceil_log(r.ports.ports + 1, processors))));
      }
      ASSERT_FALSE(violations.empty()) << spec;
      for (const auto& v : violations) EXPECT_THAT(v, ::testing::EndsWith(": ")) << spec;
    }
  }
}

TEST(WhatIfStudy, WithRoutersTheOtherAlgorithmsAndABigAllToAllSayWhyNot) {
  // A product with a fat-tree has dimensions, but its switches would take part in them.
  WhatIfStudy product;
  product.topologies({"product:fattree:2*ring:3"}).network(relays()).run();
  ASSERT_EQ(product.rows().size(), 2U);
  EXPECT_EQ(product.rows()[0].algorithm, Algorithm::DIMENSION_ORDERED);
  EXPECT_FALSE(product.rows()[0].applicable);
  EXPECT_THAT(product.rows()[0].reason, HasSubstr("takes every node as a participant, and routers only forward"));
  EXPECT_TRUE(product.rows()[1].verified);
  EXPECT_EQ(product.rows()[1].processors, 6U);
  WhatIfStudy exchange;
  exchange.collective(Collective::ALLTOALL).topologies({"dragonfly:4:4:2"}).network(relays()).run();
  ASSERT_EQ(exchange.rows().size(), 1U);
  EXPECT_FALSE(exchange.rows()[0].applicable);
  EXPECT_THAT(exchange.rows()[0].reason, HasSubstr("144 processors; built up to 128"));
  // The limit of every blocked schedule holds for the routed ones too (fattree:16: 1,344 nodes).
  WhatIfStudy gather;
  gather.collective(Collective::GATHER).topologies({"fattree:16"}).network(relays()).run();
  ASSERT_EQ(gather.rows().size(), 1U);
  EXPECT_THAT(gather.rows()[0].reason, HasSubstr("1344 nodes; blocked collectives are built as schedules up to 1024"));
}

TEST(WhatIfStudy, ARouterCutOffLeavesTheProcessorsCollectiveVerified) {
  // fattree:4's core switch c0 links only to the pods' first aggregation switches: with those
  // links down it is alive but unreachable, and no processor misses it.
  WhatIfStudy study;
  study.topologies({"fattree:4"}).network(relays()).failed_links("c0-a0_0,c0-a1_0,c0-a2_0,c0-a3_0").run();
  ASSERT_EQ(study.rows().size(), 1U);
  const auto& r = study.rows()[0];
  EXPECT_EQ(r.nodes + 1, r.alive_nodes);
  EXPECT_EQ(r.processors, 16U);
  EXPECT_EQ(r.alive_processors, 16U);
  EXPECT_TRUE(r.verified) << r.reason;
  // A host cut off is one processor missing.
  WhatIfStudy host;
  host.topologies({"fattree:4"}).network(relays()).failed_links("h3_1_1-e3_1").run();
  EXPECT_FALSE(host.rows()[0].verified);
  EXPECT_EQ(host.rows()[0].reason,
            "reached 15 of the 16 alive processors: the faults (1 link) cut root h0_0_0 off from the other 1");
}

TEST(WhatIfStudy, ARouterIsRefusedAsTheRootOfARootedCollective) {
  WhatIfStudy study;
  study.collective(Collective::REDUCE).topologies({"tiers:1"}).root("wan0");
  EXPECT_ERROR(UsageError, study.run(), "wan0", "tiers:1", "router", "processor");
}

/// The fastest verified row's makespan.
Rational best(const WhatIfStudy& study, const std::string& topology) {
  std::optional<Rational> fastest;
  for (const auto& r : study.rows()) {
    if (r.topology == topology && r.applicable && r.verified && (!fastest || r.makespan < *fastest)) fastest = r.makespan;
  }
  EXPECT_TRUE(fastest.has_value()) << topology;
  return fastest.value_or(Rational(0));
}

TEST(WhatIfNetwork, AFullBisectionFatTreeRunsTheAllReduceAsFastAsACrossbarOfItsHosts) {
  for (const Rational& m : {Rational(8), Rational(1048576)}) {
    WhatIfStudy study;
    study.topologies({"fattree:8", "complete:128"}).latency(Rational(1, 1000000)).bandwidth(Rational(1000000000)).message_size(m).run();
    expect_sound(study);
    const Rational tree = best(study, "fattree:8");
    const Rational crossbar = best(study, "complete:128");
    EXPECT_LE(tree, crossbar * Rational(11, 10)) << "m=" << m.to_string();
    for (const auto& r : study.rows()) {
      if (r.topology != "fattree:8" || !r.applicable) continue;
      EXPECT_EQ(r.processors, 128U) << where(r);
      EXPECT_EQ(r.nodes, 208U) << where(r);  // 128 hosts and 80 switches
      ASSERT_FALSE(r.link_loads.empty()) << where(r);
    }
  }
}

TEST(WhatIfNetwork, AFlatAlgorithmAmongThousandsOfHostsIsRefusedByItsMessageCount) {
  // fattree:16's 1,024 hosts run both rings; fattree:28's 5,488 would send 30 and 60 million messages.
  EXPECT_EQ(network_flat_refusal(Algorithm::RING_SPLIT, 1024), std::nullopt);
  EXPECT_EQ(network_flat_refusal(Algorithm::RING, 2048), std::nullopt);  // 4,192,256 messages
  const auto ring = network_flat_refusal(Algorithm::RING, 2049);             // 4,196,352
  ASSERT_TRUE(ring.has_value());
  EXPECT_NE(ring->find("ring among 2049 hosts sends 4196352 messages, beyond the 4194304"), std::string::npos) << *ring;
  const auto split = network_flat_refusal(Algorithm::RING_SPLIT, 5488);
  ASSERT_TRUE(split.has_value());
  EXPECT_NE(split->find("ring-split among 5488 hosts sends 60225312 messages"), std::string::npos) << *split;
  const auto exchange = network_flat_refusal(Algorithm::ONE_PACKET, 5256);  // dragonfly:12:6:6
  ASSERT_TRUE(exchange.has_value());
  EXPECT_NE(exchange->find("one-packet among 5256 hosts sends 27620280 messages"), std::string::npos) << *exchange;
  EXPECT_EQ(network_flat_refusal(Algorithm::COMBINING, 1024), std::nullopt);
  EXPECT_EQ(network_flat_refusal(Algorithm::RECURSIVE_DOUBLING, 5488), std::nullopt);
  EXPECT_EQ(network_flat_refusal(Algorithm::HIERARCHICAL, 5488), std::nullopt);
}

TEST(WhatIfNetwork, ContentionShowsWithARandomPlacementAndOnAnOversubscribedDragonfly) {
  const auto slowest_ratio = [](const NetworkModel& model, const std::string& spec, Collective c) {
    WhatIfStudy study;
    study.collective(c).topologies({spec}).network(model).latency(Rational(1, 1000000)).bandwidth(Rational(1000000000))
        .message_size(Rational(65536)).run();
    expect_sound(study);
    std::map<Algorithm, Rational> times;
    for (const auto& r : study.rows()) {
      if (r.applicable && r.verified) times[r.algorithm] = r.makespan;
    }
    return times;
  };
  NetworkModel random;
  random.options.placement = topology::parse_placement("random:1");
  const auto linear = slowest_ratio({}, "fattree:8", Collective::ALLREDUCE);
  const auto shuffled = slowest_ratio(random, "fattree:8", Collective::ALLREDUCE);
  bool slower = false;
  for (const auto& [a, t] : linear) slower = slower || (shuffled.contains(a) && shuffled.at(a) > t);
  EXPECT_TRUE(slower) << "some all-reduce takes longer when ranks sit at random";
  NetworkModel valiant;
  valiant.options.routing = topology::Routing::VALIANT;
  const auto minimal = slowest_ratio({}, "dragonfly:4:3:2", Collective::ALLTOALL);
  const auto through = slowest_ratio(valiant, "dragonfly:4:3:2", Collective::ALLTOALL);
  ASSERT_FALSE(minimal.empty());
  bool changed = false;
  for (const auto& [a, t] : minimal) changed = changed || (through.contains(a) && through.at(a) != t);
  EXPECT_TRUE(changed) << "Valiant routing changes the figure";
}

TEST(WhatIfNetwork, ASwitchLatencyIsPaidPerSwitchAMessageCrosses) {
  // fattree:4's recursive doubling: partners under one edge switch (1 switch), in the pod (3), in
  // other pods twice (5 each), so 14 switch crossings over the run, none waiting for a link.
  const auto recursive_doubling = [](const Rational& switching) {
    NetworkModel model;
    model.options.switch_latency = switching;
    WhatIfStudy study;
    study.topologies({"fattree:4"}).network(model).latency(Rational(1, 1000000)).bandwidth(Rational(1000000000)).run();
    for (const auto& r : study.rows()) {
      if (r.algorithm == Algorithm::RECURSIVE_DOUBLING) {
        EXPECT_TRUE(r.verified) << where(r);
        EXPECT_LE(r.lower_bound_time, r.makespan) << where(r);
        return r.makespan;
      }
    }
    ADD_FAILURE() << "no recursive-doubling row";
    return Rational(0);
  };
  const Rational s(1, 10000000);
  EXPECT_EQ(recursive_doubling(s) - recursive_doubling(0), 14 * s);
  NetworkModel model;
  model.options.switch_latency = s;
  WhatIfStudy unit;
  unit.topologies({"fattree:4"}).network(model);
  EXPECT_ERROR(UsageError, unit.run(), "switch_latency", "link costs");
  model.forwarding = topology::Forwarding::STORE_AND_FORWARD;
  unit.network(model).latency(Rational(1, 1000000));
  EXPECT_ERROR(UsageError, unit.run(), "switch_latency", "cut-through");
}

TEST(WhatIfNetwork, AnAllToAllAcrossOneLinkTakesWhatTheLinkMustCarryAndTheBoundSaysSo) {
  const auto built = std::make_shared<const topology::PlatformTopology>(starnet::testing::dumbbell_platform(/*per_switch=*/4));
  const Rational alpha(1, 1000000);
  const Rational beta(1000000000);
  const Rational m(1024);
  WhatIfStudy study;
  study.collective(Collective::ALLTOALL).topologies({StudyTopology("dumbbell", built)}).latency(alpha).bandwidth(beta)
      .message_size(m).link_report(true).run();
  expect_sound(study);
  // 4 × 4 packets of m each way over s0->s1 and s1->s0, one at a time.
  const Rational across = alpha + Rational(16) * m / beta;
  bool ran = false;
  for (const auto& r : study.rows()) {
    if (!r.applicable) continue;
    ran = true;
    EXPECT_TRUE(r.verified) << where(r) << ": " << r.reason;
    EXPECT_EQ(r.bound_cut, across) << where(r);
    EXPECT_GE(r.lower_bound_time, across) << where(r);
    EXPECT_GE(r.makespan, across) << where(r);
    const auto link = std::find_if(r.link_loads.begin(), r.link_loads.end(), [](const LinkLoad& l) { return l.link == "s0->s1"; });
    ASSERT_NE(link, r.link_loads.end()) << where(r);
    // At least the 16 packets that must cross; exactly those when every packet goes straight to
    // its destination, more when an algorithm relays packets through other hosts (Bruck).
    EXPECT_GE(link->packets, Rational(16)) << where(r);
    if (r.algorithm != Algorithm::ONE_PACKET) continue;
    EXPECT_EQ(link->packets, Rational(16)) << where(r);
    EXPECT_THAT(r.link_loads.front().link, ::testing::AnyOf("s0->s1", "s1->s0")) << "the bridge is the busiest";
  }
  EXPECT_TRUE(ran);
}

TEST(WhatIfNetwork, DragonflyRoutesMinimalAndValiantAndTheHierarchicalAllReduceAreVerified) {
  for (const auto routing : {topology::Routing::MINIMAL, topology::Routing::VALIANT}) {
    NetworkModel model;
    model.options.routing = routing;
    for (const Collective c : {Collective::ALLREDUCE, Collective::ALLGATHER, Collective::BROADCAST}) {
      for (const std::int64_t m : {1, 1 << 20}) {  // the word and the split hierarchical all-reduce
        WhatIfStudy study;
        study.collective(c).topologies({"dragonfly:4:3:2", "fattree:4"}).network(model).message_size(Rational(m));
        study.latency(Rational(1, 1000000)).bandwidth(Rational(1000000000)).run();
        expect_sound(study);
        std::size_t hierarchical = 0;
        for (const auto& r : study.rows()) {
          if (r.applicable) EXPECT_TRUE(r.verified) << where(r) << " " << topology::to_string(routing) << ": " << r.reason;
          if (r.algorithm == Algorithm::HIERARCHICAL && r.verified) ++hierarchical;
        }
        EXPECT_EQ(hierarchical, c == Collective::ALLREDUCE ? 2U : 0U) << to_string(c) << " m=" << m;
      }
    }
  }
}

TEST(WhatIfNetwork, TheRelayModelWithSingleRoutersGivesTheNumbersOfBefore) {
  // Switches as single-port relays, store-and-forward: the routed binomial tree's 64 steps on
  // fattree:8 and 50 on dragonfly:4:3:2, as the what-if study measured before crossbars.
  NetworkModel model = relays();
  model.switch_ports = 1;
  WhatIfStudy study;
  study.topologies({"fattree:8", "dragonfly:4:3:2"}).network(model).run();
  ASSERT_EQ(study.rows().size(), 2U);
  EXPECT_EQ(study.rows()[0].steps, 64U);
  EXPECT_EQ(study.rows()[1].steps, 50U);
  model.switch_ports = 2;
  study.network(model);
  EXPECT_ERROR(UsageError, study.run(), "switch_ports", "2", "ports");
  NetworkModel crossbar_ports;
  crossbar_ports.switch_ports = 1;
  study.network(crossbar_ports);
  EXPECT_ERROR(UsageError, study.run(), "store-and-forward");
  WhatIfStudy faults;
  faults.topologies({"fattree:4"}).failed_links("h3_1_1-e3_1").run();
  ASSERT_FALSE(faults.rows().empty());
  for (const auto& r : faults.rows()) {
    EXPECT_FALSE(r.applicable) << where(r);
    EXPECT_THAT(r.reason, HasSubstr("relay model")) << where(r);
  }
}

}  // namespace
}  // namespace starnet::algorithms::collectives
