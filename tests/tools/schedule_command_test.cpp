// `starnet schedule run|export|convert`, run as a user runs it.
#include "../algorithms/schedule/msccl_rules.hpp"
#include "../core/scratch_dir.hpp"
#include "starnet_test_paths.hpp"
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

std::filesystem::path scratch_dir() {
  return starnet::testing::scratch_dir("starnet_schedule_cli");
}

std::string write(const std::string& name, const std::string& text) {
  const auto path = scratch_dir() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string example(const std::string& name) {
  return std::string(STARNET_SOURCE_DIR) + "/docs/examples/schedules/" + name + ".json";
}

TEST(ScheduleCommand, RunsEveryDocumentedExampleAndReportsWhatItChecked) {
  for (const auto* name : {"allreduce", "reduce", "broadcast", "allgather", "gather", "scatter", "reducescatter",
                           "alltoall", "allreduce_programs"}) {
    const auto r = run_starnet("schedule run " + example(name) + " --json");
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["verified"], true) << name;
    EXPECT_EQ(j["chunks_correct"], j["chunks_checked"]) << name;
    EXPECT_TRUE(j["steps"].is_number_integer()) << name;
    EXPECT_GE(j["steps"].get<int>(), j["lower_bound"].get<int>()) << name;
  }
}

TEST(ScheduleCommand, WritesTheLinkReportAndTheDrawingColoursByIt) {
  // The documented all-gather on complete:4 (recursive doubling): step 0 sends one chunk over
  // 0-1 and 2-3 both ways, step 1 two chunks over 0-2 and 1-3 both ways; 0-3 and 1-2 stay idle.
  const auto csv = (scratch_dir() / "links.csv").string();
  const auto r = run_starnet("schedule run " + example("allgather") + " --json --link-report " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = r.json().at("link_report");
  ASSERT_EQ(report.size(), 8U);
  for (const auto& line : report) {
    const auto link = line.at("link").get<std::string>();
    const bool first = link == "0->1" || link == "1->0" || link == "2->3" || link == "3->2";
    EXPECT_EQ(line.at("messages"), 1) << link;
    EXPECT_EQ(line.at("packets"), first ? 1 : 2) << link;
    EXPECT_EQ(line.at("busy"), 1) << link << ": a step";
  }
  const auto text = read(csv);
  EXPECT_THAT(text, HasSubstr("row,topology,algorithm,ports,duplex,link,messages,packets,packets_exact,units,"
                              "units_exact,busy,busy_exact\n"));
  EXPECT_THAT(text, HasSubstr("0,complete:4,schedule,1,full,0->2,1,2,2,2,2,1,1\n"));
  const auto svg = (scratch_dir() / "loads.svg").string();
  const auto drawn = run_starnet("topo draw complete:4 -o " + svg + " --link-loads " + csv + " --load-by units");
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  EXPECT_THAT(drawn.out, HasSubstr("links coloured by units from " + csv));
  const auto picture = read(svg);
  EXPECT_THAT(picture, HasSubstr("#a50f15")) << "0-2 and 1-3, the most units";
  EXPECT_THAT(picture, HasSubstr("#c8c8c8")) << "0-3 and 1-2, idle";
  EXPECT_THAT(picture, HasSubstr("not in the link report"));
}

TEST(ScheduleCommand, RefusesALinkReportItCannotWriteOrDraw) {
  const auto r = run_starnet("schedule run " + example("allgather") + " --link-report /nonexistent/links.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--link-report"));
  EXPECT_THAT(r.err, HasSubstr("/nonexistent"));
  const auto wrong = write("wrong.csv", "row,topology,link,messages,units_exact,busy_exact\n0,complete:4,0->5,1,1,1\n");
  const auto d = run_starnet("topo draw complete:4 -o " + (scratch_dir() / "w.svg").string() + " --link-loads " + wrong);
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_THAT(d.err, HasSubstr("--link-loads " + wrong));
  EXPECT_THAT(d.err, HasSubstr("\"0->5\" is not a link of topology \"complete:4\""));
  const auto by = run_starnet("topo draw complete:4 -o " + (scratch_dir() / "b.svg").string() + " --load-by units");
  EXPECT_EQ(by.exit_code, 2);
  EXPECT_THAT(by.err, HasSubstr("--load-by"));
  EXPECT_THAT(by.err, HasSubstr("--link-loads"));
}

