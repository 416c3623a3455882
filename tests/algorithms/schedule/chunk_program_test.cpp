// The node program that runs any chunk schedule: every collective's postcondition holds for the
// docs' examples and fails, naming node and chunk, for broken variants.
#include "schedule_test_support.hpp"

#include <starnet/algorithms/schedule/chunk_program.hpp>
#include <starnet/core/error.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace starnet::algorithms::schedule::testing {
namespace {

using ::testing::HasSubstr;

std::string example(const std::string& name) { return slurp(examples_dir() / (name + ".json")); }

/// The example with its last transfer removed: some node misses a chunk or a contribution.
std::string without_last_transfer(const std::string& text) {
  auto doc = nlohmann::json::parse(text);
  auto& steps = doc["steps"];
  steps.back().erase(steps.back().size() - 1);
  return doc.dump();
}

TEST(ChunkProgram, EveryCollectivesExampleIsVerifiedOnEveryNodeAndChunk) {
  for (const Collective c : ALL_COLLECTIVES) {
    const auto text = example(to_string(c));
    const auto r = run_text(text);
    EXPECT_TRUE(r.verified) << to_string(c) << ": " << r.report.first_problem();
    const auto doc = nlohmann::json::parse(text);
    EXPECT_EQ(r.run.makespan, Rational(static_cast<std::int64_t>(doc["steps"].size()))) << to_string(c);
    EXPECT_EQ(r.report.nodes_checked, 4U) << to_string(c);
    EXPECT_EQ(r.report.chunks_correct, r.report.chunks_checked) << to_string(c);
  }
}

TEST(ChunkProgram, EveryCollectiveMissingItsLastTransferFailsNamingANode) {
  for (const Collective c : ALL_COLLECTIVES) {
    const auto r = run_text(without_last_transfer(example(to_string(c))));
    EXPECT_FALSE(r.verified) << to_string(c);
    EXPECT_LT(r.report.chunks_correct, r.report.chunks_checked) << to_string(c);
    EXPECT_THAT(r.report.first_problem(), HasSubstr("node ")) << to_string(c);
    EXPECT_THAT(r.report.first_problem(), HasSubstr("chunk ")) << to_string(c);
  }
}

TEST(ChunkProgram, PerNodeProgramsRunAsSoonAsDataAndPortsAllow) {
  const auto r = run_text(example("allreduce_programs"));
  EXPECT_TRUE(r.verified) << r.report.first_problem();
  // 0→1, 1→2, then 2 sends to 0 and to 1 one after the other (one send port).
  EXPECT_EQ(r.run.makespan, Rational(4));
}

TEST(ChunkProgram, AReductionCountedTwiceIsAWrongValue) {
  // Node 1 reduces node 0's value twice: the sum is off by x_0.
  const std::string text = R"({"format":"starnet-schedule","version":1,"collective":"allreduce","chunks":1,
    "topology":"complete:2","steps":[[{"f":0,"t":1,"c":[0],"op":"reduce"}],[{"f":1,"t":0,"c":[0]}],
    [{"f":0,"t":1,"c":[0],"op":"reduce"}]]})";
  const auto r = run_text(text);
  EXPECT_FALSE(r.verified);
  EXPECT_THAT(r.report.wrong, HasSubstr("node 1 ends with"));
  EXPECT_THAT(r.report.wrong, HasSubstr("the sum over all nodes of input chunk 0"));
}

TEST(ChunkProgram, SendingAChunkNotHeldIsAnErrorNamingStepNodeAndChunk) {
  // A broadcast where node 1 forwards before it has received anything.
  const std::string text = R"({"format":"starnet-schedule","version":1,"collective":"broadcast","chunks":1,"root":0,
    "topology":"complete:3","steps":[[{"f":0,"t":1,"c":[0]},{"f":1,"t":2,"c":[0]}]]})";
  const auto r = run_text(text);
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(r.report.errors, 1U);
  EXPECT_THAT(r.report.first_problem(), HasSubstr("step 0: node 1 sends chunk 0 in the send to node 2 of step 0, but does not hold it"));
}

TEST(ChunkProgram, ReducingIntoAnEmptyChunkIsAnError) {
  const std::string text = R"({"format":"starnet-schedule","version":1,"collective":"broadcast","chunks":1,"root":0,
    "topology":"complete:2","steps":[[{"f":0,"t":1,"c":[0],"op":"reduce"}]]})";
  const auto r = run_text(text);
  EXPECT_FALSE(r.verified);
  EXPECT_THAT(r.report.first_problem(), HasSubstr("node 1 reduces into chunk 0"));
  EXPECT_THAT(r.report.first_problem(), HasSubstr("does not hold it"));
}

