// `starnet whatif`, run as a user runs it.
#include "../core/scratch_dir.hpp"
#include "starnet_test_paths.hpp"
#include "cli_runner.hpp"

#include <starnet/core/rational.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

std::filesystem::path whatif_scratch(const std::string& name) {
  return starnet::testing::scratch_dir("starnet_whatif_cli") / name;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// "7/2" or "7" as a double.
double fraction(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::stod(text);
  return std::stod(text.substr(0, slash)) / std::stod(text.substr(slash + 1));
}

TEST(WhatIfCommand, TheIssuesStudyIsVerifiedRowByRowWithBoundsBelowTheMeasurements) {
  const auto r = run_starnet(
      "whatif --collective allreduce --topologies star:5,hypercube:7,debruijn:7,torus:11x11 --ports 1,2 "
      "--duplex full,half --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["verified"], true);
  // star: star + bfs-tree; hypercube: recursive-doubling + bfs-tree; debruijn: bfs-tree; torus: ring + bfs-tree.
  ASSERT_EQ(j["rows"].size(), 4U * (2 + 2 + 1 + 2));
  for (const auto& row : j["rows"]) {
    const auto where = row["topology"].get<std::string>() + " " + row["algorithm"].get<std::string>() + " " +
                       std::to_string(row["ports"].get<int>()) + " " + row["duplex"].get<std::string>();
    for (const char* key : {"topology", "algorithm", "ports", "duplex", "faults", "nodes", "links", "diameter", "steps",
                            "messages", "lower_bound", "ratio", "verified"}) {
      EXPECT_TRUE(row.contains(key)) << where << " lacks " << key;
    }
    if (row["applicable"] == false) {
      EXPECT_EQ(row["algorithm"], "star") << where;
      EXPECT_EQ(row["ports"], 1) << where;
      EXPECT_EQ(row["duplex"], "half") << where;
      continue;
    }
    EXPECT_EQ(row["verified"], true) << where;
    const auto steps = row["steps"].get<std::uint64_t>();
    const auto bound = row["lower_bound"].get<std::uint64_t>();
    EXPECT_LE(bound, steps) << where;
    EXPECT_DOUBLE_EQ(row["ratio"].get<double>(), static_cast<double>(steps) / static_cast<double>(bound)) << where;
    if (row["algorithm"] == "star") {
      EXPECT_EQ(steps, 10U) << where;  // n(n−1)/2 on S_5
      EXPECT_EQ(row["messages"], 1200) << where;
    }
    if (row["algorithm"] == "recursive-doubling") {
      EXPECT_EQ(steps, row["ports"] == 1 && row["duplex"] == "half" ? 14U : 7U) << where;  // d on Q_7
    }
  }
}

TEST(WhatIfCommand, FaultsMakeTheStarAllReduceNotApplicableAndTheTreeRunsOnWhatIsLeft) {
  const auto r = run_starnet("whatif --topologies star:5 --fail-links 0-1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = r.json()["rows"];
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0]["reason"], "not applicable: link 12345–21345 used at step 0 is down");
  EXPECT_EQ(rows[0]["verified"], nullptr);
  EXPECT_EQ(rows[1]["verified"], true);
  EXPECT_EQ(rows[1]["links"], 239);
  const auto random = run_starnet(
      "whatif --topologies star:5,hypercube:7,torus:11x11 --fail-random 0,0.01,0.05 --seed 5 --ports 1,2 --json");
  const auto random_json = random.json();
  // A row verified is one whose collective reached every alive node.
  bool cut = false;
  for (const auto& row : random_json["rows"]) {
    if (row["applicable"] == true) {
      EXPECT_EQ(row["verified"], row["connected"]) << row.dump();
      cut = cut || row["connected"] == false;
    }
  }
  EXPECT_EQ(random.exit_code, cut ? 1 : 0) << random.err;
}

TEST(WhatIfCommand, ADisconnectedPlatformIsReportedAsSuchAndNotVerified) {
  const auto r = run_starnet("whatif --topologies ring:8 --fail-links 2-3,6-7");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("not applicable: link 2–3 used at step 0 is down"));
  EXPECT_THAT(r.out, HasSubstr("disconnected, root 0 reaches 4 of 8 alive nodes"));
  EXPECT_THAT(r.out, HasSubstr("bfs-tree       4       2      3   1.33         6  NO"));
  EXPECT_THAT(r.out, HasSubstr("reached 4 of the 8 alive nodes: the faults (2 links) cut root 0 off from the other 4"));
}

TEST(WhatIfCommand, ARunThatReachesOneOfTheAliveNodesIsNotVerified) {
  // Each was "verified, yes", exit 0: half of star:5's links down, the root's five neighbours of a
  // hypercube down, a DOT of two parts.
  const auto dot = whatif_scratch("two_parts.dot");
  std::ofstream(dot) << "graph { a -- b; c -- d; }\n";
  const std::pair<std::string, std::string> cases[] = {
      {"star:5 --fail-random 0.5", "reached 1 of the 120 alive nodes: the faults (p=0.5 (118 links)) cut root 12345 off from the other 119"},
      {"hypercube:5 --fail-nodes 1,2,4,8,16", "reached 1 of the 27 alive nodes: the faults (5 nodes) cut root 00000 off from the other 26"},
      {dot.string(), "reached 2 of the 4 alive nodes: the topology is disconnected: no path leads from root a to the other 2"}};
  for (const auto& [args, reason] : cases) {
    const auto r = run_starnet("whatif --json --topologies " + args);
    ASSERT_EQ(r.exit_code, 1) << args << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["verified"], false) << args;
    const auto& tree = j["rows"].back();
    EXPECT_EQ(tree["algorithm"], "bfs-tree") << args;
    EXPECT_EQ(tree["verified"], false) << args;
    EXPECT_EQ(tree["reason"], reason) << args;
  }
}

