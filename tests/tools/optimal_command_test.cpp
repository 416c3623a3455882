// `starnet optimal`, run as a user runs it.
#include "../core/scratch_dir.hpp"
#include "cli_runner.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

std::filesystem::path optimal_scratch() {
  return starnet::testing::scratch_dir("starnet_optimal_cli");
}

TEST(OptimalCommand, ProvesTheS4GossipOptimumBothWaysAndWritesItsSchedule) {
  const auto file = (optimal_scratch() / "s4.json").string();
  const auto r = run_starnet("optimal --collective allreduce --topology star:4 --json -o " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["proved"], true);
  EXPECT_EQ(j["schedule_verified"], true);
  EXPECT_EQ(j["optimum"], j["lower_bound"]);
  EXPECT_EQ(j["optimum"], j["upper_bound"]);
  EXPECT_EQ(j["builtin"], "star");  // the catalogue's star all-reduce
  EXPECT_GE(j["builtin_steps"].get<int>(), j["optimum"].get<int>());
  for (const auto& [name, steps] : j["bounds"].items()) EXPECT_LE(steps.get<int>(), j["optimum"].get<int>()) << name;
  // Every shorter T refuted: UNSAT at 5; the star all-reduce's 6 verified steps meet it, no more call.
  const auto calls = j["solver"]["calls"];
  ASSERT_GE(calls.size(), 1U);
  EXPECT_EQ(calls.back()["answer"], "UNSAT");
  EXPECT_EQ(calls.back()["steps"].get<int>() + 1, j["optimum"].get<int>());
  EXPECT_EQ(j["schedule_given"], true);
  EXPECT_EQ(j["collective"], "allreduce");
  // The written schedule runs verified, in the proven number of steps.
  const auto run = run_starnet("schedule run " + file + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json()["steps"], j["optimum"]);
  EXPECT_EQ(run.json()["collective"], "allreduce");
}

TEST(OptimalCommand, SaysWhyItGivesNoScheduleInTextJsonAndMinusO) {
  // Gossip on S_4: the optimum is the star all-reduce's, a word plan and not a gossip.
  const auto r = run_starnet("optimal --topology star:4 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["schedule_given"], false);
  ASSERT_TRUE(j["schedule_note"].is_string());
  const auto note = j["schedule_note"].get<std::string>();
  EXPECT_THAT(note, ::testing::AllOf(HasSubstr("all-reduce word plan"), HasSubstr("allreduce")));
  EXPECT_THAT(run_starnet("optimal --topology star:4").out, HasSubstr("(no schedule given: " + note + ")"));
  const auto o = run_starnet("optimal --topology star:4 -o " + (optimal_scratch() / "none.json").string());
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_THAT(o.err, HasSubstr(note));
  EXPECT_TRUE(run_starnet("optimal --topology star:4 --collective allreduce --json").json()["schedule_note"].is_null());
}

TEST(OptimalCommand, ADirectedCycleGetsSoundBoundsAndAProvedOptimum) {
  // The item goes round the directed 5-cycle one arc a step: 4 steps, whatever the collective;
  // no bound above that, and the degree-limited count keeps the one out-arc of every node.
  const auto file = optimal_scratch() / "c5.dot";
  std::ofstream(file) << "digraph c5 { node [role=processor]; a;b;c;d;e; a->b; b->c; c->d; d->e; e->a; }\n";
  for (const auto* collective : {"broadcast", "gossip", "allreduce"}) {
    const auto r = run_starnet(fmt::format("optimal --topology {} --collective {} --json", file.string(), collective));
    ASSERT_EQ(r.exit_code, 0) << collective << ": " << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["optimum"], 4) << collective;
    EXPECT_EQ(j["proved"], true) << collective;
    EXPECT_EQ(j["verified"], true) << collective;
    for (const auto& [name, steps] : j["bounds"].items()) EXPECT_LE(steps.get<int>(), 4) << collective << " " << name;
    EXPECT_EQ(j["bounds"]["degree-limited"], 4) << collective;
  }
  const auto text = run_starnet(fmt::format("optimal --topology {} --collective broadcast", file.string()));
  EXPECT_THAT(text.out, HasSubstr("some arcs one-way"));
  EXPECT_THAT(text.out, ::testing::Not(HasSubstr("4096")));
}