TEST(ChunkProgram, TwoSendsInOneStepBreakTheSinglePortModel) {
  const std::string text = R"({"format":"starnet-schedule","version":1,"collective":"broadcast","chunks":1,"root":0,
    "topology":"complete:3","steps":[[{"f":0,"t":1,"c":[0]},{"f":0,"t":2,"c":[0]}]]})";
  EXPECT_THROW((void)run_text(text), ModelViolation);
}

TEST(ChunkProgram, ASendAlongAMissingLinkIsAViolationInStrictMode) {
  const std::string text = R"({"format":"starnet-schedule","version":1,"collective":"broadcast","chunks":1,"root":0,
    "topology":"ring:4","steps":[[{"f":0,"t":2,"c":[0]}]]})";
  try {
    (void)run_text(text);
    FAIL() << "no violation";
  } catch (const ModelViolation& e) {
    EXPECT_THAT(e.what(), HasSubstr("step 0"));
  }
}

TEST(ChunkProgram, ProgramsThatWaitForEachOtherAreADeadlockNotAHang) {
  const std::string text = R"({"format":"starnet-schedule","version":1,"collective":"allreduce","chunks":1,
    "topology":"complete:2","programs":{"0":[{"recv":1,"c":[0],"op":"reduce"},{"send":1,"c":[0]}],
                                        "1":[{"recv":0,"c":[0],"op":"reduce"},{"send":0,"c":[0]}]}})";
  const auto r = run_text(text);
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(r.report.nodes_stuck, 2U);
  EXPECT_THAT(r.report.first_problem(), HasSubstr("deadlock: node 0"));
  EXPECT_THAT(r.report.first_problem(), HasSubstr("the receive from node 1"));
}

TEST(ChunkProgram, ArbitratedRunsOfAContendedScheduleReportTheMakespanReached) {
  // Two transfers out of node 0 planned in one step: strict refuses, arbitrated serialises them.
  const std::string text = R"({"format":"starnet-schedule","version":1,"collective":"broadcast","chunks":1,"root":0,
    "topology":"complete:3","steps":[[{"f":0,"t":1,"c":[0]},{"f":0,"t":2,"c":[0]}]]})";
  const auto t = topology::make_topology("complete:3");
  const Schedule s = parse_schedule(text, *t);
  ScheduleRunSettings settings;
  settings.config.checking = emulator::Checking::ARBITRATED;
  const auto r = run_schedule(s, *t, settings);
  EXPECT_TRUE(r.verified) << r.report.first_problem();
  EXPECT_EQ(r.run.makespan, Rational(2));
}

TEST(ChunkProgram, ReportsMergeToTheFirstProblemWhateverThePartition) {
  ChunkReport a;
  a.errors = 1, a.error_step = 5, a.error_node = 3, a.error = "late";
  ChunkReport b;
  b.errors = 1, b.error_step = 2, b.error_node = 9, b.error = "early";
  ChunkReport merged = ChunkReport::parse(a.serialize());
  merged.merge(ChunkReport::parse(b.serialize()));
  EXPECT_EQ(merged.errors, 2U);
  EXPECT_EQ(merged.error, "early");
  EXPECT_THROW((void)ChunkReport::parse("{}"), Error);
}

TEST(ChunkProgram, TheZmqEngineGivesTheLocalEnginesTrace) {
  for (const auto* name : {"allreduce", "alltoall", "allreduce_programs"}) {
    const auto text = example(name);
    const auto local = run_text(text, 0, true);
    for (const unsigned k : {1U, 2U, 3U}) {
      const auto zmq = run_text(text, k, true);
      ASSERT_TRUE(zmq.verified) << name;
      ASSERT_EQ(zmq.run.trace.size(), local.run.trace.size()) << name << " k=" << k;
      for (std::size_t i = 0; i < local.run.trace.size(); ++i) {
        EXPECT_EQ(zmq.run.trace[i].key(), local.run.trace[i].key()) << name << " k=" << k << " event " << i;
        EXPECT_EQ(zmq.run.trace[i].payload, local.run.trace[i].payload) << name << " k=" << k << " event " << i;
      }
    }
  }
}

}  // namespace
}  // namespace starnet::algorithms::schedule::testing
