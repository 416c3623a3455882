// `starnet steady scatter|gossip|reduce`, run as a user runs it.
#include "starnet_test_paths.hpp"
#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

namespace starnet::tools::testing {
namespace {

__extension__ typedef __int128 Wide;

/// An exact fraction "a/b" or "a" from the JSON output, kept as (num, den) with den > 0.
struct Fraction {
  Wide num = 0;
  Wide den = 1;
};

Fraction parse(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return {std::stoll(text), 1};
  return {std::stoll(text.substr(0, slash)), std::stoll(text.substr(slash + 1))};
}

/// The exact value of field @p key of @p j (docs/json.md: a number, with KEY_exact when not an integer).
Fraction parse(const nlohmann::json& j, const std::string& key) { return parse(exact(j, key)); }
Fraction add(Fraction a, Fraction b) { return {a.num * b.den + b.num * a.den, a.den * b.den}; }
Fraction mul(Fraction a, Fraction b) { return {a.num * b.num, a.den * b.den}; }
bool less_equal(Fraction a, Fraction b) { return a.num * b.den <= b.num * a.den; }
bool equal(Fraction a, Fraction b) { return a.num * b.den == b.num * a.den; }

std::string source_path(const std::string& name) {
  return std::string(STARNET_SOURCE_DIR) + "/tests/tools/golden/" + name;
}

const std::string FIGURE2 = "--topology " + source_path("steady_figure2.dot");
const std::string FIGURE6 = "--topology " + source_path("steady_figure6.dot");

/// Checks the matchings of a schedule exactly: each node sends on at most one link and receives on
/// at most one per matching, and the weights sum to at most the period.
void expect_valid_matchings(const nlohmann::json& schedule, const std::string& label) {
  Fraction total;
  for (const auto& m : schedule["matchings"]) {
    std::map<std::string, std::string> sends_to;
    std::map<std::string, std::string> receives_from;
    for (const auto& tr : m["transfers"]) {
      const auto from = tr["from"].get<std::string>();
      const auto to = tr["to"].get<std::string>();
      EXPECT_EQ(sends_to.emplace(from, to).first->second, to) << label << ": " << from << " sends on two links";
      EXPECT_EQ(receives_from.emplace(to, from).first->second, from) << label << ": " << to << " receives twice";
    }
    total = add(total, parse(m, "weight"));
  }
  EXPECT_TRUE(less_equal(total, parse(schedule, "period"))) << label;
}

TEST(SteadyCommand, Figure2ScatterIsOneHalf) {
  const auto r = run_starnet("steady scatter " + FIGURE2 + " --source Ps --targets P0,P1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(exact(j, "throughput"), "1/2");
  EXPECT_EQ(j["certified"], true);
  EXPECT_EQ(j["status"], "OPTIMAL");
  EXPECT_EQ(j["collective"], "scatter");
  EXPECT_FALSE(j["matchings"].empty());
  EXPECT_TRUE(j.contains("routes"));
  expect_valid_matchings(j, "figure 2");
  // Every period delivers throughput·period messages to each target, through the matchings.
  std::map<std::string, Fraction> delivered;
  for (const auto& m : j["matchings"]) {
    for (const auto& tr : m["transfers"]) {
      if (tr["type"] == "m[" + tr["to"].get<std::string>() + "]") {
        auto& d = delivered[tr["to"].get<std::string>()];
        d = add(d, parse(tr, "amount"));
      }
    }
  }
  for (const char* target : {"P0", "P1"}) {
    EXPECT_TRUE(equal(delivered[target], mul(parse(j, "throughput"), parse(j, "period")))) << target;
  }
}

TEST(SteadyCommand, Figure6ReduceIsOnePerTimeUnit) {
  const auto r = run_starnet("steady reduce " + FIGURE6 + " --participants P0,P1,P2 --target P0 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(exact(j, "throughput"), "1");
  EXPECT_EQ(j["certified"], true);
  ASSERT_FALSE(j["trees"].empty());
  Fraction total;
  for (const auto& tree : j["trees"]) {
    total = add(total, parse(tree, "weight"));
    const auto& tasks = tree["tasks"];
    ASSERT_FALSE(tasks.empty());
    const auto root = tasks[0].get<std::string>();
    EXPECT_TRUE(root.rfind("cons(P0, T[0,", 0) == 0 || root.find("->P0, v[0,2])") != std::string::npos) << root;
  }
  EXPECT_TRUE(equal(total, mul(parse(j, "throughput"), parse(j, "period"))));
  expect_valid_matchings(j, "figure 6");
}

TEST(SteadyCommand, GossipOnAUniformTriangleIsOneHalf) {
  // Every node emits its two messages itself at cost 1 each: TP = 1 / ((n − 1)·c) = 1/2.
  const auto r = run_starnet("steady gossip " + FIGURE6 + " --sources P0,P1,P2 --targets P0,P1,P2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(exact(r.json(), "throughput"), "1/2");
  EXPECT_EQ(r.json()["certified"], true);
  expect_valid_matchings(r.json(), "gossip");
}

TEST(SteadyCommand, FixedPeriodAndWholeMessages) {
  const auto r = run_starnet("steady scatter " + FIGURE2 + " --source Ps --targets P0,P1 --period 7/2 --whole-messages --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  for (const auto& m : j["matchings"]) {
    for (const auto& tr : m["transfers"]) EXPECT_EQ(parse(tr, "amount").den, 1) << tr.dump();
  }
  ASSERT_TRUE(j.contains("fixed_period"));
  const auto& f = j["fixed_period"];
  const Fraction tp = parse(j, "throughput");
  const Fraction fixed = parse(f, "throughput");
  EXPECT_TRUE(less_equal(fixed, tp));
  // Proposition 4: TP − TP_fixed ≤ card(trees) / T_fixed.
  EXPECT_TRUE(less_equal(tp, add(fixed, parse(f, "loss_bound"))));
  expect_valid_matchings(f, "fixed period");
}

TEST(SteadyCommand, TiersSpecEndToEnd) {
  // tiers:SEED always has LAN processors p0..p5 (docs of make_platform).
  const auto r = run_starnet("steady reduce --topology tiers:3 --participants p0,p1,p2,p3,p4,p5 --target p2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["certified"], true);
  expect_valid_matchings(r.json(), "tiers");
}

TEST(SteadyCommand, HumanSummaryMatchesTranscript) {
  const std::string cmds[] = {
      "steady scatter " + FIGURE2 + " --source Ps --targets P0,P1",
      "steady reduce " + FIGURE6 + " --participants P0,P1,P2 --target P0 --period 5",
  };
  std::string all;
  for (const auto& cmd : cmds) {
    const auto r = run_starnet(cmd);
    ASSERT_EQ(r.exit_code, 0) << cmd << r.err;
    all += r.out;
  }
  // The platform path differs per checkout: compare from the first space after it.
  std::string normalised;
  std::istringstream lines(all);
  for (std::string line; std::getline(lines, line);) {
    const auto on = line.find(" on ");
    if (on != std::string::npos) line = line.substr(0, on) + " on " + std::filesystem::path(line.substr(on + 4)).filename().string();
    normalised += line + "\n";
  }
  EXPECT_EQ(normalised, golden("steady_summary.txt", normalised));
}

/// `--emulate K` for K = 10, 100 and 1000 periods: every emulation verified, never above TP·K
/// (Lemma 1), never below Proposition 1's guarantee, the ratio rising towards 1.
void expect_emulations_approach_one(const std::string& args, const std::string& label) {
  const auto plan = run_starnet(args + " --json");
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const Fraction period = parse(plan.json(), "period");
  const Fraction tp = parse(plan.json(), "throughput");
  ASSERT_EQ(period.den, 1) << label;
  Fraction previous{-1, 1};
  for (const long periods : {10L, 100L, 1000L}) {
    const Fraction k = mul(period, {periods, 1});
    const auto r = run_starnet(args + " --emulate " + std::to_string(static_cast<long>(k.num)) + " --json");
    ASSERT_EQ(r.exit_code, 0) << label << " periods=" << periods << "\n" << r.err;
    const auto j = r.json();
    const auto& e = j["emulated"];
    EXPECT_EQ(e["verified"], true) << label << ": " << e["failure"];
    const Fraction completed = parse(e, "completed");
    EXPECT_TRUE(equal(parse(e, "bound"), mul(tp, k))) << label << " " << e.dump();
    EXPECT_TRUE(less_equal(completed, parse(e, "bound"))) << label << " " << e.dump();
    EXPECT_TRUE(less_equal(parse(e, "proposition1"), completed)) << label << " " << e.dump();
    EXPECT_TRUE(equal(completed, parse(e, "predicted"))) << label << " " << e.dump();
    EXPECT_TRUE(equal(mul(parse(e, "ratio"), parse(e, "bound")), completed)) << label << " " << e.dump();
    EXPECT_TRUE(less_equal(previous, parse(e, "ratio"))) << label << " periods=" << periods;
    previous = parse(e, "ratio");
  }
  EXPECT_TRUE(less_equal({95, 100}, previous)) << label << ": ratio at 1000 periods";
}

TEST(SteadyCommand, EmulatedFigure2ScatterApproachesTheBound) {
  expect_emulations_approach_one("steady scatter " + FIGURE2 + " --source Ps --targets P0,P1", "figure 2");
  // Whole messages: period 24 instead of 6 (no message split), the same limit.
  expect_emulations_approach_one("steady scatter " + FIGURE2 + " --source Ps --targets P0,P1 --whole-messages",
                                 "figure 2 whole messages");
}

TEST(SteadyCommand, EmulatedFigure6ReduceVerifiesEveryValue) {
  expect_emulations_approach_one("steady reduce " + FIGURE6 + " --participants P0,P1,P2 --target P0", "figure 6");
  const auto r = run_starnet("steady reduce " + FIGURE6 + " --participants P0,P1,P2 --target P0 --emulate 100 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  const auto& e = j["emulated"];
  EXPECT_EQ(e["values_verified"].get<long>(), e["completed"].get<long>());
  EXPECT_GT(e["values_verified"].get<long>(), 0);
}

TEST(SteadyCommand, EmulatedTiersEndToEnd) {
  expect_emulations_approach_one("steady reduce --topology tiers:2 --participants p0,p1,p2,p3,p4,p5,p6,p7 --target p4 "
                                 "--message-size 10 --task-work 10",
                                 "tiers:2 reduce");
  expect_emulations_approach_one("steady gossip --topology tiers:2 --sources p0,p1,p2 --targets p5,p6,p7", "tiers:2 gossip");
}

TEST(SteadyCommand, EmulatedFixedPeriodStaysBelowTheOptimum) {
  const auto r = run_starnet("steady scatter " + FIGURE2 + " --source Ps --targets P0,P1 --period 7/2 --emulate 700 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  const auto& fixed = j["fixed_period"]["emulated"];
  EXPECT_EQ(fixed["verified"], true) << fixed.dump();
  EXPECT_EQ(fixed["bound"], j["emulated"]["bound"]) << "both against the optimal TP·K";
  EXPECT_TRUE(less_equal(parse(fixed, "completed"), parse(j["emulated"], "completed"))) << j.dump();
}

TEST(SteadyCommand, EmulatedGanttChart) {
  const auto svg = std::filesystem::temp_directory_path() / ("starnet_steady_" + std::to_string(::getpid()) + ".svg");
  const auto r = run_starnet("steady reduce " + FIGURE6 + " --participants P0,P1,P2 --target P0 --emulate 8 --gantt " +
                             svg.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(svg);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("<svg"), std::string::npos);
  EXPECT_NE(text.str().find("</svg>"), std::string::npos);
  for (const char* row : {"P0", "P1", "P2"}) EXPECT_NE(text.str().find(row), std::string::npos) << row;
  std::filesystem::remove(svg);
}

TEST(SteadyCommand, EmulatedHumanSummaryMatchesTranscript) {
  const std::string cmds[] = {
      "steady scatter " + FIGURE2 + " --source Ps --targets P0,P1 --emulate 600",
      "steady reduce " + FIGURE6 + " --participants P0,P1,P2 --target P0 --period 5 --emulate 100",
  };
  std::string all;
  for (const auto& cmd : cmds) {
    const auto r = run_starnet(cmd);
    ASSERT_EQ(r.exit_code, 0) << cmd << r.err;
    const auto on = r.out.find(" on ");
    const auto eol = r.out.find('\n');
    ASSERT_LT(on, eol) << r.out;
    // The platform path differs per checkout: keep its file name.
    all += r.out.substr(0, on) + " on " + std::filesystem::path(r.out.substr(on + 4, eol - on - 4)).filename().string() +
           r.out.substr(eol);
  }
  EXPECT_EQ(all, golden("steady_emulate_summary.txt", all));
}

TEST(SteadyCommand, BadInputExitsTwoNamingIt) {
  const auto dir = std::filesystem::temp_directory_path() / ("starnet_steady_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto zero_cost = dir / "zero.dot";
  std::ofstream(zero_cost) << "digraph z { node [role=processor]; A; B; A -> B [cost=0]; }\n";
  struct Case {
    std::string args;
    std::vector<std::string> parts;
  };
  const std::vector<Case> cases = {
      {"scatter " + FIGURE2 + " --source Ps --targets P0,Nope", {"\"Nope\""}},
      {"scatter " + FIGURE2 + " --source Nope --targets P0", {"\"Nope\"", "source"}},
      {"scatter " + FIGURE2 + " --source Pa --targets P0,Pb", {"\"Pb\"", "unreachable", "\"Pa\""}},
      {"scatter " + FIGURE2 + " --source Ps --targets ''", {"scatter targets", "empty"}},
      {"reduce " + FIGURE6 + " --participants P0,R --target P0", {"\"R\"", "router"}},
      {"reduce " + FIGURE6 + " --participants P0,P1 --target R", {"\"R\"", "router"}},
      {"reduce " + FIGURE6 + " --participants P0,P1 --target P0 --task-work 0", {"--task-work 0", "> 0"}},
      {"reduce " + FIGURE6 + " --participants P0,P1 --target P0 --message-size x", {"--message-size x", "not a number"}},
      {"scatter " + FIGURE2 + " --source Ps --targets P0 --period 0", {"--period 0", "> 0"}},
      {"scatter --topology " + zero_cost.string() + " --source A --targets B", {"A->B", "cost"}},
      {"scatter --topology nosuch:3 --source A --targets B", {"nosuch:3"}},
      {"scatter " + FIGURE2 + " --source Ps", {"--targets"}},
      {"scatter " + FIGURE2 + " --source Ps --targets P0 --emulate 0", {"--emulate 0", "> 0"}},
      {"scatter " + FIGURE2 + " --source Ps --targets P0 --emulate -3/2", {"--emulate -3/2", "> 0"}},
      {"scatter " + FIGURE2 + " --source Ps --targets P0 --emulate soon", {"--emulate soon", "not a number"}},
      {"scatter " + FIGURE2 + " --source Ps --targets P0 --emulate 1000000000000", {"horizon K = 1000000000000"}},
      {"scatter " + FIGURE2 + " --source Ps --targets P0 --gantt g.svg", {"--gantt", "--emulate"}},
  };
  for (const auto& c : cases) {
    const auto r = run_starnet("steady " + c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
    for (const auto& part : c.parts) EXPECT_NE(r.err.find(part), std::string::npos) << c.args << "\n" << r.err;
  }
  std::filesystem::remove_all(dir);
}

TEST(SteadyCommand, SolverFailureExitsThreeSayingWhy) {
  const auto r =
      run_starnet("steady reduce --topology tiers:3 --participants p0,p1,p2,p3,p4,p5 --target p2 --iteration-limit 1");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("iteration limit"), std::string::npos) << r.err;
}

TEST(SteadyCommand, HelpNamesTheCollectives) {
  const auto r = run_starnet("steady --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* word : {"scatter", "gossip", "reduce", "Legrand"}) EXPECT_NE(r.out.find(word), std::string::npos) << word;
  const auto s = run_starnet("steady reduce --help");
  for (const char* word : {"--participants", "--target", "--period", "--json", "--task-work", "--emulate", "--gantt"}) {
    EXPECT_NE(s.out.find(word), std::string::npos) << word;
  }
}

}  // namespace
}  // namespace starnet::tools::testing
