// SimGrid's example platforms through the command line: their decimal bandwidths and
// latencies ("41.279125MBps", "59.904us") give exact times, periods and throughputs beyond 64
// bits, which `whatif`, `steady` and `schedule run` keep exact, verify and print (docs/json.md:
// a number beside its exact text).
#include "cli_runner.hpp"

#include "../topology/simgrid_examples.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>

namespace starnet::tools::testing {
namespace {

using starnet::testing::simgrid_example;

const char* const PLATFORMS[] = {"two_hosts.xml", "small_platform.xml", "cluster_backbone.xml"};

// small_platform.xml's figures, as computed exactly (docs/simgrid.md).
const std::string SMALL_PLATFORM_BFS_MAKESPAN = "37014657309622607471043112733/209415608042330870645000000000";
const std::string SMALL_PLATFORM_SCATTER_THROUGHPUT = "40398500000000/308412979089";
const std::string SMALL_PLATFORM_SCATTER_PERIOD = "103160007399578748837725114524482308621748702";
// The optimal period is longer than K = 10 s: no whole period fits, nothing completes; the
// fixed period of 1 s runs 10 periods of 130 operations, less the start-up's.
const std::string SMALL_PLATFORM_SCATTER_COMPLETED = "0";
const std::string SMALL_PLATFORM_FIXED_COMPLETED = "910";

/// A text of digits longer than 19 holds a numerator or denominator beyond 64 bits.
bool beyond_64_bits(const std::string& exact_text) {
  const auto slash = exact_text.find('/');
  const auto digits = [](const std::string& s) { return s.size() - (s.starts_with('-') ? 1 : 0); };
  constexpr std::size_t INT64_DIGITS = 19;
  return digits(exact_text.substr(0, slash)) > INT64_DIGITS ||
         (slash != std::string::npos && digits(exact_text.substr(slash + 1)) > INT64_DIGITS);
}

/// The row of algorithm @p name in a `whatif --json` document (null when absent).
nlohmann::json row_of(const nlohmann::json& j, const std::string& name) {
  for (const auto& row : j["rows"]) {
    if (row["algorithm"] == name) return row;
  }
  return nullptr;
}

// A platform file has no formula: topo info bounds its bisection by a balanced partition. Their
// routes make complete graphs (docs/simgrid.md), whose width is ⌊N/2⌋·⌈N/2⌉: the bound reaches it.
TEST(SimgridPlatforms, TopoInfoBoundsTheBisectionOfAPlatformFile) {
  SKIP_WITHOUT_SIMGRID_EXAMPLES();
  for (const auto& [name, width] : {std::pair{"two_hosts.xml", 1}, std::pair{"small_platform.xml", 12},
                                    std::pair{"cluster_backbone.xml", 2500}}) {
    const auto r = run_starnet("topo info --json " + simgrid_example(name));
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto j = r.json();
    const auto n = j.at("processors").get<int>();
    ASSERT_EQ(j.at("links"), n * (n - 1) / 2) << name << ": a complete graph";
    EXPECT_EQ(width, (n / 2) * (n - n / 2)) << name;
    EXPECT_EQ(j.at("bisection").at("links"), width) << name;
    EXPECT_EQ(j.at("bisection").at("exact"), false) << name;
  }
}

TEST(SimgridPlatforms, WhatIfAllReduceWithTopologyCostsIsVerifiedWithExactMakespans) {
  SKIP_WITHOUT_SIMGRID_EXAMPLES();
  for (const char* name : PLATFORMS) {
    const auto r = run_starnet("whatif --collective allreduce --topologies " + simgrid_example(name) +
                               " --costs topology --json");
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["verified"], true) << name;
    for (const auto& row : j["rows"]) {
      if (row["applicable"] == false) continue;
      EXPECT_EQ(row["verified"], true) << name << " " << row["algorithm"];
      EXPECT_FALSE(exact(row, "makespan").starts_with("(")) << name << ": " << exact(row, "makespan");
    }
  }
  // two_hosts.xml: a unit message takes 100 µs + 1/125 MB/s = 12501/125000000 s, to reduce and back.
  const auto two = run_starnet("whatif --collective allreduce --topologies " + simgrid_example("two_hosts.xml") +
                               " --costs topology --json");
  EXPECT_EQ(exact(row_of(two.json(), "bfs-tree"), "makespan"), "12501/62500000");
  // small_platform.xml: what failed with "exact rational arithmetic overflowed 64 bits" before times beyond 64 bits were exact.
  const auto small = run_starnet("whatif --collective allreduce --topologies " + simgrid_example("small_platform.xml") +
                                 " --costs topology --json");
  const std::string makespan = exact(row_of(small.json(), "bfs-tree"), "makespan");
  EXPECT_TRUE(beyond_64_bits(makespan)) << makespan;
  EXPECT_EQ(makespan, SMALL_PLATFORM_BFS_MAKESPAN);
}

TEST(SimgridPlatforms, SteadyScatterEmulatesTheOptimalAndFixedPeriodSchedulesExactly) {
  SKIP_WITHOUT_SIMGRID_EXAMPLES();
  struct Case {
    const char* file;
    const char* source;
    const char* targets;
  };
  for (const Case& c : {Case{"two_hosts.xml", "Tremblay", "Jupiter"},
                        Case{"small_platform.xml", "Tremblay", "Jupiter,Fafard,Ginette,Bourassa,Jacquelin,Boivin"},
                        Case{"cluster_backbone.xml", "node-0.simgrid.org", "node-1.simgrid.org,node-2.simgrid.org"}}) {
    const std::string args = "steady scatter --topology " + simgrid_example(c.file) + " --source " + c.source +
                             " --targets " + c.targets + " --emulate 10";
    for (const std::string& period : {std::string(), std::string(" --period 1")}) {
      const auto r = run_starnet(args + period + " --json");
      ASSERT_EQ(r.exit_code, 0) << c.file << period << ": " << r.err;
      const auto j = r.json();
      EXPECT_EQ(j["verified"], true) << c.file << period;
      EXPECT_EQ(j["certified"], true) << c.file << period;
      EXPECT_EQ(j["emulated"]["verified"], true) << c.file << period;
      EXPECT_FALSE(exact(j, "throughput").starts_with("(")) << c.file;
      if (!period.empty()) {
        EXPECT_EQ(j["fixed_period"]["emulated"]["verified"], true) << c.file;
        EXPECT_EQ(exact(j["fixed_period"], "period"), "1") << c.file;
      }
    }
  }
  // two_hosts.xml: one unit message per 12501/125000000 s on the only link.
  const auto two = run_starnet("steady scatter --topology " + simgrid_example("two_hosts.xml") +
                               " --source Tremblay --targets Jupiter --emulate 10 --json");
  EXPECT_EQ(exact(two.json(), "throughput"), "125000000/12501");
  // small_platform.xml: what failed with "period … does not fit in 64-bit integers" before times beyond 64 bits were exact.
  const auto small = run_starnet("steady scatter --topology " + simgrid_example("small_platform.xml") +
                                 " --source Tremblay --targets Jupiter,Fafard,Ginette,Bourassa,Jacquelin,Boivin "
                                 "--emulate 10 --period 1 --json");
  const auto j = small.json();
  EXPECT_EQ(exact(j, "throughput"), SMALL_PLATFORM_SCATTER_THROUGHPUT);
  EXPECT_TRUE(beyond_64_bits(exact(j, "period"))) << exact(j, "period");
  EXPECT_EQ(exact(j, "period"), SMALL_PLATFORM_SCATTER_PERIOD);
  EXPECT_EQ(exact(j["emulated"], "completed"), SMALL_PLATFORM_SCATTER_COMPLETED);
  EXPECT_EQ(exact(j["fixed_period"]["emulated"], "completed"), SMALL_PLATFORM_FIXED_COMPLETED);
}

TEST(SimgridPlatforms, ExportedScheduleRunsWithTopologyCostsToAnExactMakespan) {
  SKIP_WITHOUT_SIMGRID_EXAMPLES();
  const auto dir = std::filesystem::temp_directory_path() / ("starnet_simgrid_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const char* name : PLATFORMS) {
    const std::string file = simgrid_example(name);
    const auto schedule = (dir / (std::string(name) + ".json")).string();
    const auto exported = run_starnet("schedule export --algorithm bfs-tree --topology " + file + " -o " + schedule);
    ASSERT_EQ(exported.exit_code, 0) << name << ": " << exported.err;
    const auto r = run_starnet("schedule run " + schedule + " --costs topology --topology " + file + " --json");
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["verified"], true) << name;
    // The same plan as the what-if study's bfs-tree row, run by another program: the same time.
    const auto whatif = run_starnet("whatif --collective allreduce --topologies " + file + " --costs topology --json");
    EXPECT_EQ(exact(j, "makespan"), exact(row_of(whatif.json(), "bfs-tree"), "makespan")) << name;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace starnet::tools::testing