TEST(ScheduleCommand, TimedRunsUseTheAlphaBetaTimeOfEveryLink) {
  // K_4 with latencies: a message of 2 units takes α + 2·cost. Step 1: 0–1 takes 5 + 2·1/2 = 6,
  // 2–3 takes 1 + 2·4 = 9; step 2 starts when both ends are free: 0–2 (1 + 2) ends at 12, 1–3
  // (3 + 2) at 14.
  const auto path = std::filesystem::temp_directory_path() / ("starnet_k4_ab_" + std::to_string(::getpid()) + ".dot");
  std::ofstream(path) << "graph { 0 -- 1 [latency=5, bandwidth=2]; 0 -- 2 [latency=1]; 0 -- 3; 1 -- 2; "
                         "1 -- 3 [latency=3]; 2 -- 3 [latency=1, cost=4]; }\n";
  const auto r = run_starnet("schedule run " + std::string(STARNET_SOURCE_DIR) +
                             "/docs/examples/schedules/allreduce.json --topology " + path.string() +
                             " --costs topology --chunk-size 2 --json");
  std::filesystem::remove(path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(exact(j, "makespan"), "14");
  EXPECT_EQ(j.at("verified"), true);
}

TEST(ScheduleCommand, LatencyAndBandwidthGiveEveryLinkTheSameAlphaBetaTime) {
  // complete:4, two steps, one chunk of size 2 per message: each takes 5 + 2/4 = 11/2, the run 11.
  const auto r = run_starnet("schedule run " + example("allreduce") +
                             " --costs topology --latency 5 --bandwidth 4 --chunk-size 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(exact(j, "makespan"), "11");
  EXPECT_EQ(exact(j, "latency"), "5");
  EXPECT_EQ(exact(j, "bandwidth"), "4");
  EXPECT_EQ(j.at("verified"), true);
  // Exponents are exact too: α = 1 µs, β = 2·10^9.
  const auto e = run_starnet("schedule run " + example("allreduce") + " --costs topology --latency 1e-6 --bandwidth 2e9 --json");
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(exact(e.json(), "makespan"), "2001/1000000000");  // 2·(10^-6 + 1/(2·10^9))
}

TEST(ScheduleCommand, ExportsEveryAlgorithmOfTheCatalogueThatRunsVerified) {
  const std::vector<std::tuple<std::string, std::string, std::string, int>> cases = {
      {"recursive-halving", "hypercube:3", "reducescatter", 3},
      {"bruck", "complete:6", "alltoall", 3},
      {"bruck", "complete:6", "allgather", 3},
      {"ring", "torus:3x3", "allgather", 4},
      {"one-packet", "ring:5", "alltoall", 6},
      {"combining", "hypercube:3", "alltoall", 3},
      {"uniform", "star:4", "allgather", 6},
      {"star", "star:4", "reducescatter", 6},
      {"bfs-tree", "mesh:2x3", "gather", -1},
      {"bfs-tree", "mesh:2x3", "alltoall", -1},
      {"recursive-doubling", "complete:6", "allreduce", 4},  // folded: 1 + 2 + 1
  };
  for (const auto& [algorithm, spec, collective, steps] : cases) {
    const auto file = (scratch_dir() / (algorithm + "_" + collective + ".json")).string();
    const auto e = run_starnet("schedule export --algorithm " + algorithm + " --topology " + spec + " --collective " +
                               collective + " -o " + file);
    ASSERT_EQ(e.exit_code, 0) << algorithm << " " << spec << "\n" << e.err;
    const auto r = run_starnet("schedule run " + file + " --json");
    ASSERT_EQ(r.exit_code, 0) << algorithm << " " << spec << "\n" << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["collective"], collective) << algorithm;
    EXPECT_EQ(j["verified"], true) << algorithm;
    if (steps >= 0) {
      EXPECT_EQ(j["steps"], steps) << algorithm << " " << spec;
    }
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ScheduleCommand, ExportsTheAcceptanceListAsMscclFilesTheLoaderTakesThatRunVerified) {
  // docs/gpu.md: exported, checked against the loader's rules, read back and run verified.
  const std::vector<std::tuple<std::string, std::string, std::string, int>> cases = {
      {"recursive-doubling", "hypercube:3", "allreduce", 8},
      {"ring", "ring:8", "allgather", 8},
      {"star-allreduce", "star:4", "allreduce", 24},
      {"ring-split", "ring:8", "allreduce", 8},
      {"one-packet", "hypercube:3", "alltoall", 8},
  };
  for (const auto& [algorithm, spec, collective, nodes] : cases) {
    const auto file = (scratch_dir() / (algorithm + "_" + collective + ".xml")).string();
    const auto e = run_starnet("schedule export --algorithm " + algorithm + " --topology " + spec + " --collective " +
                               collective + " --format msccl -o " + file);
    ASSERT_EQ(e.exit_code, 0) << algorithm << " " << spec << "\n" << e.err;
    EXPECT_THAT(e.out, HasSubstr(file + ": " + collective + " on " + spec));
    const auto xml = read_text(file);
    const auto rules = starnet::testing::msccl::check_loader_rules(xml);
    EXPECT_TRUE(rules.ok()) << algorithm << ":\n" << rules.all();
    const auto r = run_starnet("schedule run " + file + " --topology " + spec + " --json");
    ASSERT_EQ(r.exit_code, 0) << algorithm << " " << spec << "\n" << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["format"], "msccl") << algorithm;
    EXPECT_EQ(j["collective"], collective) << algorithm;
    EXPECT_EQ(j["verified"], true) << algorithm;
    EXPECT_EQ(j["nodes_checked"], nodes) << algorithm;
    // The same bytes when written again, by extension alone.
    const auto again = (scratch_dir() / "again.xml").string();
    ASSERT_EQ(run_starnet("schedule export --algorithm " + algorithm + " --topology " + spec + " --collective " +
                          collective + " -o " + again).exit_code, 0);
    EXPECT_EQ(read_text(again), xml) << algorithm;
  }
}

TEST(ScheduleCommand, ConvertsJsonToMscclAndBackAndTheResultsRunVerified) {
  const auto xml = (scratch_dir() / "allgather.xml").string();
  const auto c = run_starnet("schedule convert " + example("allgather") + " " + xml + " --protocol LL128");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_THAT(read_text(xml), HasSubstr("proto=\"LL128\""));
  EXPECT_TRUE(starnet::testing::msccl::check_loader_rules(read_text(xml)).ok());
  const auto json = (scratch_dir() / "allgather_back.json").string();
  ASSERT_EQ(run_starnet("schedule convert " + xml + " " + json).exit_code, 0);
  for (const auto& file : {xml, json}) {
    const auto r = run_starnet("schedule run " + file + " --json");
    ASSERT_EQ(r.exit_code, 0) << file << "\n" << r.err;
    EXPECT_EQ(r.json()["verified"], true) << file;
    EXPECT_EQ(r.json()["topology"], "complete:4") << file;
  }
  // Standard output with --format; the protocol applies to MSCCL only.
  const auto out = run_starnet("schedule convert " + example("allreduce") + " - --format msccl");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out.rfind("<algo name=\"converted by starnet from ", 0), 0U) << out.out;
  const auto wrong = run_starnet("schedule convert " + example("allreduce") + " " + json + " --protocol LL");
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_THAT(wrong.err, HasSubstr("--protocol"));
}