TEST(WhatIfCommand, AStudyInWhichNoRowRanExitsFourSayingSo) {
  const auto dot = whatif_scratch("one_way.dot");
  std::ofstream(dot) << "digraph { a -> b; b -> c; c -> a; }\n";
  const auto r = run_starnet("whatif --json --topologies " + dot.string());
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no row ran: every algorithm was not applicable"));
  const auto j = r.json();
  EXPECT_EQ(j["rows_run"], 0);
  EXPECT_EQ(j["verified"], false);
  EXPECT_THAT(j["rows"][0]["reason"].get<std::string>(), HasSubstr("has no reverse"));
}

TEST(WhatIfCommand, RandomCostsGiveExactTimedMakespansAboveTheTimedBound) {
  const auto r =
      run_starnet("whatif --topologies hypercube:5,torus:5x5,tiers:3 --costs random --seed 3 --ports 1,2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto json = r.json();
  for (const auto& row : json["rows"]) {
    EXPECT_EQ(row["time_mode"], "timed") << row.dump();
    EXPECT_EQ(row["steps"], nullptr);
    EXPECT_EQ(row["verified"], true) << row.dump();
    EXPECT_LE(fraction(exact(row, "lower_bound_time")), fraction(exact(row, "makespan"))) << row.dump();
  }
}

TEST(WhatIfCommand, WritesCsvAndAPlotThroughGnuplot) {
  const auto csv = whatif_scratch("rows.csv");
  const auto svg = whatif_scratch("study.svg");
  const auto png = whatif_scratch("study.png");
  const auto r = run_starnet("whatif --topologies star:4,hypercube:4,torus:4x4 --ports 1,2 --fail-random 0,0.1 --csv " +
                             csv.string() + " --plot " + svg.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto text = slurp(csv);
  EXPECT_THAT(text.substr(0, 40), HasSubstr("topology,algorithm,variant,ports,duplex"));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 3 * 2 * 2 * 2);  // header + rows
  // Every line has as many fields as the header, commas inside quoted fields (node names such as
  // "(0,1)" in reasons) included.
  std::istringstream lines(text);
  std::string line;
  std::size_t header_fields = 0;
  while (std::getline(lines, line)) {
    std::size_t fields = 1;
    bool quoted = false;
    for (const char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) ++fields;
    }
    if (header_fields == 0) header_fields = fields;
    EXPECT_EQ(fields, header_fields) << line;
  }
  const auto figure = slurp(svg);
  EXPECT_THAT(figure, HasSubstr("<svg"));
  EXPECT_THAT(figure, HasSubstr("lower bound"));
  EXPECT_THAT(figure, HasSubstr("recursive-doubling"));
  const auto p = run_starnet("whatif --topologies ring:6 --plot " + png.string());
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(slurp(png).substr(1, 3), "PNG");
  // Nothing half-written is left behind in the folder.
  for (const auto& entry : std::filesystem::directory_iterator(csv.parent_path())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  }
}

TEST(WhatIfCommand, TableMatchesTheStoredTranscript) {
  const auto r = run_starnet(
      "whatif --topologies star:4,hypercube:3,torus:3x3,mesh:2x3 --ports 1,2 --duplex full,half "
      "--fail-random 0,0.1 --seed 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, golden("whatif_table.txt", r.out));
}

/// What the catalogue gives each family (docs/collectives.md), the rows' algorithms in order.
const std::map<std::string, std::map<std::string, std::vector<std::string>>> CATALOGUE = {
    {"allreduce",
     {{"star:4", {"star", "bfs-tree"}},
      {"hypercube:3", {"recursive-doubling", "bfs-tree"}},
      {"ring:6", {"ring", "bfs-tree"}},
      {"complete:8", {"recursive-doubling", "ring", "bfs-tree"}},  // a complete graph's one ring too
      {"mesh:2x3", {"dimension-ordered", "bfs-tree"}}}},
    {"allgather",
     {{"star:4", {"star", "uniform", "bfs-tree"}},
      {"hypercube:3", {"recursive-doubling", "uniform", "bfs-tree"}},
      {"ring:6", {"ring", "uniform", "bfs-tree"}},
      {"complete:8", {"recursive-doubling", "ring", "bruck", "uniform", "bfs-tree"}},
      {"mesh:2x3", {"dimension-ordered", "bfs-tree"}},
      {"pancake:4", {"uniform", "bfs-tree"}}}},
    {"reducescatter",
     {{"star:4", {"star", "uniform", "bfs-tree"}},
      {"hypercube:3", {"recursive-halving", "uniform", "bfs-tree"}},
      {"ring:6", {"ring", "uniform", "bfs-tree"}},
      {"complete:8", {"recursive-halving", "ring", "bruck", "uniform", "bfs-tree"}},
      {"mesh:2x3", {"dimension-ordered", "bfs-tree"}},
      {"pancake:4", {"uniform", "bfs-tree"}}}},
    {"alltoall",
     {{"star:4", {"one-packet", "combining", "bfs-tree"}},
      {"hypercube:3", {"one-packet", "combining", "bfs-tree"}},
      {"ring:6", {"one-packet", "combining", "bfs-tree"}},
      {"complete:8", {"bruck", "one-packet", "combining", "bfs-tree"}},
      {"mesh:2x3", {"bfs-tree"}},
      {"bubblesort:4", {"one-packet", "combining", "bfs-tree"}},
      {"pancake:4", {"one-packet", "combining", "bfs-tree"}},
      {"transposition:4", {"one-packet", "combining", "bfs-tree"}}}},
    {"gather", {{"star:4", {"bfs-tree"}}, {"complete:8", {"bfs-tree"}}, {"mesh:2x3", {"bfs-tree"}}}},
    {"scatter", {{"star:4", {"bfs-tree"}}, {"complete:8", {"bfs-tree"}}, {"mesh:2x3", {"bfs-tree"}}}},
    {"reduce", {{"star:4", {"bfs-tree"}}, {"hypercube:3", {"bfs-tree"}}}},
    {"broadcast", {{"star:4", {"bfs-tree"}}, {"hypercube:3", {"bfs-tree"}}}}};

TEST(WhatIfCommand, EveryCollectiveRunsTheCataloguesAlgorithmsVerifiedWithVolumeAndBounds) {
  for (const auto& [collective, families] : CATALOGUE) {
    std::string specs;
    for (const auto& [spec, algorithms] : families) specs += (specs.empty() ? "" : ",") + spec;
    const auto r = run_starnet("whatif --collective " + collective + " --topologies " + specs + " --root 1 --json");
    ASSERT_EQ(r.exit_code, 0) << collective << "\n" << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["collective"], collective);
    std::map<std::string, std::vector<std::string>> seen;
    for (const auto& row : j["rows"]) {
      const auto where = collective + " " + row["topology"].get<std::string>() + " " + row["algorithm"].get<std::string>();
      seen[row["topology"]].push_back(row["algorithm"]);
      ASSERT_EQ(row["applicable"], true) << where << ": " << row["reason"];
      EXPECT_EQ(row["verified"], true) << where;
      EXPECT_LE(row["lower_bound"].get<std::uint64_t>(), row["steps"].get<std::uint64_t>()) << where;
      // bound_volume bounds what volume counts: the packets of the busiest sender.
      EXPECT_GE(static_cast<double>(row["volume"].get<std::uint64_t>()), fraction(exact(row, "bound_volume"))) << where;
      EXPECT_EQ(row["bound_status"].is_null(), collective != "alltoall") << where;
      // One bound gives both: it is reached exactly when the makespan meets it, the ratio then 1.
      const bool met = exact(row, "makespan") == exact(row, "lower_bound_time");
      EXPECT_EQ(row["bound_reached"], met) << where;
      EXPECT_EQ(exact(row, "ratio") == "1", met) << where;
    }
    for (const auto& [spec, algorithms] : families) EXPECT_EQ(seen[spec], algorithms) << collective << " " << spec;
  }
}

