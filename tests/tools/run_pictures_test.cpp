// `--gantt` and `--swimlane` (tools/run_pictures.cpp), run as a user runs them: the pictures of one
// run, each drawn from the same trace the command line records with --trace.
#include "../core/scratch_dir.hpp"
#include "cli_runner.hpp"
#include "viz_xml.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

std::filesystem::path scratch(const std::string& name) {
  return starnet::testing::scratch_dir("starnet_run_pictures") / name;
}

/// The "receive" lines of a JSON-lines trace file.
std::size_t receives_in(const std::string& jsonl) {
  std::istringstream in(jsonl);
  std::size_t count = 0;
  for (std::string line; std::getline(in, line);) count += nlohmann::json::parse(line)["event"] == "receive" ? 1 : 0;
  return count;
}

TEST(RunPictures, AllreduceDrawsAnArrowPerReceiveOfItsTraceBesideItsGanttChart) {
  const auto swimlane = scratch("s.svg");
  const auto gantt = scratch("g.svg");
  const auto trace = scratch("t.jsonl");
  const auto r = run_starnet("allreduce --topology star:4 --swimlane " + swimlane.string() + " --gantt " +
                             gantt.string() + " --trace " + trace.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = read(swimlane);
  ASSERT_EQ(xml_errors(svg), "");
  const auto all = xml_elements(svg);
  const auto receives = receives_in(read(trace));
  EXPECT_EQ(receives, 24U * 6) << "24 nodes, 6 steps";
  EXPECT_EQ(select(all, "line", "arrow").size(), receives);
  EXPECT_EQ(select(all, "line", "lifeline").size(), 24U);
  EXPECT_THAT(svg, HasSubstr("allreduce on star:4"));
  EXPECT_EQ(xml_errors(read(gantt)), "");
}

TEST(RunPictures, EveryRunningSubcommandDrawsItsRun) {
  const auto reduce = scratch("reduce.svg");
  auto r = run_starnet("reduce --algo greedy --n 6 --d 1 --c 1 --json --swimlane " + reduce.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto arrows = select(xml_elements(read(reduce)), "line", "arrow").size();
  EXPECT_EQ(arrows, 5U) << "a reduction of 6 values: 5 transfers";
  EXPECT_FALSE(select(xml_elements(read(reduce)), "rect", "compute").empty()) << "its computations as bars";
  const auto montecarlo = scratch("mc.svg");
  r = run_starnet("montecarlo --algos tree-dyn --n 5 --runs 4 --run 2 --json --swimlane " + montecarlo.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["swimlane"]["run"], 2);
  EXPECT_EQ(xml_errors(read(montecarlo)), "");
}

TEST(RunPictures, ASwimlaneTooLargeIsRefusedBeforeTheRunNamingTheFlag) {
  const auto r = run_starnet("allreduce --topology star:6 --swimlane " + scratch("big.svg").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--swimlane: star:6 has 720 nodes"));
  EXPECT_THAT(r.err, HasSubstr("at most 256"));
  EXPECT_THAT(r.err, HasSubstr("--gantt"));
  EXPECT_FALSE(std::filesystem::exists(scratch("big.svg")));
}

}  // namespace
}  // namespace starnet::tools::testing