TEST(ScheduleCommand, WhatMscclCannotExpressIsExitTwoNamingTheReason) {
  // An all-reduce on K_2 whose messages carry 72 chunks: MSCCL's cnt is below 72. Nothing is written.
  std::string items;
  for (int c = 0; c < 72; ++c) items += (c ? "," : "") + std::to_string(c);
  const auto file = write("big.json", R"({"format": "starnet-schedule", "version": 1, "collective": "allreduce",
      "chunks": 72, "topology": "complete:2", "steps": [[{"f": 0, "t": 1, "c": [)" + items +
                                           R"(], "op": "reduce"}], [{"f": 1, "t": 0, "c": [)" + items + R"(]}]]})");
  const auto r = run_starnet("schedule convert " + file + " " + (scratch_dir() / "big.xml").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("72 chunks in one message"));
  EXPECT_THAT(r.err, HasSubstr("below 72"));
  EXPECT_FALSE(std::filesystem::exists(scratch_dir() / "big.xml"));
}

TEST(ScheduleCommand, OptimalWritesItsScheduleAsMscclToo) {
  const auto file = (scratch_dir() / "optimal.xml").string();
  const auto o = run_starnet("optimal --topology hypercube:3 --collective allreduce -o " + file);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(starnet::testing::msccl::check_loader_rules(read_text(file)).ok());
  const auto r = run_starnet("schedule run " + file + " --topology hypercube:3 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["verified"], true);
}

TEST(ScheduleCommand, TheAllReduceExampleAsAUserSeesIt) {
  const auto r = run_starnet("schedule run " + example("allreduce") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["collective"], "allreduce");
  EXPECT_EQ(j["nodes"], 4);
  EXPECT_EQ(j["steps"], 2);
  EXPECT_EQ(j["messages"], 8);
  EXPECT_EQ(j["chunks_moved"], 8);
  EXPECT_EQ(j["lower_bound"], 2);  // ⌈log₂ 4⌉ = 2, diameter 1
  EXPECT_EQ(j["checking"], "strict");
}

TEST(ScheduleCommand, ExportedStarAllReduceRunsInNChooseTwoStepsOnBothEngines) {
  const auto file = (scratch_dir() / "s5.json").string();
  const auto e = run_starnet("schedule export --algorithm star-allreduce --topology star:5 -o " + file);
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_THAT(e.out, HasSubstr("10 steps, 1200 transfers"));
  const auto local_trace = (scratch_dir() / "local.jsonl").string();
  const auto zmq_trace = (scratch_dir() / "zmq.jsonl").string();
  const auto a = run_starnet("schedule run " + file + " --json --trace " + local_trace);
  const auto b = run_starnet("schedule run " + file + " --json --engine zmq --workers 3 --trace " + zmq_trace);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(a.json()["steps"], 10);
  EXPECT_EQ(b.json()["steps"], 10);
  std::ifstream la(local_trace), lb(zmq_trace);
  std::stringstream sa, sb;
  sa << la.rdbuf();
  sb << lb.rdbuf();
  EXPECT_FALSE(sa.str().empty());
  EXPECT_EQ(sa.str(), sb.str());
}

TEST(ScheduleCommand, DrawsAGanttChartOfAnySmallSchedule) {
  const auto svg = (scratch_dir() / "g.svg").string();
  const auto r = run_starnet("schedule run " + example("reducescatter") + " --gantt " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(svg);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_THAT(ss.str(), HasSubstr("<svg"));
}

TEST(ScheduleCommand, ReadsStandardInput) {
  const auto r = run_starnet("schedule run - < " + example("broadcast"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("verified"));
}

TEST(ScheduleCommand, ABrokenScheduleIsExitOneNamingWhatWentWrong) {
  const auto unheld = write("unheld.json", R"({"format":"starnet-schedule","version":1,"collective":"broadcast",
    "chunks":1,"root":0,"topology":"complete:3","steps":[[{"f":0,"t":1,"c":[0]},{"f":1,"t":2,"c":[0]}]]})");
  auto r = run_starnet("schedule run " + unheld);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("NOT VERIFIED"));
  EXPECT_THAT(r.out, HasSubstr("node 1 sends chunk 0"));
  const auto two_sends = write("two.json", R"({"format":"starnet-schedule","version":1,"collective":"broadcast",
    "chunks":1,"root":0,"topology":"complete:3","steps":[[{"f":0,"t":1,"c":[0]},{"f":0,"t":2,"c":[0]}]]})");
  r = run_starnet("schedule run " + two_sends);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("NOT VERIFIED"));  // a violation is a result: the summary says it
  EXPECT_THAT(r.out, HasSubstr("step 0"));
  r = run_starnet("schedule run " + two_sends + " --checking arbitrated --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["steps"], 2);
  const auto deadlock = write("dead.json", R"({"format":"starnet-schedule","version":1,"collective":"allreduce",
    "chunks":1,"topology":"complete:2","programs":{"0":[{"recv":1,"c":[0]},{"send":1,"c":[0]}],
    "1":[{"recv":0,"c":[0]},{"send":0,"c":[0]}]}})");
  r = run_starnet("schedule run " + deadlock + " --json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.json()["problem"].get<std::string>(), HasSubstr("deadlock"));
}

TEST(ScheduleCommand, EveryFailureGivesItsDocumentAndItsSummary) {
  // a send along a missing link (a port-model violation in strict mode) is a result like any
  // other failure: the JSON document with "problem", the summary with NOT VERIFIED, exit 1.
  const auto missing = write("missing.json", R"({"format":"starnet-schedule","version":1,"collective":"allgather",
    "chunks":4,"topology":"ring:4","steps":[[{"f":0,"t":2,"c":[0]}]]})");
  auto r = run_starnet("schedule run " + missing + " --json");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["verified"], false);
  EXPECT_THAT(j["problem"].get<std::string>(), HasSubstr("link"));
  EXPECT_TRUE(j["steps"].is_null());
  r = run_starnet("schedule run " + missing);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("NOT VERIFIED"));
  EXPECT_THAT(r.out, HasSubstr("wall time"));
}