TEST(WhatIfCommand, TheOnePacketExchangeMeetsTheStatusAndCombiningTakesFewerSteps) {
  const auto r = run_starnet("whatif --collective alltoall --topologies star:5,hypercube:6,torus:4x4 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::map<std::string, std::uint64_t> status = {{"star:5", 442}, {"hypercube:6", 192}, {"torus:4x4", 32}};
  int one_packet = 0;
  const auto j = r.json();
  for (const auto& row : j["rows"]) {
    const auto spec = row["topology"].get<std::string>();
    EXPECT_EQ(row["bound_status"], status.at(spec)) << spec;
    if (row["algorithm"] == "one-packet") {
      EXPECT_EQ(row["steps"], status.at(spec)) << spec;
      EXPECT_EQ(row["volume"], status.at(spec)) << spec;
      // The total exchange's bound, as every row's (unit costs: the step bound L); s is its own model's.
      EXPECT_EQ(row["lower_bound"], row["bound_counting"].get<std::uint64_t>() >= row["bound_distance"].get<std::uint64_t>()
                                        ? row["bound_counting"]
                                        : row["bound_distance"])
          << spec;
      EXPECT_LT(row["lower_bound"].get<std::uint64_t>(), status.at(spec)) << spec;
      ++one_packet;
    }
    if (row["algorithm"] == "combining") {
      EXPECT_LT(row["steps"].get<std::uint64_t>(), status.at(spec)) << spec;
      EXPECT_GE(row["volume"].get<std::uint64_t>(), status.at(spec)) << spec;
    }
  }
  EXPECT_EQ(one_packet, 3);
}

TEST(WhatIfCommand, LatencyAndBandwidthPriceEveryRowExactly) {
  // α = 1 µs, β = 10^10 units/s, m = 1024: every step costs α + m·(its largest message)/β.
  const auto r = run_starnet(
      "whatif --collective alltoall --topologies hypercube:4 --latency 1e-6 --bandwidth 10000000000 --message-size "
      "1024 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  const Rational alpha(1, 1000000);
  const Rational per_packet = Rational(1024) / Rational(10000000000);
  EXPECT_EQ(exact(j, "latency"), alpha.to_string());
  EXPECT_EQ(exact(j, "bandwidth"), "10000000000");
  std::set<std::string> algorithms;
  for (const auto& row : j["rows"]) {
    algorithms.insert(row["algorithm"].get<std::string>());
    const auto steps = row["steps"].get<std::int64_t>();
    const auto volume = row["volume"].get<std::int64_t>();
    if (row["algorithm"] != "bfs-tree") {
      // Uniform: every message of a step has the same size, so the steps' largest add up to the volume.
      EXPECT_EQ(exact(row, "makespan"), (alpha * steps + per_packet * volume).to_string()) << row["algorithm"];
    }
    // α·L + m/β·max(L/m, s) for every row: L = 4 = ⌈log₂ 16⌉ = the diameter, s = 32.
    const Rational bound = alpha * 4 + per_packet * 32;
    EXPECT_EQ(exact(row, "lower_bound_time"), bound.to_string()) << row["algorithm"];
  }
  EXPECT_EQ(algorithms, (std::set<std::string>{"one-packet", "combining", "bfs-tree"}));
  // The table shows the times beside the steps.
  const auto text = run_starnet(
      "whatif --collective alltoall --topologies hypercube:4 --latency 1e-6 --bandwidth 1e10 --message-size 1024");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("α–β (latency 1e-6, bandwidth 1e10)"));
  EXPECT_THAT(text.out, HasSubstr("time"));
  // Combining meets the bound exactly, 1137/156250000.
  EXPECT_THAT(text.out, HasSubstr("combining       4      32  1137/156250000 ≈ 7.2768e-06  1137/156250000 ≈ 7.2768e-06   1.00"));
}

TEST(WhatIfCommand, TheAllReduceBoundOfAMebibyteVectorIsBelowTheToolsOwnReduceScatterAndAllGather) {
  // It was L·(α + M/β) = 0.0041983 s, twice what reduce-scatter then all-gather take.
  const std::string links = " --topologies hypercube:4 --latency 1e-6 --bandwidth 1e9 --json --message-size ";
  const auto fastest = [](const nlohmann::json& doc) {
    double best = 1e300;
    for (const auto& row : doc["rows"]) best = std::min(best, row["makespan"].get<double>());
    return best;
  };
  const auto all = run_starnet("whatif --collective allreduce" + links + "1048576");
  const auto rs = run_starnet("whatif --collective reducescatter" + links + "65536");
  const auto ag = run_starnet("whatif --collective allgather" + links + "65536");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  ASSERT_EQ(rs.exit_code, 0) << rs.err;
  ASSERT_EQ(ag.exit_code, 0) << ag.err;
  const double split = fastest(rs.json()) + fastest(ag.json());
  const auto document = all.json();  // a range-for over a temporary's member would outlive it
  for (const auto& row : document["rows"]) {
    // 4α + 2·15/16·M/β = 1e-6·4 + 1.048576e-3·30/16.
    EXPECT_EQ(exact(row, "lower_bound_time"), "12313/6250000") << row["algorithm"];
    EXPECT_LE(row["lower_bound_time"].get<double>(), split) << row["algorithm"];
  }
}

TEST(WhatIfCommand, ThePlotDrawsTheTimesTheTableRanksByAndMarksRowsThatDidNotRun) {
  // It drew steps (one-packet 442 the tallest) while the table ranked by time (bfs-tree the slowest).
  const auto svg = whatif_scratch("ranked.svg");
  const auto r = run_starnet("whatif --collective alltoall --topologies star:5 --latency 1e-6 --bandwidth 1e10 "
                             "--message-size 1024 --plot " + svg.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto script = slurp(whatif_scratch("ranked.gp"));
  EXPECT_THAT(script, HasSubstr("$bfs_tree << EOD\n2 0.0025739584\nEOD"));
  EXPECT_THAT(script, HasSubstr("$one_packet << EOD\n0 0.0004872608\nEOD"));
  EXPECT_THAT(script, HasSubstr("set ylabel 'time (α + m/β, in the unit α and 1/β are given in"));
  EXPECT_THAT(script, HasSubstr("set yrange [0:*]"));
  const auto half = whatif_scratch("marked.svg");
  const auto h = run_starnet("whatif --collective alltoall --topologies hypercube:8 --duplex full,half --plot " +
                             half.string());
  ASSERT_EQ(h.exit_code, 0) << h.err;
  const auto marked = slurp(whatif_scratch("marked.gp"));
  EXPECT_THAT(marked, HasSubstr("set logscale y"));      // 1,024 steps beside 8
  EXPECT_THAT(marked, HasSubstr("\"n/a bfs-tree\""));    // a tree all-to-all is built up to 128 nodes
  EXPECT_THAT(marked, HasSubstr("\"n/a one-packet\""));  // it breaks single-port half duplex
}

TEST(WhatIfCommand, ALinkOrNodeNamedTwiceCountsOnceInTheTextAsInTheJson) {
  // The text said "2 links" where the JSON said 1.
  const auto text = run_starnet("whatif --topologies ring:6 --fail-links 0-1,1-0 --fail-nodes 3,3");
  EXPECT_THAT(text.out, HasSubstr("1 link + 1 node"));
  const auto j = run_starnet("whatif --topologies ring:6 --fail-links 0-1,1-0 --fail-nodes 3,3 --json").json();
  EXPECT_EQ(j["rows"][0]["failed_links"], 1);
  EXPECT_EQ(j["rows"][0]["failed_nodes"], 1);
  EXPECT_EQ(j["rows"][0]["failed_link_list"], nlohmann::json::array({"0-1"}));
  EXPECT_EQ(j["rows"][0]["failed_node_list"], nlohmann::json::array({"3"}));
}

TEST(WhatIfCommand, RandomFaultsAreListedSoThatTheScenarioRunsAgainWithoutItsSeed) {
  const auto csv = whatif_scratch("random.csv");
  const auto random = run_starnet("whatif --topologies torus:4x4 --fail-random 0.3 --seed 9 --json --csv " + csv.string());
  const auto j = random.json();
  const auto& listed = j["rows"].back()["failed_link_list"];
  ASSERT_GT(listed.size(), 0U);
  std::string links;
  for (const auto& l : listed) {
    if (!links.empty()) links += ',';
    links += l.get<std::string>();
  }
  EXPECT_EQ(j["rows"].back()["failed_links"], listed.size());
  // The CSV cell is the same list, as --fail-links takes it.
  EXPECT_THAT(slurp(csv), HasSubstr("\"" + links + "\""));
  const auto again = run_starnet("whatif --topologies torus:4x4 --fail-links '" + links + "' --json");
  EXPECT_EQ(again.exit_code, random.exit_code);
  const auto k = again.json();
  ASSERT_EQ(k["rows"].size(), j["rows"].size());
  for (std::size_t i = 0; i < k["rows"].size(); ++i) {
    for (const char* key : {"applicable", "reason", "nodes", "links", "steps", "verified", "failed_link_list"}) {
      EXPECT_EQ(k["rows"][i].value(key, nlohmann::json()), j["rows"][i].value(key, nlohmann::json())) << i << " " << key;
    }
  }
}

TEST(WhatIfCommand, AListEntryGivenTwiceAddsNoRows) {
  const auto j = run_starnet("whatif --topologies ring:6,ring:6 --ports 1,1 --duplex full,full --fail-random 0,0 --json").json();
  EXPECT_EQ(j["rows"].size(), 2U);  // ring and bfs-tree, once
}

TEST(WhatIfCommand, HeadersSayWhatEachCollectiveDoesWithTheValuesAndJsonTheCostsThatRan) {
  // Every header said "sum of rank + 1 values", and JSON "costs": "unit" under --latency.
  EXPECT_THAT(run_starnet("whatif --collective alltoall --topologies ring:4").out,
              HasSubstr("whatif: alltoall (rank + 1 values moved whole, no operator), unit link costs"));
  EXPECT_THAT(run_starnet("whatif --collective broadcast --topologies ring:4 --root 2").out,
              HasSubstr("whatif: broadcast (root 2's value of the rank + 1 values, no operator)"));
  EXPECT_THAT(run_starnet("whatif --collective reducescatter --topologies ring:4 --op max").out,
              HasSubstr("whatif: reducescatter (max of rank + 1 values)"));
  EXPECT_EQ(run_starnet("whatif --topologies ring:4 --latency 1 --json").json()["costs"], "topology");
  EXPECT_EQ(run_starnet("whatif --topologies ring:4 --json").json()["costs"], "unit");
}

TEST(WhatIfCommand, WithoutGnuplotThePlotsScriptIsKept) {
  const auto svg = whatif_scratch("no_gnuplot.svg");
  const auto gp = whatif_scratch("no_gnuplot.gp");
  std::filesystem::remove(gp);
  const auto r = run_shell("env PATH=/nonexistent " + std::string(STARNET_EXE) + " whatif --topologies ring:4 --plot " +
                               svg.string(),
                           whatif_scratch("no_gnuplot.err"));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("the script is kept in \"" + gp.string() + "\""));
  EXPECT_THAT(slurp(gp), HasSubstr("$bfs_tree << EOD"));
  EXPECT_FALSE(std::filesystem::exists(svg));
}

TEST(WhatIfCommand, ASingleNodeTopologyTakesZeroStepsInEveryCollective) {
  // complete:1 stopped the whole study: `topology "" is not known` (allgather, alltoall, reducescatter).
  for (const char* c : {"allreduce", "reduce", "broadcast", "allgather", "reducescatter", "gather", "scatter",
                        "alltoall"}) {
    const auto r = run_starnet(std::string("whatif --json --topologies complete:1,ring:4 --collective ") + c);
    ASSERT_EQ(r.exit_code, 0) << c << ": " << r.err;
    std::size_t single = 0;
    const auto j = r.json();
    for (const auto& row : j["rows"]) {
      if (row["topology"] != "complete:1") continue;
      ++single;
      EXPECT_EQ(row["steps"], 0) << c << " " << row["algorithm"];
      EXPECT_EQ(row["verified"], true) << c << " " << row["algorithm"];
    }
    EXPECT_GT(single, 0U) << c;
  }
  const auto bruck = run_starnet("schedule export --algorithm bruck --topology complete:1 --collective alltoall -o " +
                                 whatif_scratch("bruck1.json").string());
  EXPECT_EQ(bruck.exit_code, 2);
  EXPECT_THAT(bruck.err, HasSubstr("bruck needs two nodes or more; complete:1 has 1: nothing to exchange"));
  const auto optimal = run_starnet("optimal --topology complete:1");
  EXPECT_EQ(optimal.exit_code, 0) << optimal.err;
  EXPECT_THAT(optimal.out, HasSubstr("optimum: 0 steps (proved: nothing to move;"));
}

TEST(WhatIfCommand, CompleteGraphsAndSimGridClustersGetRecursiveDoubling) {
  // complete:8 had only a BFS tree (14 steps) against a bound of 3.
  auto r = run_starnet("whatif --topologies complete:8 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = r.json()["rows"];
  ASSERT_EQ(rows.size(), 3U);  // recursive doubling, the ring in id order, a BFS tree
  EXPECT_EQ(rows[0]["algorithm"], "recursive-doubling");
  EXPECT_EQ(rows[0]["steps"], 3);
  EXPECT_EQ(rows[0]["bound_reached"], true);
  const std::filesystem::path cluster =
      std::filesystem::path(STARNET_SOURCE_DIR) / "../shared/data/simgrid/cluster_backbone.xml";
  if (!std::filesystem::exists(cluster)) GTEST_SKIP() << cluster << " is absent (SimGrid's examples are not ours)";
  r = run_starnet("whatif --topologies " + cluster.string() + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rows = r.json()["rows"];
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows[0]["algorithm"], "recursive-doubling");
  EXPECT_EQ(rows[0]["variant"], "folded, exchanges");
  EXPECT_EQ(rows[0]["steps"], 8);  // 100 folded onto 64: 1 + 6 + 1, against ⌈log₂ 100⌉ = 7 (the ring: 99, the tree: 198)
  EXPECT_EQ(rows[0]["lower_bound"], 7);
  EXPECT_EQ(rows[1]["algorithm"], "ring");
  EXPECT_EQ(rows[1]["steps"], 99);
  EXPECT_EQ(rows[2]["steps"], 198);
}

TEST(WhatIfCommand, ReduceAndBroadcastRunTheTreeFromTheRoot) {
  for (const char* c : {"reduce", "broadcast"}) {
    const auto r =
        run_starnet(std::string("whatif --collective ") + c + " --topologies star:5,torus:5x5 --root 3 --json");
    ASSERT_EQ(r.exit_code, 0) << c << r.err;
    const auto rows = r.json()["rows"];
    ASSERT_EQ(rows.size(), 2U) << c;
    for (const auto& row : rows) {
      EXPECT_EQ(row["algorithm"], "bfs-tree") << c;
      EXPECT_EQ(row["verified"], true) << c;
    }
    EXPECT_EQ(rows[1]["root"], "(0,3)") << c;  // index 3 of torus:5x5
  }
}

TEST(WhatIfCommand, ARowThatIsNotVerifiedSaysWhy) {
  // the table marks the row NO, a note says why.
  const auto file = whatif_scratch("broken.json");
  // An all-reduce on two nodes whose result never reaches node 1; the file names no topology.
  std::ofstream(file) << R"({"format":"starnet-schedule","version":1,"collective":"allreduce","chunks":1,"nodes":2,)"
                         R"("steps":[[{"f":1,"t":0,"c":[0],"op":"reduce"}]]})";
  const auto r = run_starnet("whatif --topologies complete:2,ring:3 --schedule " + file.string());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("complete:2 schedule (1 full, faults none) NOT verified: node 1 ends with"));
  EXPECT_THAT(r.out, HasSubstr("not applicable: broken.json is for 2 nodes"));
  EXPECT_THAT(r.out, HasSubstr("1 NOT verified"));
}

TEST(WhatIfCommand, BadInputIsExitTwoNamingTheInput) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"whatif --collective scan --topologies star:4", "--collective scan"},
      {"whatif --collective alltoall --topologies star:4 --latency -1", "--latency -1"},
      {"whatif --collective alltoall --topologies star:4 --bandwidth 0", "--bandwidth 0"},
      {"whatif --collective alltoall --topologies star:4 --bandwidth 1/0", "--bandwidth 1/0"},
      {"whatif --collective alltoall --topologies star:4 --latency 1e-99", "--latency 1e-99: exponent -99 outside -18..18"},
      {"whatif --topologies star:4 --costs random --latency 1", "--latency 1"},
      {"whatif --topologies star:4,cube:7", "cube:7"},
      {"whatif --topologies hypercube:7 --fail-links 3-17", "--fail-links 3-17"},
      {"whatif --topologies hypercube:7 --fail-nodes 9999", "--fail-nodes 9999"},
      {"whatif --topologies star:4 --ports 0", "--ports 0"},
      {"whatif --topologies star:4 --ports 1,x", "--ports x: expected an integer in 1..1024"},
      {"whatif --topologies star:4 --duplex quarter", "--duplex quarter"},
      {"whatif --topologies star:4 --fail-random 2", "--fail-random 2"},
      {"whatif --topologies star:4 --fail-random often", "--fail-random often: expected a finite number"},
      {"whatif --topologies star:4 --costs free", "--costs free: expected unit, topology or random"},
      {"whatif --topologies star:4 --plot study.pdf", "--plot: output file \"study.pdf\""},
      {"whatif --topologies star:4 --root 99", "--root 99"},
      {"whatif --collective reduce --topologies tiers:1 --root wan0", "--root wan0: node wan0 of tiers:1 is a router"},
      {"whatif --topologies star:4 --op avg", "--op avg"},
      {"whatif --topologies star:4 --csv /nonexistent-dir/rows.csv", "/nonexistent-dir/rows.csv"},
      {"whatif", "--topologies: no topology given"}};
  for (const auto& [args, needle] : cases) {
    const auto r = run_starnet(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(needle)) << args;
    EXPECT_TRUE(r.out.empty()) << args;
  }
}

