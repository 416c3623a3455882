// `starnet schedule run --duplex half --checking arbitrated` on the schedules people write, where
// every node sends and receives at every step: contending transfers take turns and the
// run ends with a makespan, the same on every engine.
#include "../core/scratch_dir.hpp"
#include "cli_runner.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

std::filesystem::path scratch() {
  return starnet::testing::scratch_dir("starnet_arbitration");
}

/// The ring all-gather on ring:N as a stepped schedule: at step k node v passes chunk v − k on.
std::string ring_all_gather(int n) {
  std::string steps;
  for (int k = 0; k + 1 < n; ++k) {
    std::string step;
    for (int v = 0; v < n; ++v) {
      step += fmt::format("{}{{\"f\": {}, \"t\": {}, \"c\": [{}]}}", v == 0 ? "" : ", ", v, (v + 1) % n,
                          ((v - k) % n + n) % n);
    }
    steps += fmt::format("{}[{}]", k == 0 ? "" : ", ", step);
  }
  const auto path = scratch() / fmt::format("ring{}.json", n);
  std::ofstream(path) << fmt::format(R"({{"format": "starnet-schedule", "version": 1, "collective": "allgather",
 "chunks": {0}, "topology": "ring:{0}", "steps": [{1}]}})",
                                     n, steps);
  return path.string();
}

TEST(ArbitrationCommand, HalfDuplexRingAllGatherEndsWithAMakespanNotADeadlock) {
  for (const int n : {6, 5}) {
    const auto file = ring_all_gather(n);
    // Strict checking refuses it: each node sends and receives at step 0 (a result, NOT VERIFIED).
    auto r = run_starnet("schedule run " + file + " --duplex half");
    EXPECT_EQ(r.exit_code, 1) << " n=" << n;
    EXPECT_THAT(r.out, HasSubstr("step 0")) << " n=" << n;
    r = run_starnet("schedule run " + file + " --duplex half --checking arbitrated --json");
    ASSERT_EQ(r.exit_code, 0) << " n=" << n << "\n" << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["verified"], true) << " n=" << n;
    // n(n − 1) transfers, at most ⌊n/2⌋ at a time in half duplex: the arbiter reaches the bound.
    EXPECT_EQ(j["steps"], n * (n - 1) / (n / 2)) << " n=" << n;
  }
}

TEST(ArbitrationCommand, HalfDuplexRecursiveDoublingOnQ3EndsWithAMakespanNotADeadlock) {
  const auto file = (scratch() / "rd.json").string();
  auto r = run_starnet("schedule export --algorithm recursive-doubling --topology hypercube:3 -o " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_starnet("schedule run " + file + " --duplex half --checking arbitrated --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["steps"], 6);  // each exchange step split in two: 24 transfers, 4 at a time
}

TEST(ArbitrationCommand, EveryEngineWritesTheSameTrace) {
  const auto file = ring_all_gather(6);
  const auto dir = scratch();
  std::string first;
  for (const std::string engine : {"", "--engine zmq --workers 1", "--engine zmq --workers 2",
                                   "--engine zmq --workers 3"}) {
    const auto trace = (dir / "t.jsonl").string();
    const auto r = run_starnet("schedule run " + file + " --duplex half --checking arbitrated --trace " + trace + " " +
                               engine);
    ASSERT_EQ(r.exit_code, 0) << engine << "\n" << r.err;
    const auto text = read(trace);
    EXPECT_THAT(text, HasSubstr("\"event\":\"request\"")) << engine;
    if (first.empty()) {
      first = text;
    } else {
      EXPECT_EQ(text, first) << engine;
    }
  }
}

}  // namespace
}  // namespace starnet::tools::testing
