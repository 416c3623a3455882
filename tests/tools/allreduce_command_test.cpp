// `starnet allreduce`, `broadcast` and `demo`, run as a user runs them (`worker`: worker_command_test.cpp).
#include "../core/scratch_dir.hpp"
#include "starnet_test_paths.hpp"
#include "../../emulator/src/secure.hpp"
#include "../core/sanitizers.hpp"
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

std::uint64_t factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

std::filesystem::path scratch(const std::string& name) {
  return starnet::testing::scratch_dir("starnet_cli") / name;
}

TEST(AllReduceCommand, VerifiedInNTimesNMinusOneHalfStepsForNTwoToNine) {
  for (int n = 2; n <= 9; ++n) {
    const auto r = run_starnet("allreduce --topology star:" + std::to_string(n) + " --json");
    ASSERT_EQ(r.exit_code, 0) << " n=" << n << r.err;
    const auto j = r.json();
    const auto steps = static_cast<std::uint64_t>(n * (n - 1) / 2);
    EXPECT_EQ(j["steps"], steps) << " n=" << n;
    EXPECT_EQ(j["expected_steps"], steps) << " n=" << n;
    EXPECT_EQ(j["nodes"], factorial(n)) << " n=" << n;
    EXPECT_EQ(j["messages"], factorial(n) * steps) << " n=" << n;
    EXPECT_EQ(j["payload_bytes"], 8 * factorial(n) * steps) << " n=" << n;
    EXPECT_EQ(j["nodes_verified"], factorial(n)) << " n=" << n;
    EXPECT_EQ(j["verified"], true) << " n=" << n;
    EXPECT_EQ(j["max_messages_per_node_per_step"], 1) << " n=" << n;
    EXPECT_EQ(j["result"], factorial(n) * (factorial(n) + 1) / 2) << " n=" << n;
    for (const auto& level : j["levels"]) EXPECT_EQ(level["steps"], level["level"].get<int>() - 1) << " n=" << n;
  }
}

TEST(BroadcastCommand, EveryNodeGetsEveryItemOnceForNTwoToNine) {
  for (int n = 2; n <= 9; ++n) {
    const auto r = run_starnet("broadcast --all-to-all --topology star:" + std::to_string(n) + " --json");
    ASSERT_EQ(r.exit_code, 0) << " n=" << n << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["steps"], n * (n - 1) / 2) << " n=" << n;
    EXPECT_EQ(j["nodup"], true) << " n=" << n;
    EXPECT_EQ(j["verified"], true) << " n=" << n;
    EXPECT_EQ(j["payload_items"], factorial(n) * (factorial(n) - 1)) << " n=" << n;
  }
}

TEST(AllReduceCommand, OtherOperatorsAndRandomValues) {
  for (const char* op : {"min", "max", "xor"}) {
    const auto r = run_starnet(std::string("allreduce --topology star:6 --values random --seed 9 --op ") + op +
                               " --engine zmq --workers 3 --json");
    ASSERT_EQ(r.exit_code, 0) << op << r.err;
    EXPECT_EQ(r.json()["verified"], true) << op;
    EXPECT_EQ(r.json()["op"], op);
  }
}