TEST(OptimalCommand, AClosedBracketIsAProvedOptimumWithoutSearch) {
  // Q_6's bounds (⌈log₂ 64⌉ = diameter = 6) meet recursive doubling's verified 6 steps.
  const auto r = run_starnet("optimal --topology hypercube:6 --time-limit 3 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["optimum"], 6);
  EXPECT_EQ(j["proved"], true);
  EXPECT_EQ(j["verified"], true);
  EXPECT_TRUE(j["solver"]["calls"].empty());
  const auto w = run_starnet("whatif --collective allreduce --topologies hypercube:6 --optimal --optimal-time-limit 3 --json");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  bool seen = false;
  const auto rows = w.json()["rows"];
  for (const auto& row : rows) {
    if (row["algorithm"] != "optimal") continue;
    seen = true;
    EXPECT_EQ(row["applicable"], true) << row.dump();
    EXPECT_EQ(row["steps"], 6);
  }
  EXPECT_TRUE(seen);
}

TEST(OptimalCommand, AnAllReduceIsWrittenAsAnAllReduceThatWhatIfRuns) {
  // The optimum of --collective allreduce is written as an all-reduce, not the gossip it was
  // searched as, and what-if takes it as a row of an all-reduce study.
  const auto file = (optimal_scratch() / "q3.json").string();
  ASSERT_EQ(run_starnet("optimal --collective allreduce --topology hypercube:3 -o " + file).exit_code, 0);
  const auto run = run_starnet("schedule run " + file + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json()["collective"], "allreduce");
  EXPECT_EQ(run.json()["steps"], 3);
  const auto w = run_starnet("whatif --collective allreduce --topologies hypercube:3 --schedule " + file + " --json");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  bool seen = false;
  const auto rows = w.json()["rows"];
  for (const auto& row : rows) {
    if (row["algorithm"] != "schedule") continue;
    seen = true;
    EXPECT_EQ(row["applicable"], true) << row.dump();
    EXPECT_EQ(row["verified"], true);
    EXPECT_EQ(row["steps"], 3);
  }
  EXPECT_TRUE(seen);
}

TEST(OptimalCommand, ATimeLimitStillWritesTheBestScheduleKnownMarkedUnproved) {
  // On S_5 the time limit leaves [lower, 9]; 9 is the uniform gossip's, which -o writes.
  const auto file = (optimal_scratch() / "best5.json").string();
  const auto r = run_starnet("optimal --topology star:5 --time-limit 0.3 -o " + file);
  if (r.exit_code == 0) GTEST_SKIP() << "decided within 0.3 s";
  ASSERT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.out, HasSubstr("the optimum lies in ["));
  EXPECT_THAT(r.out, HasSubstr("uniform"));
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("NOT proved optimal"));
  const auto run = run_starnet("schedule run " + file + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json()["steps"], 9);
}

TEST(OptimalCommand, ProgressNamesTheStepCountBeingTried) {
  // A search that runs past a second says which T its solver is on, before the call ends.
  const auto r = run_starnet("optimal --topology star:5 --time-limit 2 --progress always");
  ASSERT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, ::testing::ContainsRegex("T = [0-9]+: solving \\([0-9]+ variables, [0-9]+ clauses\\)"));
}

TEST(OptimalCommand, AStudyIsVerifiedExactlyWhenItExitsZero) {
  // A time limit that leaves a row unproved is exit 3 with "verified": false, never exit 0.
  const auto r = run_starnet("optimal --study star --time-limit 0.5 --json");
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.err;
  EXPECT_EQ(r.json()["verified"], r.exit_code == 0);
}