TEST(WhatIfCommand, ReportsItsWallTime) {
  const auto r = run_starnet("whatif --topologies star:5,hypercube:10 --ports 1,2 --fail-random 0,0.01 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(r.json()["wall_seconds"].get<double>(), 0.0);
  const auto json = r.json();
  for (const auto& row : json["rows"]) {
    if (row["applicable"] == true) {
      EXPECT_GE(row["wall_seconds"].get<double>(), 0.0);
    }
  }
}

TEST(WhatIfCommand, HelpListsEveryOption) {
  const auto r = run_starnet("whatif --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* option :
       {"--collective", "--topologies", "--ports", "--duplex", "--costs", "--seed", "--fail-links", "--fail-nodes",
        "--fail-random", "--root", "--op", "--values", "--json", "--csv", "--plot"}) {
    EXPECT_THAT(r.out, HasSubstr(option)) << option;
  }
}

TEST(WhatIfCommand, HelpGivesTheTopologySpecsOfTopo) {
  // One table of specs for both commands: tori and meshes of any dimension, the router families.
  const auto whatif = run_starnet("whatif --help").out;
  const auto topo = run_starnet("topo info --help").out;
  for (const char* form : {"torus:AxBx...", "mesh:AxBx...", "fattree:K", "dragonfly:A:P:H", "tiers:SEED", "FILE.xml"}) {
    EXPECT_THAT(whatif, HasSubstr(form)) << form;
    EXPECT_THAT(topo, HasSubstr(form)) << form;
  }
  EXPECT_THAT(whatif, HasSubstr("torus:AxBxC"));
  EXPECT_THAT(whatif, ::testing::Not(HasSubstr("torus:AxB,")));
}

TEST(WhatIfCommand, OnAFatTreeTheProcessorsTakePartAndRoutersOnlyForward) {
  // The relay model (switches forward hop by hop under the port model); crossbars below.
  const std::string relays = " --forwarding store-and-forward";
  const auto r = run_starnet("whatif --topologies fattree:4,dragonfly:2:2:1 --ports 1,2 --duplex full,half --json" + relays);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = r.json()["rows"];
  ASSERT_EQ(rows.size(), 8U);
  for (const auto& row : rows) {
    const auto where = row["topology"].get<std::string>() + " " + row["variant"].get<std::string>();
    EXPECT_TRUE(row["verified"].get<bool>()) << where;
    EXPECT_THAT(row["variant"].get<std::string>(), HasSubstr("routed")) << where;
    EXPECT_EQ(row["processors"], row["topology"] == "fattree:4" ? 16 : 12) << where;
    EXPECT_EQ(row["alive_processors"], row["processors"]) << where;
  }
  EXPECT_THAT(run_starnet("whatif --topologies fattree:4" + relays).out,
              HasSubstr("note: fattree:4: 16 of the 36 nodes are processors, among which the collective runs"));
  const auto gather = run_starnet("whatif --collective allgather --topologies fattree:4 --json" + relays);
  ASSERT_EQ(gather.exit_code, 0) << gather.err;
  EXPECT_EQ(gather.json()["rows"][0]["processors"], 16);
  EXPECT_TRUE(gather.json()["rows"][0]["verified"].get<bool>());
  const auto exchange = run_starnet("whatif --collective alltoall --topologies dragonfly:4:4:2 --json" + relays);
  EXPECT_EQ(exchange.exit_code, 4) << exchange.err;  // no row ran
  EXPECT_THAT(exchange.json()["rows"][0]["reason"].get<std::string>(), HasSubstr("144 processors"));
}

/// One row of the matched-size comparison of docs/topology.md and docs/whatif.md at about 120
/// processors: the numbers those tables print, from the commands they give.
struct MatchedRow {
  std::string spec;
  long processors, nodes, degree_min, degree_max, diameter;
  std::string average_distance;
  long links, allreduce_steps;
  long alltoall_steps;  // 0: no built-in total exchange applies (the tree's is built up to 128 nodes, or
                        // 128 processors where routers only forward)
  std::string small, large;  // the all-reduce's best makespan at 8 bytes and 1 MiB, seconds
};

/// The best verified value of @p key (exact) per topology.
std::map<std::string, Rational> best_of(const nlohmann::json& rows, const std::string& key) {
  std::map<std::string, Rational> best;
  for (const auto& r : rows) {
    if (!r["applicable"].get<bool>() || !r["verified"].get<bool>() || r[key].is_null()) continue;
    const auto exact = r.contains(key + "_exact") ? r[key + "_exact"].get<std::string>() : r[key].dump();
    const Rational v = Rational::parse(exact, key);
    const auto t = r["topology"].get<std::string>();
    if (!best.contains(t) || v < best.at(t)) best.insert_or_assign(t, v);
  }
  return best;
}

TEST(WhatIfCommand, TheMatchedSizeComparisonAt120ProcessorsIsTheDocumentedOne) {
  const std::string specs = "star:5,pancake:5,bubblesort:5,nkstar:6:3,arrangement:6:3,torus:4x5x6,hypercube:7,fattree:8,"
                            "dragonfly:4:3:2";
  const std::vector<MatchedRow> table = {
      {"star:5", 120, 120, 4, 4, 6, "26/7", 240, 10, 9, "1251/125000000", "66161/62500000"},
      {"pancake:5", 120, 120, 4, 4, 5, "25/7", 240, 20, 8, "1251/62500000", "66161/31250000"},
      {"bubblesort:5", 120, 120, 4, 4, 10, "600/119", 240, 20, 10, "1251/62500000", "66161/31250000"},
      {"nkstar:6:3", 120, 120, 5, 5, 5, "24/7", 300, 22, 22, "13761/625000000", "727771/312500000"},
      {"arrangement:6:3", 120, 120, 9, 9, 4, "314/119", 540, 24, 24, "3753/156250000", "198483/78125000"},
      {"torus:4x5x6", 120, 120, 6, 6, 7, "444/119", 360, 12, 12, "3753/312500000", "271837/1171875000"},
      {"hypercube:7", 128, 128, 7, 7, 7, "448/127", 448, 7, 7, "8757/1250000000", "69399/312500000"},
      // Crossbar switches, cut-through: the hosts run the complete graph's algorithms over routes.
      // The full-bisection fat-tree's D-mod-K routes carry recursive doubling and Rabenseifner
      // without contention, as hypercube:7 (before crossbars, as relays: 64 steps, 1251/19531250 s
      // and 66161/9765625 s); the dragonfly's 3 hosts per router share 2 global links a router,
      // and its flat exchanges wait for them (before: 50 steps, 1251/25000000 s, 66161/12500000 s;
      // the ring-split's 1031029/1125000000 s at 1 MiB before the hierarchical all-reduce).
      {"fattree:8", 128, 208, 1, 8, 6, "12034/2691", 384, 7, 7, "8757/1250000000", "69399/312500000"},
      {"dragonfly:4:3:2", 108, 144, 1, 8, 5, "251/66", 198, 28, 31, "8757/312500000", "960227/1875000000"},
  };
  std::string spaced = specs;
  std::replace(spaced.begin(), spaced.end(), ',', ' ');
  const auto compare = run_starnet("topo compare --json " + spaced);
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  const std::string alpha_beta = " --latency 1/1000000 --bandwidth 10000000000 --message-size ";
  const auto exchange = run_starnet("whatif --collective alltoall --topologies " + specs + " --json");
  const auto steps = run_starnet("whatif --topologies " + specs + " --json");
  const auto small = run_starnet("whatif --topologies " + specs + alpha_beta + "8 --json");
  const auto large = run_starnet("whatif --topologies " + specs + alpha_beta + "1048576 --json");
  for (const auto* r : {&exchange, &steps, &small, &large}) ASSERT_EQ(r->exit_code, 0) << r->err;
  const auto exchange_steps = best_of(exchange.json()["rows"], "steps");
  // Unit costs: every row counts steps (with link costs the rows among a network's hosts are timed).
  const auto allreduce_steps = best_of(steps.json()["rows"], "steps");
  const auto small_time = best_of(small.json()["rows"], "makespan");
  const auto large_time = best_of(large.json()["rows"], "makespan");
  const auto compared = compare.json();
  const auto& topologies = compared["topologies"];
  ASSERT_EQ(topologies.size(), table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& want = table[i];
    const auto& t = topologies[i];
    EXPECT_EQ(t["name"], want.spec);
    EXPECT_EQ(t["processors"].get<long>(), want.processors) << want.spec;
    EXPECT_EQ(t["nodes"].get<long>(), want.nodes) << want.spec;
    EXPECT_EQ(t["degree_min"].get<long>(), want.degree_min) << want.spec;
    EXPECT_EQ(t["degree_max"].get<long>(), want.degree_max) << want.spec;
    EXPECT_EQ(t["diameter"].get<long>(), want.diameter) << want.spec;
    EXPECT_EQ(t["average_distance_exact"], want.average_distance) << want.spec;
    EXPECT_EQ(t["links"].get<long>(), want.links) << want.spec;
    EXPECT_EQ(allreduce_steps.at(want.spec), Rational(want.allreduce_steps)) << want.spec;
    if (want.alltoall_steps == 0) {
      EXPECT_FALSE(exchange_steps.contains(want.spec)) << want.spec;
    } else {
      EXPECT_EQ(exchange_steps.at(want.spec), Rational(want.alltoall_steps)) << want.spec;
    }
    EXPECT_EQ(small_time.at(want.spec), Rational::parse(want.small, "small")) << want.spec;
    EXPECT_EQ(large_time.at(want.spec), Rational::parse(want.large, "large")) << want.spec;
  }
}

TEST(WhatIfCommand, AFullBisectionFatTreeMatchesACrossbarOfItsHostsAtEverySizeOfASweep) {
  // The issue's command: crossbar switches, cut-through, switch latency 0, linear placement.
  const auto rows_csv = whatif_scratch("sweep.csv");
  const auto links_csv = whatif_scratch("links.csv");
  const auto r = run_starnet("whatif --topologies fattree:8,complete:128 --latency 1e-6 --bandwidth 1e9 --message-size "
                             "8,1048576 --json --csv " + rows_csv.string() + " --link-report " + links_csv.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::pair<std::string, std::string>, Rational> best;
  const auto doc = r.json();
  for (const auto& row : doc["rows"]) {
    if (!row["verified"].get<bool>()) continue;
    const auto key = std::pair{row["topology"].get<std::string>(), exact(row, "message_size")};
    const Rational t = Rational::parse(exact(row, "makespan"), "makespan");
    if (!best.contains(key) || t < best.at(key)) best.insert_or_assign(key, t);
    EXPECT_EQ(exact(row, "latency"), "1/1000000");
    EXPECT_EQ(row["max_link_load"].is_null(), row["topology"] == "complete:128") << row.dump();
  }
  for (const char* m : {"8", "1048576"}) {
    ASSERT_TRUE(best.contains({"fattree:8", m}) && best.contains({"complete:128", m})) << m;
    EXPECT_LE(best.at({"fattree:8", m}), best.at({"complete:128", m}) * Rational(11, 10)) << m;
  }
  // Every time column a number, its exact text beside it.
  const auto csv = slurp(rows_csv);
  EXPECT_THAT(csv, HasSubstr(",makespan,makespan_exact,"));
  EXPECT_THAT(csv, HasSubstr(",message_size,message_size_exact,latency,latency_exact,bandwidth,bandwidth_exact,"));
  EXPECT_THAT(csv, HasSubstr(",7.056e-06,441/62500000,"));
  const auto links = slurp(links_csv);
  EXPECT_EQ(links.substr(0, links.find('\n')),
            "row,topology,algorithm,ports,duplex,link,messages,packets,packets_exact,units,units_exact,busy,busy_exact");
  EXPECT_THAT(links, HasSubstr(",fattree:8,recursive-doubling,1,full,h0_0_0->e0_0,7,"));
}

TEST(WhatIfCommand, AUsersScheduleForTheHostsRunsAmongThemTimedAsTheBuiltInItCameFrom) {
  // Exported for complete:16, it runs among fattree:4's 16 hosts, routed, links arbitrated, α–β timed.
  const auto file = whatif_scratch("rabenseifner16.json");
  ASSERT_EQ(run_starnet("schedule export --algorithm rabenseifner --topology complete:16 -o " + file.string()).exit_code, 0);
  const auto r = run_starnet("whatif --topologies fattree:4 --latency 1e-6 --bandwidth 1e9 --message-size 1048576 "
                             "--json --schedule " + file.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, nlohmann::json> rows;
  const auto doc = r.json();
  for (const auto& row : doc["rows"]) rows[row["algorithm"].get<std::string>()] = row;
  ASSERT_TRUE(rows.contains("schedule") && rows.contains("rabenseifner"));
  EXPECT_TRUE(rows["schedule"]["verified"].get<bool>()) << rows["schedule"].dump();
  EXPECT_EQ(exact(rows["schedule"], "makespan"), exact(rows["rabenseifner"], "makespan"));
  EXPECT_EQ(exact(rows["schedule"], "makespan"), "6169/3125000");  // 2·4 steps: 8α + 2·15/16·M/β
  EXPECT_FALSE(rows["schedule"]["max_link_load"].is_null());
}

TEST(WhatIfCommand, NetworkSettingsAreRefusedNamingTheFlag) {
  const auto routing = run_starnet("whatif --topologies fattree:4 --routing adaptive");
  EXPECT_EQ(routing.exit_code, 2);
  EXPECT_THAT(routing.err, HasSubstr("--routing adaptive"));
  const auto placement = run_starnet("whatif --topologies fattree:4 --placement random:x");
  EXPECT_EQ(placement.exit_code, 2);
  EXPECT_THAT(placement.err, HasSubstr("--placement random:x: expected linear or random:SEED"));
  const auto ports = run_starnet("whatif --topologies fattree:4 --switch-ports 1");
  EXPECT_EQ(ports.exit_code, 2);
  EXPECT_THAT(ports.err, HasSubstr("--switch-ports 1"));
  EXPECT_THAT(ports.err, HasSubstr("--forwarding store-and-forward"));
  const auto valiant = run_starnet("whatif --topologies tiers:1 --routing valiant");
  EXPECT_EQ(valiant.exit_code, 2);
  EXPECT_THAT(valiant.err, HasSubstr("--routing valiant"));
}

TEST(WhatIfCommand, SingleRelaysStoreAndForwardGiveTheNumbersOfBeforeCrossbars) {
  // The relay model as every what-if ran it before: fattree:8's routed binomial tree, 64 steps.
  const auto r = run_starnet("whatif --topologies fattree:8 --switch-ports 1 --forwarding store-and-forward --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["rows"][0]["steps"], 64);
  EXPECT_EQ(r.json()["network"]["forwarding"], "store-and-forward");
}

TEST(WhatIfCommand, TheSwitchLatencyIsInTheDocumentAndRefusedWithoutLinkCosts) {
  const auto r = run_starnet("whatif --topologies fattree:4 --latency 1e-6 --bandwidth 1e9 --switch-latency 1e-7 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["network"]["switch_latency_exact"], "1/10000000");
  const auto unit = run_starnet("whatif --topologies fattree:4 --switch-latency 1e-7");
  EXPECT_EQ(unit.exit_code, 2);
  EXPECT_THAT(unit.err, HasSubstr("--switch-latency"));
  EXPECT_THAT(unit.err, HasSubstr("link costs"));
}

}  // namespace
}  // namespace starnet::tools::testing