TEST(ScheduleCommand, ATopologyFileNamedByAScheduleIsFoundBesideIt) {
  // "topology": "pair.dot" is relative to the schedule's folder, wherever starnet runs from,
  // and schedule export writes a topology file relative to the file it writes.
  const auto dir = scratch_dir() / "beside";
  std::filesystem::create_directories(dir / "out");
  std::ofstream(dir / "pair.dot") << "graph { a -- b; }\n";
  std::ofstream(dir / "s.json") << R"({"format":"starnet-schedule","version":1,"collective":"allgather","chunks":2,
    "topology":"pair.dot","steps":[[{"f":0,"t":1,"c":[0]},{"f":1,"t":0,"c":[1]}]]})";
  auto r = run_starnet("schedule run " + (dir / "s.json").string() + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["verified"], true);
  std::ofstream(dir / "lost.json") << R"({"format":"starnet-schedule","version":1,"collective":"allgather","chunks":2,
    "topology":"lost.dot","steps":[]})";
  r = run_starnet("schedule run " + (dir / "lost.json").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("lost.json\" names the topology \"" + (dir / "lost.dot").string()));
  const auto out = (dir / "out" / "tree.json").string();
  r = run_starnet("schedule export --algorithm bfs-tree --topology " + (dir / "pair.dot").string() + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("\"../pair.dot\""));
  EXPECT_EQ(run_starnet("schedule run " + out).exit_code, 0);
}