TEST(AllReduceCommand, ZmqWorkerThreadsTakeTheTimeout) {
  // The barrier's wait of worker threads: accepted and the run verified (refused on the local
  // engine: BadInputIsExitTwoNamingTheInput).
  const auto r = run_starnet("allreduce --topology star:5 --engine zmq --workers 3 --timeout 5 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["verified"], true);
  EXPECT_EQ(r.json()["nodes_verified"], 120);
}

TEST(AllReduceCommand, EveryEngineWritesTheSameTrace) {
  const std::vector<std::pair<std::string, std::string>> engines = {
      {"local", ""},
      {"zmq1", "--engine zmq --workers 1"},
      {"zmq3", "--engine zmq --workers 3"},
      {"processes2", "--engine zmq --workers 2 --processes"}};
  std::string reference;
  for (const auto& [name, flags] : engines) {
    const auto path = scratch("trace_" + name + ".jsonl");
    const auto r = run_starnet("allreduce --topology star:5 --values random --seed 3 --trace " + path.string() + " " +
                               flags + " --json");
    ASSERT_EQ(r.exit_code, 0) << name << r.err;
    EXPECT_EQ(r.json()["verified"], true) << name;
    const auto trace = read(path);
    EXPECT_EQ(std::count(trace.begin(), trace.end(), '\n'), 120 * 10 * 3) << name;  // send, receive, send_end
    if (reference.empty()) {
      reference = trace;
    } else {
      EXPECT_TRUE(trace == reference) << name << " trace differs from the local engine's";
    }
  }
  const auto first = nlohmann::json::parse(reference.substr(0, reference.find('\n')));
  EXPECT_EQ(first["event"], "send");
  EXPECT_EQ(first["node"], "12345");
  EXPECT_EQ(first["link"], "link 2");
}

TEST(AllReduceCommand, WorkerProcessesVerifyEveryNUpToSeven) {
  for (int n = 2; n <= 7; ++n) {
    for (const char* collective : {"allreduce", "broadcast --all-to-all"}) {
      const auto r = run_starnet(std::string(collective) + " --topology star:" + std::to_string(n) +
                                 " --engine zmq --workers 2 --processes --json");
      ASSERT_EQ(r.exit_code, 0) << collective << " n=" << n << r.err;
      EXPECT_EQ(r.json()["verified"], true) << collective << " n=" << n;
      EXPECT_EQ(r.json()["transport"], "ipc");  // one host, no CURVE: a private folder keeps other users out
      EXPECT_EQ(r.json()["address"], "127.0.0.1");
      EXPECT_EQ(r.json()["curve"], false);
      EXPECT_EQ(r.json()["steps"], n * (n - 1) / 2) << collective << " n=" << n;
      EXPECT_EQ(r.json()["stray_messages"], 0);
      // Each worker's peak resident set: measured (a process maps at least 1 MiB), and within the
      // estimate made for the whole run (whose figures are for builds without sanitizers, which
      // add their shadow memory).
      const auto j = r.json();
      ASSERT_EQ(j["worker_peak_bytes"].size(), 2U);
      for (const auto& peak : j["worker_peak_bytes"]) {
        EXPECT_GT(peak.get<std::uint64_t>(), 1U << 20U) << collective << " n=" << n;
#ifndef STARNET_UNDER_SANITIZER
        EXPECT_LT(peak.get<std::uint64_t>(), j["memory_estimate_bytes"].get<std::uint64_t>());
#endif
      }
    }
  }
}

TEST(AllReduceCommand, WorkerProcessesOnANonLoopbackAddressUseCurve) {
  std::vector<std::string> addresses;
  for (const auto& a : emulator::local_addresses()) {
    if (!emulator::TcpAddress::parse(a).loopback) addresses.push_back(a);
  }
  if (addresses.empty()) {
    std::cout << "note: this machine has no address but loopback; running on 127.0.0.1 (plain tcp) instead\n";
    addresses.emplace_back("127.0.0.1");
  }
  for (const auto& address : addresses) {
    const bool curve = !emulator::TcpAddress::parse(address).loopback;
    const auto r = run_starnet("allreduce --topology star:4 --engine zmq --processes --workers 2 --address " + address +
                               " --json");
    ASSERT_EQ(r.exit_code, 0) << address << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["verified"], true) << address;
    EXPECT_EQ(j["steps"], 6) << address;
    EXPECT_EQ(j["address"], address);
    EXPECT_EQ(j["curve"], curve) << address;
    const auto text =
        run_starnet("broadcast --all-to-all --topology star:4 --engine zmq --processes --address " + address);
    ASSERT_EQ(text.exit_code, 0) << address << text.err;
    EXPECT_THAT(text.out, HasSubstr("2 workers (processes over tcp on " + address + (curve ? ", CURVE)" : ")")));
    EXPECT_THAT(text.out, HasSubstr("verified"));
  }
}

