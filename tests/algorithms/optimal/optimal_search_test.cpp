// Exact optimum step counts by SAT against a brute-force oracle on small graphs, both ways:
// the decoded schedule runs verified, and no named lower bound exceeds the optimum.
#include "../../core/expect_error.hpp"
#include "brute_force.hpp"

#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/algorithms/optimal/optimal_search.hpp>
#include <starnet/algorithms/optimal/step_encoding.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/topology/families.hpp>

#include <cadical.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace starnet::algorithms::optimal {
namespace {

using topology::NodeId;

OptimalResult solve(const std::string& spec, Goal goal, const emulator::PortModel& ports, NodeId root = 0) {
  const auto t = topology::make_topology(spec);
  OptimalSearch s;
  s.topology(*t, spec).goal(goal).root(root).ports(ports).builtins(collectives::optimal_candidates);
  return s.run().result();
}

TEST(OptimalSearch, AgreesWithBruteForceOnSmallGraphsInEveryPortModel) {
  // Two ports multiply the transfer sets the oracle tries: only on the smallest graphs.
  const std::vector<emulator::PortModel> single = {{1, false}, {1, true}};
  const std::vector<emulator::PortModel> all = {{1, false}, {1, true}, {2, false}};
  for (const auto* spec : {"complete:3", "complete:4", "ring:4", "ring:5", "star:3", "hypercube:2"}) {
    const auto t = topology::make_topology(spec);
    for (const auto& m : t->num_nodes() <= 4 && std::string(spec) != "complete:4" ? all : single) {
      for (const Goal goal : {Goal::GOSSIP, Goal::BROADCAST}) {
        const auto r = solve(spec, goal, m);
        SCOPED_TRACE(std::string(spec) + " " + m.to_string() + (goal == Goal::GOSSIP ? " gossip" : " broadcast"));
        ASSERT_EQ(r.status, Status::OPTIMAL);
        EXPECT_EQ(*r.optimum, brute_force_steps(*t, goal, 0, m));
        EXPECT_TRUE(r.schedule_verified);
        for (const auto& b : r.bounds) EXPECT_LE(b.steps, *r.optimum) << b.name;
      }
    }
  }
}

TEST(OptimalSearch, AgreesWithBruteForceOnDirectedGraphs) {
  // Directed cycles, one-way chords, a one-way link in a ring, a directed platform file: the
  // optimum found is the oracle's, and no named bound (proved below it) exceeds it.
  for (const auto& t : directed_family()) {
    for (const auto& m : std::vector<emulator::PortModel>{{1, false}, {1, true}, {2, false}}) {
      for (const Goal goal : {Goal::GOSSIP, Goal::BROADCAST}) {
        SCOPED_TRACE(t->name() + " " + m.to_string() + (goal == Goal::GOSSIP ? " gossip" : " broadcast"));
        OptimalSearch s;
        s.topology(*t, t->name()).goal(goal).ports(m).builtins(collectives::optimal_candidates);
        const auto& r = s.run().result();
        ASSERT_EQ(r.status, Status::OPTIMAL);
        EXPECT_EQ(*r.optimum, brute_force_steps(*t, goal, 0, m));
        EXPECT_TRUE(r.schedule_verified);
        for (const auto& b : r.bounds) EXPECT_LE(b.steps, *r.optimum) << b.name << ": " << b.reason;
      }
    }
  }
}

TEST(OptimalSearch, APlatformBuiltInMemoryGetsNoFamilyKnowledgeFromItsName) {
  // A path c–b–a–d–e named like a ring: a ring's symmetry would fix the first transfer on node 0's
  // first link and its diameter would be node 0's eccentricity; the path has neither.
  topology::Platform p("ring:5", /*directed=*/false);
  for (const auto* name : {"a", "b", "c", "d", "e"}) p.add_node({name});
  for (const auto& [u, v] : std::vector<std::pair<NodeId, NodeId>>{{0, 1}, {1, 2}, {0, 3}, {3, 4}}) p.add_link(u, v);
  const topology::PlatformTopology path(std::move(p));
  for (const Goal goal : {Goal::GOSSIP, Goal::BROADCAST}) {
    OptimalSearch s;
    s.topology(path, "ring:5").in_memory(true).goal(goal).builtins(collectives::optimal_candidates);
    const auto& r = s.run().result();
    ASSERT_EQ(r.status, Status::OPTIMAL);
    EXPECT_EQ(*r.optimum, brute_force_steps(path, goal, 0, {})) << (goal == Goal::GOSSIP ? "gossip" : "broadcast");
  }
}

TEST(OptimalSearch, ADecodedScheduleThatFailsSaysWhy) {
  schedule::ScheduleRun early;
  early.verified = true;
  early.run.makespan = Rational(3);
  ASSERT_TRUE(steps_problem(early, 5).has_value());
  EXPECT_THAT(*steps_problem(early, 5), ::testing::AllOf(::testing::HasSubstr("ends at time 3, not 5"),
                                                        ::testing::HasSubstr("lower bound")));
  EXPECT_FALSE(steps_problem(early, 3).has_value());
  schedule::ScheduleRun silent;  // not verified, and the check named nothing
  ASSERT_TRUE(steps_problem(silent, 3).has_value());
  EXPECT_FALSE(steps_problem(silent, 3)->empty());
}

TEST(OptimalSearch, EveryShorterStepCountIsRefutedAndConfirmedByASecondSolver) {
  const auto r = solve("star:4", Goal::GOSSIP, {});
  ASSERT_EQ(r.status, Status::OPTIMAL);
  EXPECT_TRUE(r.schedule_verified);
  ASSERT_TRUE(r.schedule.has_value());
  ASSERT_GE(r.solves.size(), 1U);
  // The optimum is the first T not refuted: a SAT answer, or the verified upper bound once every
  // shorter T is refuted (star:4: UNSAT at 5, then the star all-reduce's 6 steps need no call).
  const bool by_sat = r.solves.back().satisfiable.value_or(false);
  if (by_sat) {
    EXPECT_EQ(r.solves.back().steps, *r.optimum);
  } else {
    EXPECT_EQ(r.solves.back().steps + 1, *r.optimum);
    EXPECT_EQ(r.upper_bound, r.optimum);
  }
  const std::size_t refuted = r.solves.size() - (by_sat ? 1 : 0);
  for (std::size_t i = 0; i < refuted; ++i) {
    EXPECT_FALSE(r.solves[i].satisfiable.value_or(true));
    if (i + 1 < r.solves.size()) {
      EXPECT_EQ(r.solves[i].steps + 1, r.solves[i + 1].steps);
    }
    EXPECT_THAT(r.solves[i].second_solver, ::testing::AnyOf("confirmed", ::testing::HasSubstr("unavailable")));
  }
  // Proved both ways: the optimum is the first T not refuted, and no bound is above it.
  EXPECT_EQ(r.lower_bound, *r.optimum);
  for (const auto& b : r.bounds) EXPECT_LE(b.steps, *r.optimum) << b.name;
  // The paper's all-reduce takes n(n−1)/2 = 6 steps on S_4: the optimum is no longer.
  EXPECT_LE(*r.optimum, 6U);
}

TEST(OptimalSearch, BoundsThatMeetAVerifiedScheduleAreAProofWithoutSearch) {
  // Q_6: ⌈log₂ 64⌉ = 6 = the diameter, and recursive doubling runs verified in 6 steps.
  const auto t = topology::make_topology("hypercube:6");
  OptimalSearch search;
  search.topology(*t, "hypercube:6").goal(Goal::GOSSIP).time_limit(3).builtins(collectives::optimal_candidates);
  const auto& r = search.run().result();
  ASSERT_EQ(r.status, Status::OPTIMAL);
  EXPECT_EQ(r.optimum, 6U);
  EXPECT_TRUE(r.solves.empty()) << "no solver call is needed";
  EXPECT_EQ(r.upper_source, "recursive-doubling");
  ASSERT_TRUE(r.schedule.has_value());
  EXPECT_TRUE(r.schedule_verified);
}

TEST(OptimalSearch, ATimeLimitKeepsTheBestScheduleKnown) {
  const auto t = topology::make_topology("star:5");
  OptimalSearch search;
  search.topology(*t, "star:5").goal(Goal::GOSSIP).time_limit(0.2);
  const auto& r = search.run().result();
  if (r.status == Status::OPTIMAL) GTEST_SKIP() << "decided within 0.2 s";
  ASSERT_TRUE(r.upper_bound.has_value());
  ASSERT_TRUE(r.upper_schedule.has_value());
  EXPECT_EQ(r.upper_source, "uniform");  // the 9-step uniform gossip beats the paper's 10
  EXPECT_EQ(*r.upper_bound, 9U);
  EXPECT_LT(r.lower_bound, *r.upper_bound);
}

TEST(OptimalSearch, SymmetryBreakingKeepsTheOptimum) {
  for (const auto* spec : {"star:3", "hypercube:3", "complete:5", "torus:3x3"}) {
    const auto t = topology::make_topology(spec);
    const auto arc = symmetric_first_arc(*t, spec, Goal::GOSSIP, 0);
    ASSERT_TRUE(arc.has_value()) << spec;
    const auto sat = [&](std::uint64_t steps, std::optional<std::size_t> first) {
      CaDiCaL::Solver solver;
      const auto e = encode_steps(*t, Goal::GOSSIP, 0, {}, steps, first);
      for (const int lit : e.cnf.literals()) solver.add(lit);
      return solver.solve() == 10;
    };
    std::uint64_t plain = 0;
    while (!sat(plain, std::nullopt)) ++plain;
    std::uint64_t fixed = 0;
    while (!sat(fixed, arc)) ++fixed;
    EXPECT_EQ(plain, fixed) << spec;
  }
  EXPECT_FALSE(symmetric_first_arc(*topology::make_topology("torus:3x4"), "torus:3x4", Goal::GOSSIP, 0).has_value());
  EXPECT_FALSE(symmetric_first_arc(*topology::make_topology("mesh:3x3"), "mesh:3x3", Goal::GOSSIP, 0).has_value());
}

TEST(OptimalSearch, WritesAndChecksADratProofOfEveryRefutation) {
  const auto dir = std::filesystem::temp_directory_path() / ("starnet_optimal_proofs_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto t = topology::make_topology("hypercube:3");
  OptimalSearch s;
  s.topology(*t, "hypercube:3").goal(Goal::GOSSIP).ports({1, true}).proof_dir(dir.string());
  const auto& r = s.run().result();
  ASSERT_EQ(r.status, Status::OPTIMAL);
  std::size_t refuted = 0;
  for (const auto& rec : r.solves) {
    if (rec.satisfiable.value_or(true)) continue;
    ++refuted;
    EXPECT_THAT(rec.proof, ::testing::StartsWith("verified")) << "T = " << rec.steps;
    EXPECT_TRUE(std::filesystem::exists(dir / ("T" + std::to_string(rec.steps) + ".drat")));
    EXPECT_TRUE(std::filesystem::exists(dir / ("T" + std::to_string(rec.steps) + ".cnf")));
  }
  EXPECT_GE(refuted, 1U);  // half duplex on Q_3: the bounds alone do not reach the optimum
  std::filesystem::remove_all(dir);
}

TEST(OptimalSearch, LeavesProofFilesOnlyForRefutations) {
  // A satisfiable call proves nothing: its proof trace must not stay behind as T<t>.drat.
  const auto dir = std::filesystem::temp_directory_path() / ("starnet_optimal_sat_proofs_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // mesh:3x3: UNSAT at 4, SAT at 5, below every built-in algorithm.
  const auto t = topology::make_topology("mesh:3x3");
  OptimalSearch s;
  s.topology(*t, "mesh:3x3").goal(Goal::GOSSIP).proof_dir(dir.string());
  const auto& r = s.run().result();
  ASSERT_EQ(r.status, Status::OPTIMAL);
  std::set<std::string> expected;
  bool saw_model = false;
  for (const auto& rec : r.solves) {
    saw_model = saw_model || rec.satisfiable.value_or(false);
    if (rec.satisfiable.value_or(true)) continue;
    expected.insert("T" + std::to_string(rec.steps) + ".drat");
    expected.insert("T" + std::to_string(rec.steps) + ".cnf");
  }
  ASSERT_TRUE(saw_model) << "the search must end with a satisfiable call for this test to mean anything";
  std::set<std::string> written;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) written.insert(entry.path().filename().string());
  EXPECT_EQ(written, expected) << "optimum T = " << r.optimum.value_or(0);
  std::filesystem::remove_all(dir);
}

TEST(OptimalSearch, ATimeLimitLeavesAProvenBracketNotAHang) {
  const auto t = topology::make_topology("star:5");
  OptimalSearch s;
  s.topology(*t, "star:5").goal(Goal::GOSSIP).time_limit(0.5).builtins(collectives::optimal_candidates);
  const auto& r = s.run().result();
  if (r.status == Status::OPTIMAL) GTEST_SKIP() << "decided within 0.5 s on this machine";
  EXPECT_FALSE(r.optimum.has_value());
  ASSERT_TRUE(r.upper_bound.has_value());
  EXPECT_LE(r.lower_bound, *r.upper_bound);
  // The shortest uniform gossip (9 steps), shorter than the star all-reduce's 10, run on the emulator.
  EXPECT_EQ(*r.upper_bound, 9U);
  EXPECT_EQ(r.upper_source, "uniform");
  EXPECT_EQ(*r.builtin_steps, 10U);
  EXPECT_EQ(r.builtin, "star");  // the catalogue's star all-reduce
}

TEST(OptimalSearch, WithoutTheCatalogueOnlyTheUniformScheduleBoundsFromAbove) {
  const auto t = topology::make_topology("hypercube:3");
  OptimalSearch s;
  s.topology(*t, "hypercube:3").goal(Goal::GOSSIP).time_limit(10);
  const auto& r = s.run().result();
  EXPECT_FALSE(r.builtin_steps.has_value());
  EXPECT_EQ(r.upper_source, "uniform");
  EXPECT_EQ(r.optimum, 3U);
}

TEST(OptimalSearch, AStopRequestWhileABuiltInRunsEndsTheSearchThere) {
  // Only a built-in that breaks the port model or does not fit is passed over: a stop request
  // (or any other failure) during its run ends the search with it.
  const auto t = topology::make_topology("hypercube:3");
  const StopScope scope;
  OptimalSearch s;
  s.topology(*t, "hypercube:3")
      .goal(Goal::GOSSIP)
      .builtins([](const topology::Topology& g, const std::string& spec, Goal goal, NodeId root,
                   const emulator::PortModel& ports) {
        auto candidates = collectives::optimal_candidates(g, spec, goal, root, ports);
        request_stop();
        return candidates;
      });
  EXPECT_ERROR(Interrupted, s.run(), "the run: stopped on request");
}

TEST(OptimalSearch, TheCatalogueBoundsCompleteGraphsLogarithmically) {
  // On K_8 the catalogue's recursive doubling (3 steps) is the upper bound,
  // which the counting bound meets: no solver call.
  const auto r = solve("complete:8", Goal::GOSSIP, {1, false});
  EXPECT_EQ(r.builtin_steps, 3U);
  EXPECT_EQ(r.optimum, 3U);
  EXPECT_TRUE(r.solves.empty());
}

TEST(OptimalSearch, RefusesWhatItCannotDecide) {
  const auto big = topology::make_topology("star:6");
  EXPECT_ERROR(UsageError, OptimalSearch().topology(*big, "star:6").run(), "star:6", "720 nodes", "256");
  const auto k4 = topology::make_topology("complete:4");
  EXPECT_ERROR(UsageError, OptimalSearch().topology(*k4, "complete:4").ports({0, false}).run(), "expected k ≥ 1");
  EXPECT_ERROR(UsageError, OptimalSearch().topology(*k4, "complete:4").goal(Goal::BROADCAST).root(9).run(), "root 9");
  const auto file = std::filesystem::temp_directory_path() / ("starnet_two_parts_" + std::to_string(::getpid()) + ".dot");
  std::ofstream(file) << "digraph g { a [role=processor]; b [role=processor]; c [role=processor]; d [role=processor];\n"
                         "a -> b [cost=1]; b -> a [cost=1]; c -> d [cost=1]; d -> c [cost=1]; }\n";
  const auto parts = topology::make_topology(file.string());
  EXPECT_ERROR(UsageError, OptimalSearch().topology(*parts, file.string()).run(), "no schedule exists", "cannot reach");
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace starnet::algorithms::optimal