TEST(ScheduleCommand, WhatIfTakesMscclFilesAsScheduleRunDoes) {
  // whatif --schedule FILE.xml reads MSCCL's XML like schedule run.
  const std::string file = std::string(STARNET_SOURCE_DIR) + "/../shared/data/msccl/ring_2_4.xml";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is absent (the workplace's shared data)";
  const auto run = run_starnet("schedule run " + file + " --topology ring:8 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto r = run_starnet("whatif --collective allreduce --topologies ring:8 --schedule " + file + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  bool seen = false;
  const auto rows = r.json()["rows"];
  for (const auto& row : rows) {
    if (row["algorithm"] != "schedule") continue;
    seen = true;
    EXPECT_EQ(row["applicable"], true) << row.dump();
    EXPECT_EQ(row["verified"], true);
    EXPECT_EQ(row["steps"], run.json()["steps"]);
  }
  EXPECT_TRUE(seen);
}

TEST(ScheduleCommand, BadInputsAreExitTwoNamingTheInput) {
  const auto good = example("allreduce");
  const auto no_topology = write("notopo.json", R"({"format":"starnet-schedule","version":1,"collective":"allreduce",
    "chunks":1,"steps":[]})");
  const auto malformed = write("bad.json", R"({"format":"starnet-schedule",)");
  const auto bad_xml = write("bad.xml", "<algo ngpus=\"2\"");
  const auto four = write("four.json", R"({"format":"starnet-schedule","version":1,"collective":"allreduce",
    "chunks":1,"nodes":4,"topology":"complete:4","steps":[]})");
  const auto dir = scratch_dir().string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"schedule run /nonexistent/s.json", "does not exist"},
      {"schedule run " + dir, "is a directory"},
      {"schedule run " + malformed, "not valid JSON"},
      {"schedule run " + no_topology, "names no topology"},
      {"schedule run " + bad_xml, "not well-formed XML"},
      {"schedule run " + good + " --ports 0", "--ports 0"},
      {"schedule run " + good + " --chunk-size 0", "--chunk-size 0"},
      {"schedule run " + good + " --chunk-size x", "--chunk-size"},
      {"schedule run " + good + " --checking loose", "loose"},
      {"schedule run " + good + " --costs random", "--costs random"},
      {"schedule run " + good + " --values odd", "--values odd"},
      {"schedule run " + good + " --op avg", "avg"},
      {"schedule run " + good + " --workers 3", "--workers 3"},
      // options of worker processes do not apply to schedule runs: refused, never ignored.
      {"schedule run " + good + " --timeout 5", "--timeout"},
      {"schedule run " + good + " --engine zmq --peer-timeout 9", "--peer-timeout"},
      {"schedule run " + good + " --engine zmq --processes", "--processes"},
      {"schedule run " + four + " --topology ring:5", "\"nodes\" is 4, but ring:5 has 5 nodes"},
      {"schedule run " + good + " --topology nosuch:3", "nosuch:3"},
      {"schedule run " + good + " --trace /nonexistent/dir/t.jsonl", "/nonexistent/dir/t.jsonl"},
      {"schedule export --algorithm star-reduce --topology star:4 -o -", "star-reduce"},
      {"schedule export --algorithm ring --topology star:4 -o -", "star:4"},
      {"schedule export --algorithm star-allreduce --topology star:4", "-o FILE"},
      {"schedule export --algorithm bfs-tree --topology ring:4 --root 9 -o -", "--root 9"},
      {"schedule export --algorithm bfs-tree --topology ring:4 --collective gatherall -o -", "gatherall"},
      {"schedule export --algorithm bruck --topology ring:4 -o -", "--algorithm bruck: bruck runs on complete graphs"},
      {"schedule export --algorithm ring --topology ring:4 --collective alltoall -o -", "--collective alltoall"},
      {"schedule run " + good + " --costs topology --latency -1", "--latency -1"},
      {"schedule run " + good + " --costs topology --bandwidth 0", "--bandwidth 0"},
      {"schedule run " + good + " --latency 1", "--latency"},
  };
  for (const auto& [args, fragment] : cases) {
    const auto r = run_starnet(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(fragment)) << args;
  }
}