TEST(AllReduceCommand, BadAddressIsExitTwoOnOneLineNamingIt) {
  const auto mine = emulator::local_addresses();
  ASSERT_EQ(std::find(mine.begin(), mine.end(), "203.0.113.7"), mine.end());
  const std::string processes = "allreduce --topology star:4 --engine zmq --processes --address ";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {processes + "203.0.113.7", {"--address 203.0.113.7:", "not an address of this machine", "127.0.0.1"}},
      {processes + "300.1.2.3", {"--address 300.1.2.3:", "not an IP address", "expected"}},
      {processes + "my-host", {"--address my-host:", "not an IP address", "expected"}},
      {processes + "0.0.0.0", {"--address 0.0.0.0:", "wildcard", "expected"}},
      {"allreduce --topology star:4 --engine zmq --address 127.0.0.1", {"--address 127.0.0.1:", "applies only with --processes"}},
      {"allreduce --topology star:4 --address 192.0.2.2", {"--address 192.0.2.2:", "applies only with --processes"}}};
  for (const auto& [args, needles] : cases) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_starnet(args);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    for (const auto& needle : needles) EXPECT_THAT(r.err, HasSubstr(needle)) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_LT(seconds, 30.0) << args << " must fail at once, not wait";
  }
}

TEST(AllReduceCommand, ChromeTraceOpensAsTraceEventJson) {
  const auto path = scratch("trace.json");
  const auto r = run_starnet("allreduce --topology star:3 --trace-format chrome --trace " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(read(path));
  int transfers = 0;
  for (const auto& e : j["traceEvents"]) transfers += e["ph"] == "X" ? 1 : 0;
  EXPECT_EQ(transfers, 2 * 6 * 3);  // each of 18 transfers on the sender's and the receiver's row
}

TEST(AllReduceCommand, StarOneTakesZeroStepsAndIsVerified) {
  const auto r = run_starnet("allreduce --topology star:1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["steps"], 0);
  EXPECT_EQ(r.json()["messages"], 0);
  EXPECT_EQ(r.json()["verified"], true);
}

TEST(AllReduceCommand, BadInputIsExitTwoNamingTheInput) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"allreduce --topology star:13", "star:13"},
      {"allreduce --topology star:x", "star:x"},
      {"allreduce --topology hypercube:3", "not a star graph"},
      {"allreduce --topology star:4 --engine zmq --workers 0", "--workers 0"},
      {"allreduce --topology star:3 --engine zmq --workers 7", "--workers 7"},
      {"allreduce --topology star:4 --op avg", "--op avg"},
      {"allreduce --topology star:4 --values odd", "--values"},
      {"allreduce --topology star:4 --engine mpi", "--engine"},
      {"allreduce --topology star:4 --workers 2", "--workers 2"},
      // options that do not apply are refused, never ignored.
      {"allreduce --topology star:4 --workers -1", "--workers -1"},
      {"allreduce --topology star:4 --timeout 5", "--timeout 5"},
      {"allreduce --topology star:4 --engine zmq --peer-timeout 9", "--peer-timeout 9"},
      {"allreduce --compare --max-n 11", "--max-n 11"},
      {"broadcast --topology star:4", "--all-to-all"},
      {"allreduce", "--topology is required"}};
  for (const auto& [args, needle] : cases) {
    const auto r = run_starnet(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_THAT(r.err, HasSubstr(needle)) << args;
    EXPECT_TRUE(r.out.empty()) << args;
  }
}

TEST(AllReduceCommand, PortInUseIsReported) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  const auto r = run_starnet("allreduce --topology star:4 --engine zmq --processes --port " + std::to_string(port));
  ::close(fd);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("already in use"));
  EXPECT_THAT(r.err, HasSubstr(std::to_string(port)));
}

TEST(AllReduceCommand, AWorkerProcessDyingEndsTheRunWithExitThree) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_starnet("allreduce --topology star:6 --engine zmq --workers 2 --processes --fault-exit 1:4");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.err, HasSubstr("worker 1"));
  EXPECT_THAT(r.err, HasSubstr("exited with status 70"));
  EXPECT_LT(seconds, 30.0) << " the coordinator must notice, not wait";
}

