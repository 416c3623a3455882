// Schedules as library calls (api/schedule.hpp): loading (paths inside a file relative to it),
// running (a failure is a result with its problem), the default checking, exporting.
#include "starnet_test_paths.hpp"
#include "../core/expect_error.hpp"

#include <starnet/api/schedule.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace starnet::api {
namespace {

namespace fs = std::filesystem;
const std::string EXAMPLES = std::string(STARNET_SOURCE_DIR) + "/docs/examples/schedules/";

/// A fresh folder under the temporary directory, removed at the end of the test.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("starnet_api_" + std::to_string(::getpid()) + "_" +
                                               ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  [[nodiscard]] std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

TEST(RunSchedule, EveryExampleRunsVerified) {
  for (const char* name : {"allreduce", "reduce", "broadcast", "allgather", "gather", "scatter", "reducescatter",
                           "alltoall", "allreduce_programs"}) {
    ScheduleRunRequest request;
    request.schedule = load_schedule(EXAMPLES + name + ".json");
    const auto r = run_schedule(request);
    EXPECT_TRUE(r.verified) << name << ": " << r.problem;
    EXPECT_EQ(r.to_json().at("verified"), true) << name;
  }
}

/// The ring all-gather on ring:4, transfer by transfer: node v passes block v − s to v + 1 at step s.
ScheduleDraft ring_allgather_draft() {
  ScheduleDraft d;
  d.collective = Collective::ALLGATHER;
  d.topology = "ring:4";
  d.chunks = 4;
  for (std::uint64_t step = 0; step < 3; ++step) {
    for (std::uint64_t v = 0; v < 4; ++v) {
      const std::uint64_t block = (v + 4 - step) % 4;
      d.transfers.push_back({step, v, (v + 1) % 4, {{block, block, std::nullopt}}, ItemOp::COPY});
    }
  }
  return d;
}

TEST(BuildSchedule, ADraftIsTheScheduleItsFileWouldBe) {
  ScheduleDraft d = ring_allgather_draft();
  ScheduleRunRequest request;
  request.schedule = build_schedule(d, "a draft");
  const auto r = run_schedule(request);
  EXPECT_TRUE(r.verified) << r.problem;
  EXPECT_EQ(r.to_json().at("steps"), 3);
  const auto again = parse_schedule(schedule_json(request.schedule), "its JSON");
  EXPECT_EQ(schedule_json(again), schedule_json(request.schedule));
  // A node the topology lacks is named with its step, as in a file.
  d.transfers.push_back({3, std::string("nowhere"), std::uint64_t{0}, {{0, 0, ItemOp::REDUCE}}, ItemOp::COPY});
  EXPECT_ERROR(ScheduleError, (void)build_schedule(d, "a draft"), "a draft", "nowhere");
  EXPECT_ERROR(UsageError, (void)parse_item_op("merge", "op"), "op merge", "copy or reduce");
}

TEST(RunSchedule, ASendAlongAMissingLinkIsAResultNamingIt) {
  const TempDir dir;
  const auto path = dir.write("bad.json", R"({"format": "starnet-schedule", "version": 1, "collective": "allgather",
    "chunks": 4, "topology": "ring:4", "steps": [[{"f": 0, "t": 2, "c": [0]}]]})");
  ScheduleRunRequest request;
  request.schedule = load_schedule(path);
  const auto r = run_schedule(request);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.problem.find("link"), std::string::npos) << r.problem;
  const auto j = r.to_json();
  EXPECT_EQ(j.at("verified"), false);
  EXPECT_EQ(j.at("problem"), r.problem);
  EXPECT_TRUE(j.at("steps").is_null());
}

/// The link report's line of @p link, or null.
const LinkLoad* load_of(const ScheduleRunResult& r, const std::string& link) {
  const auto it = std::find_if(r.link_loads.begin(), r.link_loads.end(), [&](const LinkLoad& l) { return l.link == link; });
  return it == r.link_loads.end() ? nullptr : &*it;
}