TEST(OptimalCommand, BroadcastFromARootWithProofsChecked) {
  const auto dir = (optimal_scratch() / "proofs").string();
  const auto r = run_starnet("optimal --collective broadcast --root 0 --topology hypercube:3 --duplex half --proof " +
                             dir + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["proved"], true);
  EXPECT_EQ(j["optimum"], 3);  // the counting bound ⌈log₂ 8⌉, met by a binomial tree
}

TEST(OptimalCommand, UniformSearchBeatsThePaperOnS5AndProvesItMinimalAmongUniformSchedules) {
  const auto file = (optimal_scratch() / "u5.json").string();
  const auto r = run_starnet("optimal --collective gossip --topology star:5 --method uniform --json -o " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["uniform_proved_minimal"], true);
  EXPECT_EQ(j["schedule_verified"], true);
  EXPECT_LT(j["steps"].get<int>(), j["paper_steps"].get<int>());
  EXPECT_EQ(j["items_received_per_node"], 119);  // n! − 1: nothing received twice
  const auto run = run_starnet("schedule run " + file + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json()["steps"], j["steps"]);
}

TEST(OptimalCommand, UniformSearchOnOtherCayleyGraphsBroadcastsAndCosets) {
  // Hypercube: the uniform gossip is recursive doubling, D steps, proved minimal in the class.
  auto r = run_starnet("optimal --topology hypercube:4 --method uniform --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["steps"], 4);
  EXPECT_EQ(j["uniform_proved_minimal"], true);
  EXPECT_EQ(j["schedule_verified"], true);
  EXPECT_EQ(j["items_received_per_node"], 15);
  // A one-to-all broadcast from a root, written and run again.
  const auto file = (optimal_scratch() / "b5.json").string();
  r = run_starnet("optimal --collective broadcast --root 7 --topology star:5 --method uniform --json -o " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = r.json();
  EXPECT_EQ(j["schedule_verified"], true);
  EXPECT_EQ(j["items_received_per_node"], 1);
  const auto run = run_starnet("schedule run " + file + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json()["steps"], j["steps"]);
  // The coset class on S_4, exhaustive: 6 steps, the proved optimum of all schedules.
  r = run_starnet("optimal --topology star:4 --method coset --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = r.json();
  EXPECT_EQ(j["steps"], 6);
  EXPECT_EQ(j["coset_proved_minimal"], true);
  EXPECT_EQ(j["schedule_verified"], true);
  // auto: SAT with the uniform search's upper bound on a torus.
  r = run_starnet("optimal --topology torus:3x3 --method auto --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["proved"], true);
}

TEST(OptimalCommand, AFoundGossipRunsAndIsShownBesideThePapersBroadcast) {
  for (const int n : {4, 5}) {
    const auto file = (optimal_scratch() / fmt::format("found{}.json", n)).string();
    ASSERT_EQ(run_starnet(fmt::format("optimal --topology star:{} --method uniform -o {}", n, file)).exit_code, 0);
    auto r = run_starnet(fmt::format("broadcast --all-to-all --topology star:{} --schedule {} --json", n, file));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["verified"], true);
    EXPECT_EQ(j["paper"]["verified"], true);
    EXPECT_EQ(j["schedule"]["no_duplicates"], true);
    EXPECT_LE(j["schedule"]["steps"].get<int>(), n * (n - 1) / 2);
    const auto page = (optimal_scratch() / fmt::format("found{}.html", n)).string();
    r = run_starnet(fmt::format("viz broadcast --all-to-all --topology star:{} --schedule {} -o {}", n, file, page));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("verified"));
    std::ifstream in(page);
    const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_THAT(html, HasSubstr(fmt::format("the paper: {}", n * (n - 1) / 2)));
  }
  // Not an all-gather: refused by name.
  const auto reduce = (optimal_scratch() / "reduce.json").string();
  ASSERT_EQ(run_starnet("schedule export --algorithm bfs-tree --collective reduce --topology star:4 -o " + reduce).exit_code, 0);
  const auto r = run_starnet("broadcast --all-to-all --topology star:4 --schedule " + reduce);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("expected a stepped all-gather"));
}

TEST(OptimalCommand, ATimeLimitIsExitThreeWithTheProvenBracket) {
  const auto r = run_starnet("optimal --topology star:5 --time-limit 0.3 --json");
  if (r.exit_code == 0) GTEST_SKIP() << "decided within 0.3 s";
  ASSERT_EQ(r.exit_code, 3) << r.err;
  const auto j = r.json();
  EXPECT_TRUE(j["optimum"].is_null());
  EXPECT_EQ(j["proved"], false);
  EXPECT_LE(j["lower_bound"].get<int>(), j["upper_bound"].get<int>());
}

TEST(OptimalCommand, WhatIfPrintsTheProvenOptimumBesideTheBuiltIns) {
  const auto r = run_starnet("whatif --collective allreduce --topologies star:4,ring:6 --optimal --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = r.json();
  int optimal_rows = 0;
  for (const auto& row : doc["rows"]) {
    if (row["algorithm"] != "optimal") continue;
    ++optimal_rows;
    EXPECT_EQ(row["verified"], true) << row["topology"];
    EXPECT_GE(row["steps"].get<int>(), row["lower_bound"].get<int>()) << row["topology"];
    for (const auto& other : doc["rows"]) {
      if (other["topology"] == row["topology"] && other["applicable"] == true) {
        EXPECT_LE(row["steps"].get<int>(), other["steps"].get<int>()) << other["algorithm"];
      }
    }
  }
  EXPECT_EQ(optimal_rows, 2);
}

TEST(OptimalCommand, TheTotalExchangesParetoFrontIsWrittenPointByPointAndEachRunsVerified) {
  const auto dir = optimal_scratch() / "pareto";
  std::filesystem::create_directories(dir);
  // Up to 1,024 nodes (hypercube:10), where -o still writes schedules.
  for (const auto& [spec, status] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"star:4", 62}, {"hypercube:4", 32}, {"ring:7", 12}, {"complete:6", 5}, {"hypercube:10", 5120}}) {
    const auto base = dir / ("a2a_" + spec.substr(0, spec.find(':')) + "_" + spec.substr(spec.find(':') + 1) + ".json");
    const auto r = run_starnet("optimal --collective alltoall --method uniform --topology " + spec + " -o " +
                               base.string() + " --json");
    ASSERT_EQ(r.exit_code, 0) << spec << "\n" << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["status"], status) << spec;
    EXPECT_EQ(j["one_packet"]["steps"], status) << spec;
    EXPECT_EQ(j["verified"], true) << spec;
    const auto& front = j["pareto"];
    ASSERT_FALSE(front.empty()) << spec;
    EXPECT_EQ(j["steps"], front[0]["steps"]) << spec;  // the class fields describe the fewest steps
    std::uint64_t previous_steps = 0;
    std::uint64_t previous_volume = ~std::uint64_t{0};
    for (const auto& p : front) {
      const auto steps = p["steps"].get<std::uint64_t>();
      const auto volume = p["volume"].get<std::uint64_t>();
      EXPECT_GT(steps, previous_steps) << spec;
      EXPECT_LT(volume, previous_volume) << spec;
      EXPECT_GE(volume, status) << spec;
      EXPECT_EQ(p["dimensions"].size(), steps) << spec;
      EXPECT_EQ(p["verified"], true) << spec;
      EXPECT_EQ(p["crossover"].is_null(), volume == status) << spec;
      previous_steps = steps, previous_volume = volume;
      // Every point was written; schedule run verifies it in its steps.
      const auto file = dir / fmt::format("{}.T{}.json", base.stem().string(), steps);
      const auto run = run_starnet("schedule run " + file.string() + " --json");
      ASSERT_EQ(run.exit_code, 0) << file << "\n" << run.err;
      EXPECT_EQ(run.json()["collective"], "alltoall") << file;
      EXPECT_EQ(run.json()["steps"], steps) << file;
      EXPECT_EQ(run.json()["verified"], true) << file;
    }
    EXPECT_EQ(previous_volume, status) << spec << ": the front ends at the status";
    EXPECT_EQ(j["pareto_complete"], true) << spec;
  }
  // On S_4 the front has more than one point: the fewest steps (6, the uniform gossip's) send more.
  const auto s4 = run_starnet("optimal --collective alltoall --method uniform --topology star:4");
  ASSERT_EQ(s4.exit_code, 0) << s4.err;
  EXPECT_THAT(s4.out, HasSubstr("one packet per message: 62 steps, volume 62"));
  EXPECT_THAT(s4.out, HasSubstr("complete"));
  std::filesystem::remove_all(dir);
}