TEST(ScheduleCommand, TheDocsPythonGeneratorWritesARingAllReduceThatVerifies) {
  if (std::system("command -v python3 > /dev/null 2>&1") != 0) GTEST_SKIP() << "python3 is absent: the generator is not run";
  const auto file = (scratch_dir() / "ring8.json").string();
  const std::string generate = "python3 " + std::string(STARNET_SOURCE_DIR) +
                               "/docs/examples/schedules/ring_allreduce.py 8 > " + file;
  ASSERT_EQ(std::system(generate.c_str()), 0);
  const auto r = run_starnet("schedule run " + file + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["steps"], 14);  // 2(N − 1)
  EXPECT_EQ(r.json()["chunks_checked"], 64);
}

TEST(ScheduleCommand, WhatIfAddsTheUsersScheduleAsARowWhereItFits) {
  const auto file = (scratch_dir() / "s4.json").string();
  ASSERT_EQ(run_starnet("schedule export --algorithm star-allreduce --topology star:4 -o " + file).exit_code, 0);
  const auto r = run_starnet("whatif --collective allreduce --topologies star:4,hypercube:3 --schedule " + file + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int rows = 0;
  const auto doc = r.json();
  for (const auto& row : doc["rows"]) {
    if (row["algorithm"] != "schedule") continue;
    ++rows;
    if (row["topology"] == "star:4") {
      EXPECT_EQ(row["steps"], 6);
      EXPECT_EQ(row["verified"], true);
      EXPECT_EQ(row["variant"], "s4.json");
    } else {
      EXPECT_EQ(row["applicable"], false);
      EXPECT_THAT(row["reason"].get<std::string>(), HasSubstr("is for 24 nodes"));
    }
  }
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(run_starnet("whatif --topologies star:4 --schedule /nonexistent.json").exit_code, 2);
}

TEST(ScheduleCommand, AFullDiskOnStandardOutputIsAnErrorNotASilentSuccess) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "/dev/full is absent";
  auto r = run_starnet("schedule run " + example("allreduce") + " > /dev/full");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.err, HasSubstr("standard output: writing failed"));
  r = run_starnet("schedule export --algorithm star-allreduce --topology star:3 -o - > /dev/full");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.err, HasSubstr("standard output: writing failed"));
}

}  // namespace
}  // namespace starnet::tools::testing
