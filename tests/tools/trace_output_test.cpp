// `--trace FILE [--trace-format jsonl|chrome]` on every subcommand that emulates: one JSON line per
// event (a "send" per message the command reports), or a Chrome trace; whatif numbers its runs.
#include "starnet_test_paths.hpp"
#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace starnet::tools::testing {
namespace {

namespace fs = std::filesystem;

class TraceOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("starnet_trace_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  /// The JSON lines of @p path, each parsed.
  static std::vector<nlohmann::json> lines(const fs::path& path) {
    std::ifstream in(path);
    std::vector<nlohmann::json> out;
    for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
    return out;
  }
  static std::size_t count(const std::vector<nlohmann::json>& events, const std::string& kind) {
    std::size_t n = 0;
    for (const auto& e : events) n += e.at("event") == kind ? 1 : 0;
    return n;
  }
  fs::path dir_;
};

TEST_F(TraceOutput, EveryEmulatingSubcommandWritesOneSendPerMessage) {
  const std::string source = STARNET_SOURCE_DIR;
  struct Case {
    std::string args;
    std::string messages;  // the JSON field that counts the run's messages
  };
  const std::vector<Case> cases = {
      {"allreduce --topology star:4 --json", "messages"},
      {"reduce --algo greedy --n 9 --d 2 --c 1 --json", "emulated_messages"},
      {"schedule run " + source + "/docs/examples/schedules/allreduce.json --json", "messages"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const auto path = dir_ / "t.jsonl";
    const auto r = run_starnet(c.args + " --trace " + path.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto events = lines(path);
    EXPECT_EQ(count(events, "send"), r.json().at(c.messages).get<std::size_t>());
    EXPECT_EQ(count(events, "receive"), count(events, "send"));
    fs::remove(path);
  }
}

TEST_F(TraceOutput, SteadyAndMontecarloTraceTheRunTheyEmulate) {
  const auto steady = dir_ / "steady.jsonl";
  const auto r = run_starnet("steady scatter --topology " + std::string(STARNET_SOURCE_DIR) +
                             "/tests/tools/golden/steady_figure2.dot --source Ps --targets P0,P1 --emulate 20 --json "
                             "--trace " + steady.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count(lines(steady), "send"), r.json().at("emulated").at("messages").get<std::size_t>());

  // Tree-dyn on 8 machines: n − 1 transfers, each a send and a receive.
  const auto mc = dir_ / "mc.jsonl";
  const auto m = run_starnet("montecarlo --n 8 --algos tree-dyn --runs 5 --run 3 --json --trace " + mc.string());
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(count(lines(mc), "send"), 7U);

  EXPECT_EQ(run_starnet("steady scatter --topology " + std::string(STARNET_SOURCE_DIR) +
                        "/tests/tools/golden/steady_figure2.dot --source Ps --targets P0,P1 --trace " + steady.string())
                .exit_code,
            2);
  const auto two = run_starnet("montecarlo --n 8 --runs 5 --trace " + mc.string());
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("one run of one algorithm"), std::string::npos) << two.err;
}

TEST_F(TraceOutput, WhatifNumbersTheRunsOfItsRows) {
  const auto path = dir_ / "w.jsonl";
  const auto r = run_starnet("whatif --topologies ring:5,hypercube:3 --json --trace " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t emulated = 0;
  std::size_t messages = 0;
  const auto doc = r.json();  // kept: a range-for over a temporary's member would dangle
  for (const auto& row : doc.at("rows")) {
    if (row.at("applicable") == true) {
      ++emulated;
      messages += row.at("messages").get<std::size_t>();
    }
  }
  const auto events = lines(path);
  std::set<int> runs;
  for (const auto& e : events) runs.insert(e.at("run").get<int>());
  EXPECT_EQ(runs.size(), emulated);
  EXPECT_EQ(count(events, "send"), messages);
}

TEST_F(TraceOutput, ChromeFormatIsOneTraceEventDocument) {
  const auto path = dir_ / "t.json";
  const auto r = run_starnet("whatif --topologies ring:4 --trace-format chrome --trace " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(path);
  const auto doc = nlohmann::json::parse(in);
  ASSERT_TRUE(doc.contains("traceEvents"));
  std::size_t transfers = 0;
  std::set<int> named;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("ph") == "X") ++transfers;
    if (e.at("name") == "process_name") named.insert(e.at("pid").get<int>());
  }
  EXPECT_GT(transfers, 0U);
  EXPECT_FALSE(named.empty());
}

}  // namespace
}  // namespace starnet::tools::testing
