// `starnet reduce`, run as a user runs it.
#include "../core/scratch_dir.hpp"
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A fresh scratch folder for output files.
std::filesystem::path scratch(const std::string& name) {
  return starnet::testing::scratch_dir("starnet_reduce_" + name);
}

// The plan's structure, read back from JSON: a tree rooted at 0, one transfer per non-root
// machine to its parent, children in the order of their transfers.
void expect_plan_shape(const nlohmann::json& j, int n) {
  ASSERT_EQ(j["parents"].size(), static_cast<std::size_t>(n));
  EXPECT_EQ(j["root"], 0);
  EXPECT_EQ(j["parents"][0], -1);
  ASSERT_EQ(j["transfers"].size(), static_cast<std::size_t>(n - 1));
  for (const auto& t : j["transfers"]) {
    EXPECT_EQ(t["to"], j["parents"][t["from"].get<std::size_t>()]) << t.dump();
    EXPECT_TRUE(t.contains("start")) << t.dump();
  }
  ASSERT_EQ(j["children"].size(), static_cast<std::size_t>(n));
  EXPECT_EQ(j["plan_valid"], true);
  EXPECT_EQ(j["combined_in_order"], true);
}

// n = 10, d = c = 1: F(6) = 8 elements fit in (4 + 1)d (Theorem 17), so 10 need 6; Lemma 5
// gives 4 and Proposition 6 gives 8.
TEST(ReduceCommand, GreedyJsonFields) {
  const auto r = run_starnet("reduce --algo greedy --n 10 --d 1 --c 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["algo"], "greedy");
  EXPECT_EQ(j["n"], 10);
  EXPECT_EQ(j["d"], 1);
  EXPECT_EQ(j["c"], 1);
  EXPECT_EQ(j["op"], "sum");
  EXPECT_EQ(j["length"], 6);
  EXPECT_EQ(j["lower_bound"], 4);
  EXPECT_EQ(j["upper_bound"], 8);
  EXPECT_FALSE(j.contains("k"));
  expect_plan_shape(j, 10);
}

// Fractions stay exact: c = 0 makes Lemma 5 tight, ⌈log₂ 5⌉·d = 9/2.
TEST(ReduceCommand, FractionsAreNumbersWithExactCompanions) {
  const auto r = run_starnet("reduce --algo greedy --n 5 --d 3/2 --c 0 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(exact(j, "d"), "3/2");
  EXPECT_DOUBLE_EQ(j["d"].get<double>(), 1.5);
  EXPECT_EQ(j["c"], 0);
  EXPECT_FALSE(j.contains("c_exact"));
  EXPECT_EQ(exact(j, "length"), "9/2");
  EXPECT_EQ(exact(j, "lower_bound"), "9/2");
  bool fraction_start = false;
  for (const auto& t : j["transfers"]) fraction_start = fraction_start || t.contains("start_exact");
  EXPECT_TRUE(fraction_start);
}

TEST(ReduceCommand, EveryAlgorithmCombinesInOrder) {
  for (const char* args : {"--algo greedy --n 13", "--algo greedy-transfers --n 13 --k 3",
                           "--algo greedy-reducers --n 13 --k 4", "--algo binomial --n 16", "--algo fibonacci --n 13",
                           "--algo binomial-strategy --n 13", "--algo fibonacci-strategy --n 13"}) {
    const auto r = run_starnet(std::string("reduce ") + args + " --d 2 --c 3 --op concat --json");
    ASSERT_EQ(r.exit_code, 0) << args << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["op"], "concat");
    expect_plan_shape(j, j["n"].get<int>());
  }
}

// Algorithm 2 reports its K and the (corrected) bound of Proposition 8, and respects K.
TEST(ReduceCommand, LimitedTransfers) {
  const auto r = run_starnet("reduce --algo greedy-transfers --n 6 --k 3 --d 1 --c 0 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["k"], 3);
  EXPECT_EQ(j["length"], 3);
  EXPECT_EQ(j["limited_upper_bound"], 3);
  EXPECT_LE(j["max_concurrent_transfers"].get<int>(), 3);
}

TEST(ReduceCommand, HumanOutputMatchesTranscript) {
  const auto r = run_starnet("reduce --algo fibonacci-strategy --n 12 --d 3/2 --c 1 --op concat");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, golden("reduce_fibonacci_strategy_n12.txt", r.out));
}

TEST(ReduceCommand, JsonMatchesTranscript) {
  const auto r = run_starnet("reduce --algo greedy-reducers --n 9 --k 2 --d 2 --c 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, golden("reduce_greedy_reducers_n9.json", r.out));
}

TEST(ReduceCommand, BadInputExitsTwoNamingTheInput) {
  struct Case {
    const char* args;
    std::vector<const char*> words;
  };
  const std::vector<Case> cases{
      {"--algo greedy --n 0 --d 1 --c 1", {"--n 0", "n ≥ 1"}},
      {"--algo greedy --n -4 --d 1 --c 1", {"--n -4"}},
      {"--algo greedy --n 20000000 --d 1 --c 1", {"--n 20000000", "at most 10000000"}},
      {"--algo greedy --n 4 --d -1 --c 1", {"--d -1", "≥ 0"}},
      {"--algo greedy --n 4 --d 1 --c -1/2", {"--c -1/2", "≥ 0"}},
      {"--algo greedy --n 4 --d x --c 1", {"--d x", "not a number"}},
      {"--algo greedy-transfers --n 8 --k 0 --d 1 --c 1", {"--k 0", "K ≥ 1"}},
      {"--algo greedy-transfers --n 8 --k 5 --d 1 --c 1", {"K = 5", "limit 4", "floor(n/2)"}},
      {"--algo greedy-reducers --n 8 --k 8 --d 1 --c 1", {"K = 8", "limit 7", "n - 1"}},
      {"--algo greedy-transfers --n 8 --d 1 --c 1", {"greedy-transfers", "--k"}},
      {"--algo greedy --n 8 --k 2 --d 1 --c 1", {"no limit K"}},
      {"--algo greedy7 --n 8 --d 1 --c 1", {"--algorithm greedy7", "greedy-transfers", "fibonacci-strategy"}},
      {"--algo binomial --n 6 --d 1 --c 1", {"n = 6", "power of two"}},
      {"--algo fibonacci --n 4 --d 1 --c 1", {"n = 4", "Fibonacci number"}},
      {"--algo greedy --n 4 --d 1 --c 1 --op xor", {"--op xor", "sum or concat"}},
      {"--algo greedy --n 30000 --d 1 --c 1 --op concat", {"--op concat", "at most 20000"}},
      {"--algo greedy --n 2000 --d 1 --c 1 --gantt g.svg", {"2000", "1000"}},
      {"--algo greedy --n 4", {"--algorithm needs --n, --d and --c"}},
      {"--n 4 --d 1 --c 1", {"--algorithm needs"}},
      {"--study figure3", {"--study \"figure3\"", "figure2"}},
      {"--study figure2 --max-n 1", {"--max-n 1", "2..10000000"}},
      {"--study figure2 --algo greedy", {"--study takes"}},
      {"--study figure2 --plot out.pdf", {"--plot: output file \"out.pdf\"", ".svg or .png"}},
      {"--algo greedy --n many --d 1 --c 1", {"--n"}},
  };
  for (const Case& c : cases) {
    const auto r = run_starnet(std::string("reduce ") + c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
    for (const char* w : c.words) EXPECT_THAT(r.err, HasSubstr(w)) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
  }
}

TEST(ReduceCommand, EveryAlgorithmEmulatesToItsPredictedLength) {
  const std::vector<std::string> runs = {"greedy --n 37 --d 3/2 --c 1",  "greedy-transfers --n 37 --k 3 --d 1 --c 2",
                                         "greedy-reducers --n 37 --k 5 --d 2 --c 1", "binomial --n 32 --d 1 --c 0",
                                         "fibonacci --n 34 --d 0 --c 1",  "binomial-strategy --n 37 --d 2/3 --c 1",
                                         "fibonacci-strategy --n 37 --d 1 --c 1"};
  for (const auto& args : runs) {
    for (const char* op : {"sum", "concat"}) {
      const auto r = run_starnet("reduce --algo " + args + " --op " + op + " --json");
      ASSERT_EQ(r.exit_code, 0) << args << r.err;
      const auto j = r.json();
      EXPECT_EQ(j["emulated_length"], j["length"]) << args;
      EXPECT_EQ(j["verified"], true) << args;
      EXPECT_EQ(j["emulated_messages"], j["n"].get<int>() - 1) << args;
    }
  }
  const auto concat = run_starnet("reduce --algo greedy --n 4 --d 1 --c 1 --op concat --json");
  EXPECT_EQ(concat.json()["emulated_root_value"], "[0][1][2][3]");
}

TEST(ReduceCommand, GanttChartOfTheEmulatedRun) {
  const auto svg = scratch("gantt") / "g.svg";
  const auto r = run_starnet("reduce --algo greedy --n 10 --d 3/2 --c 1 --gantt " + svg.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(svg);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_THAT(ss.str(), HasSubstr("makespan 8"));
  EXPECT_THAT(ss.str(), HasSubstr("send P1 → P0"));
}

TEST(ReduceCommand, Figure2StudyWritesCsvAndPlot) {
  const auto dir = scratch("figure2");
  const auto csv = dir / "ratios.csv";
  const auto svg = dir / "ratios.svg";
  const auto r = run_starnet("reduce --study figure2 --max-n 300 --csv " + csv.string() + " --plot " + svg.string() +
                             " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["study"], "figure2");
  EXPECT_EQ(j["max_n"], 300);
  EXPECT_EQ(j["within_theorems_18_19"], true);
  const double b = j["binomial_strategy_d_eq_c"]["max_ratio"];
  const double f = j["fibonacci_strategy_min_zero"]["max_ratio"];
  EXPECT_GT(b, 1.0);
  EXPECT_LE(b, 2.0);
  EXPECT_GT(f, 1.0);
  EXPECT_LE(f, 2.0);
  const std::string table = read(csv);
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 300);  // header + n = 2..300
  EXPECT_THAT(table, HasSubstr("n,binomial_length,optimal_length_d_eq_c,binomial_ratio"));
  EXPECT_THAT(read(svg), HasSubstr("<svg"));
  EXPECT_THAT(read(dir / "ratios.gp"), HasSubstr("$figure2 << EOD"));
  std::filesystem::remove_all(dir);
}

TEST(ReduceCommand, Figure2HumanSummary) {
  const auto r = run_starnet("reduce --study figure2 --max-n 100");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, golden("reduce_figure2_n100.txt", r.out));
}

TEST(ReduceCommand, HelpDescribesTheOptions) {
  const auto r = run_starnet("reduce --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* text : {"--algo", "--n", "--d", "--c", "--k", "--op", "--json", "--study", "--max-n", "--csv",
                           "--plot", "greedy-transfers", "fibonacci-strategy", "RR-7898"}) {
    EXPECT_THAT(r.out, HasSubstr(text)) << text;
  }
}

}  // namespace
}  // namespace starnet::tools::testing