TEST(RunSchedule, TheLinkReportCountsEachLinkOfARingAllGather) {
  // Node v passes block v − s to v + 1 at step s: each link v->v+1 carries 3 one-chunk messages,
  // the reverse links nothing.
  ScheduleDraft d = ring_allgather_draft();
  ScheduleRunRequest request;
  request.schedule = build_schedule(d, "a draft");
  request.link_report = true;
  const auto r = run_schedule(request);
  ASSERT_TRUE(r.verified) << r.problem;
  ASSERT_EQ(r.link_loads.size(), 4U);
  for (int v = 0; v < 4; ++v) {
    const auto* l = load_of(r, fmt::format("{}->{}", v, (v + 1) % 4));
    ASSERT_NE(l, nullptr) << " v=" << v;
    EXPECT_EQ(l->messages, 3U) << " v=" << v;
    EXPECT_EQ(l->packets, Rational(3)) << " v=" << v;
    EXPECT_EQ(l->busy, Rational(3)) << " v=" << v << ": a step each";
    EXPECT_EQ(load_of(r, fmt::format("{}->{}", (v + 1) % 4, v)), nullptr) << " v=" << v;
  }
  // The trace was kept only to be read: not asked for, not handed out.
  EXPECT_TRUE(r.run.run.trace.empty());
  const auto j = r.to_json();
  ASSERT_EQ(j.at("link_report").size(), 4U);
  EXPECT_EQ(j["link_report"][0].at("algorithm"), "schedule");
  EXPECT_EQ(j["link_report"][0].at("messages"), 3);
  EXPECT_FALSE(run_schedule(ScheduleRunRequest{.schedule = request.schedule}).to_json().contains("link_report"));
}

TEST(RunSchedule, TheLinkReportCountsTheLinkBetweenTwoSwitches) {
  // Hosts a, b on switch s, hosts c, d on switch t, s -- t the one link between them. A broadcast
  // of 2 chunks from a: a->s, s->t, then s->b and t->c, then t->d. The bridge s->t carries one
  // message of 2 chunks, t->s nothing; timed with α = 1, β = 2 and chunks of 8 units, each
  // message holds its link 1 + 2·8/2 = 9.
  const TempDir dir;
  const auto dot = dir.write("two_switches.dot", "graph { a -- s; b -- s; s -- t; t -- c; t -- d; }\n");
  ScheduleDraft d;
  d.collective = Collective::BROADCAST;
  d.topology = dot;
  d.chunks = 2;
  d.root = std::string("a");
  const std::vector<std::tuple<std::uint64_t, std::string, std::string>> sends = {
      {0, "a", "s"}, {1, "s", "t"}, {2, "s", "b"}, {2, "t", "c"}, {3, "t", "d"}};
  for (const auto& [step, from, to] : sends) {
    d.transfers.push_back({step, from, to, {{0, 0, std::nullopt}, {1, 1, std::nullopt}}, ItemOp::COPY});
  }
  ScheduleRunRequest request;
  request.schedule = build_schedule(d, "a draft");
  request.link_report = true;
  request.costs = RunCosts::TOPOLOGY;
  request.latency = Rational(1);
  request.bandwidth = Rational(2);
  request.chunk_size = Rational(8);
  const auto r = run_schedule(request);
  ASSERT_TRUE(r.verified) << r.problem;
  ASSERT_EQ(r.link_loads.size(), sends.size());
  const auto* bridge = load_of(r, "s->t");
  ASSERT_NE(bridge, nullptr);
  EXPECT_EQ(bridge->messages, 1U);
  EXPECT_EQ(bridge->packets, Rational(2));
  EXPECT_EQ(bridge->busy, Rational(9));
  EXPECT_EQ(load_of(r, "t->s"), nullptr);
  const auto csv = r.link_report_csv();
  EXPECT_NE(csv.find(fmt::format("0,{},schedule,1,full,s->t,1,2,2,16,16,9,9\n", dot)), std::string::npos) << csv;
}

TEST(LoadSchedule, ATopologyFileNamedByTheScheduleIsFoundBesideIt) {
  const TempDir dir;
  (void)dir.write("pair.dot", "graph { a -- b; }\n");
  fs::create_directories(dir.path / "sub");
  std::ofstream(dir.path / "sub" / "s.json")
      << R"({"format": "starnet-schedule", "version": 1, "collective": "allgather", "chunks": 2,
            "topology": "../pair.dot", "steps": [[{"f": 0, "t": 1, "c": [0]}, {"f": 1, "t": 0, "c": [1]}]]})";
  const auto l = load_schedule((dir.path / "sub" / "s.json").string());
  EXPECT_EQ(l.topology->num_nodes(), 2U);
  ScheduleRunRequest request;
  request.schedule = l;
  EXPECT_TRUE(run_schedule(request).verified);
  std::ofstream(dir.path / "sub" / "missing.json")
      << R"({"format": "starnet-schedule", "version": 1, "collective": "allgather", "chunks": 2,
            "topology": "nowhere.dot", "steps": []})";
  EXPECT_ERROR(TopologyError, load_schedule((dir.path / "sub" / "missing.json").string()), "missing.json",
               "names the topology", "nowhere.dot");
}