TEST(AllReduceCommand, AStoppedWorkerProcessEndsTheRunWithExitThreeInsteadOfAHang) {
  // SIGSTOP is what a hung host looks like: alive, silent. Its peers would wait at the barrier.
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_starnet("allreduce --topology star:6 --engine zmq --workers 2 --processes --fault-stop 1:4");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.err, HasSubstr("worker 1 (pid "));
  EXPECT_THAT(r.err, HasSubstr("has not been heard from for 5 s while running (its process is stopped: SIGSTOP or a debugger)"));
  EXPECT_LT(seconds, 30.0) << " the coordinator must notice, not wait";
  EXPECT_EQ(run_starnet("allreduce --topology star:4 --fault-stop 1:1").exit_code, 2);
}

TEST(AllReduceCommand, ZeroMqRunningOutOfFilesIsARuntimeFailureNotAnInternalError) {
#ifdef STARNET_UNDER_SANITIZER
  GTEST_SKIP() << "the sanitizers' runtime needs file descriptors of its own (UBSan probes memory through a pipe): "
                  "it cannot run out of them with the program";
#else
  const auto err = std::filesystem::temp_directory_path() / ("starnet_cli_ulimit_" + std::to_string(::getpid()));
  const auto r = run_shell(std::string("ulimit -n 64 && ") + STARNET_EXE +
                               " allreduce --topology star:6 --engine zmq --workers 16",
                           err);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("starnet: error: ZeroMQ failed: Too many open files"));
  EXPECT_THAT(r.err, HasSubstr("fewer workers"));
#endif
}

TEST(AllReduceCommand, CompareReproducesTableTwoWithMeasuredSteps) {
  const auto r = run_starnet("allreduce --compare --max-n 8 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  ASSERT_EQ(j["rows"].size(), 6U);
  for (const auto& row : j["rows"]) {
    const int n = row["n"];
    EXPECT_EQ(row["measured"], n * (n - 1) / 2) << " n=" << n;
    EXPECT_EQ(row["measured"], row["paper"]) << " n=" << n;
    EXPECT_EQ(row["sheu_formula"], row["sheu_paper"]) << " n=" << n;
    EXPECT_LE(row["lower_bound"].get<int>(), row["measured"].get<int>()) << " n=" << n;
    if (n != 8) {
      EXPECT_EQ(row["tseng_formula"], row["tseng_paper"]) << " n=" << n;
    }
  }
  // The paper prints 127 for Tseng's scheme on S_8; its own formula 3(n−1)² gives 147.
  EXPECT_EQ(j["rows"][5]["tseng_formula"], 147);
  EXPECT_EQ(j["rows"][5]["tseng_paper"], 127);
  ASSERT_EQ(j["notes"].size(), 1U);
  EXPECT_THAT(j["notes"][0].get<std::string>(), HasSubstr("127"));
  const auto text = run_starnet("allreduce --compare --max-n 8");
  EXPECT_EQ(text.out, golden("allreduce_compare.txt", text.out));
}

TEST(DemoCommand, RunsTheAllReduceOnS5OverTwoZmqWorkers) {
  const auto r = run_starnet("demo");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("zmq engine, 2 workers"));
  EXPECT_THAT(r.out, HasSubstr("steps: 10 (n(n−1)/2 = 10)"));
  EXPECT_THAT(r.out, HasSubstr("verified: each of the 120 nodes holds 7260"));
}

TEST(AllReduceCommand, UnwritableTracePathIsExitTwoAndWritesNothing) {
  const auto r = run_starnet("allreduce --topology star:3 --trace /nonexistent-dir/t.jsonl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent-dir/t.jsonl"));
  EXPECT_FALSE(std::filesystem::exists("/nonexistent-dir"));
}

TEST(AllReduceCommand, HelpListsEveryOption) {
  const auto r = run_starnet("allreduce --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* option : {"--topology", "--op", "--values", "--seed", "--json", "--engine", "--workers",
                             "--processes", "--address", "--port", "--trace", "--trace-format", "--compare", "--max-n"}) {
    EXPECT_THAT(r.out, HasSubstr(option)) << option;
  }
}

}  // namespace
}  // namespace starnet::tools::testing