TEST(OptimalCommand, BadInputsAreExitTwoNamingTheInput) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"optimal --collective scatter --topology ring:4", "--collective scatter"},
      {"optimal --collective broadcast --root zz --topology ring:4", "--root zz"},
      {"optimal --topology star:6", "720 nodes"},
      {"optimal --topology ring:4 --ports 0", "--ports 0"},
      {"optimal --topology ring:4 --duplex quarter", "--duplex quarter"},
      {"optimal --topology ring:4 --method magic", "--method magic"},
      {"optimal", "--topology is required"},
      {"optimal --study stars", "--study stars"},
      {"optimal --topology debruijn:3 --method uniform", "not given as a Cayley graph"},
      {"optimal --topology mesh:3x3 --method auto --time-limit 1 --anytime", "--anytime: applies only with --method uniform"},
      {"optimal --topology hypercube:3 --method coset", "coset schedules are gossips on star:3"},
      {"optimal --topology star:7 --method coset", "star:7"},
      {"optimal --topology star:4 --method coset --collective broadcast --root 0", "coset schedules"},
      {"optimal --topology star:6 --method uniform --anytime --time-limit 0", "--anytime: needs a --time-limit"},
      {"optimal --topology star:6 --method uniform --anytime --time-limit 1 --beam-width 4", "drop --beam-width"},
      {"optimal --topology star:7 --method uniform --collective broadcast --root 0", "up to 1024 nodes"},
      {"optimal --topology star:7 --method uniform -o x.json", "-o: a schedule is written up to 1024 nodes"},
      {"optimal --topology star:4 --method uniform --proof d", "--proof"},
      {"optimal --topology ring:4 --beam-width 3", "--beam-width 3: applies only with --method uniform or coset"},
      {"optimal --topology star:5 --method uniform --beam-width 0", "--beam-width 0"},
      {"optimal --topology star:5 --method uniform --max-steps 0", "--max-steps 0"},
      {"optimal --topology star:11 --method uniform", "star:11"},
      {"optimal --collective alltoall --method uniform --topology mesh:3x3", "mesh:3x3: not given as a Cayley graph"},
      {"optimal --collective alltoall --method uniform --topology tiers:3", "tiers:3"},
      {"optimal --collective alltoall --topology ring:5", "--collective alltoall: with --method sat"},
      {"optimal --collective alltoall --method coset --topology star:4", "--collective alltoall"},
      {"optimal --collective alltoall --method uniform --topology star:4 --anytime --time-limit 1", "--anytime"},
      {"optimal --collective alltoall --method uniform --topology star:4 --duplex half", "single-port full duplex"},
      {"optimal --collective alltoall --method uniform --topology star:7 -o x.json", "up to 1024 nodes"},
  };
  for (const auto& [args, fragment] : cases) {
    const auto r = run_starnet(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(fragment)) << args;
  }
}

}  // namespace
}  // namespace starnet::tools::testing