TEST(ExportSchedule, WritesATopologyFileRelativeToTheOutput) {
  const TempDir dir;
  const auto dot = dir.write("sq.dot", "graph { a -- b; b -- c; c -- d; d -- a; }\n");
  ExportRequest request;
  request.algorithm = "bfs-tree";
  request.topology = dot;
  const auto l = export_schedule(request);
  fs::create_directories(dir.path / "out");
  const auto out = (dir.path / "out" / "tree.json").string();
  const auto text = schedule_json(l, "test", out);
  EXPECT_NE(text.find("\"../sq.dot\""), std::string::npos) << text;
  std::ofstream(out) << text;
  ScheduleRunRequest run;
  run.schedule = load_schedule(out);
  EXPECT_TRUE(run_schedule(run).verified);
}

TEST(ExportSchedule, APlatformBuiltInMemoryIsSavedBesideItsScheduleAndLoadsBack) {
  // A 5-cycle of cost-2 links named like a spec: the name lends the export nothing.
  auto p = std::make_shared<topology::Platform>("ring:5", /*directed=*/false);
  for (const auto* name : {"e", "d", "c", "b", "a"}) p->add_node({name});
  for (topology::NodeId v = 0; v < 5; ++v) p->add_link(v, (v + 1) % 5, {Rational(2)});
  ExportRequest request;
  request.topology = TopologyRef::of(p);
  const auto l = export_schedule(request);
  ASSERT_NE(l.in_memory, nullptr);
  EXPECT_TRUE(same_topology(l.topology_ref(), TopologyRef::of(p)));
  const TempDir dir;
  const auto path = (dir.path / "c5.json").string();
  const auto files = schedule_files(l, path, "test");
  ASSERT_EQ(files.size(), 2U);
  EXPECT_EQ(files[0].path, (dir.path / "c5.topology.graphml").string());
  EXPECT_EQ(files[1].path, path);
  EXPECT_NE(files[1].text.find("\"c5.topology.graphml\""), std::string::npos) << files[1].text;
  for (const auto& f : files) std::ofstream(f.path) << f.text;
  const auto back = load_schedule(path);
  EXPECT_EQ(back.topology->node_name(0), "e") << "node order kept";
  EXPECT_TRUE(same_topology(TopologyRef(back.spec), TopologyRef::of(p)));
  ScheduleRunRequest run;
  run.schedule = back;
  run.costs = RunCosts::TOPOLOGY;
  const auto r = run_schedule(run);
  EXPECT_TRUE(r.verified) << r.problem;
  EXPECT_ERROR(UsageError, (void)schedule_files(l, "-"), "ring:5", "built in memory");
}

TEST(DefaultChecking, StrictForStepsInUnitTimeArbitratedOtherwise) {
  const auto stepped = load_schedule(EXAMPLES + "allreduce.json");
  const auto programs = load_schedule(EXAMPLES + "allreduce_programs.json");
  EXPECT_EQ(default_checking(*stepped.schedule, false), emulator::Checking::STRICT);
  EXPECT_EQ(default_checking(*stepped.schedule, true), emulator::Checking::ARBITRATED);
  EXPECT_EQ(default_checking(*programs.schedule, false), emulator::Checking::ARBITRATED);
}

TEST(RunSchedule, RefusesWorkerProcessesAndChunkSizesOfUnitRuns) {
  ScheduleRunRequest request;
  request.schedule = load_schedule(EXAMPLES + "allreduce.json");
  request.engine.kind = EngineKind::ZMQ;
  request.engine.processes = true;
  EXPECT_ERROR(UsageError, run_schedule(request), "processes", "threads");
  request.engine = {};
  request.chunk_size = 3;
  EXPECT_ERROR(UsageError, run_schedule(request), "chunk_size 3", "timed");
}

TEST(ParseBuiltin, NamesTheChoices) {
  EXPECT_EQ(parse_builtin("ring"), algorithms::collectives::Algorithm::RING);
  EXPECT_EQ(parse_builtin("bruck"), algorithms::collectives::Algorithm::BRUCK);
  EXPECT_ERROR(UsageError, parse_builtin("bogus"), "algorithm bogus", "one-packet", "bfs-tree", "star-allreduce");
}

TEST(ExportSchedule, TakesTheFirstCollectiveTheAlgorithmComputesAndNamesTheOthers) {
  ExportRequest request;
  request.algorithm = "one-packet";
  request.topology = "star:3";
  EXPECT_EQ(export_schedule(request).schedule->rules().kind(), Collective::ALLTOALL);
  request.algorithm = "star-broadcast";
  EXPECT_EQ(export_schedule(request).schedule->rules().kind(), Collective::ALLGATHER);
  request.algorithm = "ring";
  request.topology = "ring:4";
  request.collective = Collective::ALLTOALL;
  EXPECT_ERROR(UsageError, export_schedule(request), "collective alltoall", "ring computes",
               "on ring:4 it computes allreduce, allgather, reducescatter");
}

}  // namespace
}  // namespace starnet::api
