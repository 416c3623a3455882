// `starnet montecarlo`, run as a user runs it.
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string scratch(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("starnet_mc_" + std::to_string(::getpid()) + "_" + name)).string();
}

std::string read(const std::string& path) {
  std::stringstream ss;
  ss << std::ifstream(path).rdbuf();
  return ss.str();
}

/// The JSON without its timing fields (the rest is a function of the inputs).
nlohmann::json without_timing(nlohmann::json j) {
  j.erase("wall_seconds");
  j.erase("simulations_per_second");
  return j;
}

const std::string SCENARIO = "montecarlo --algos tree-dyn,binomial-stat --n 16 --dist gamma --cv 0.5 --mu-c 0.25 "
                             "--runs 300 --seed 3 --json";

TEST(MontecarloCommand, JsonSummaryPerAlgorithm) {
  const auto r = run_starnet(SCENARIO);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["n"], 16);
  EXPECT_EQ(j["distribution"], "gamma");
  ASSERT_EQ(j["algorithms"].size(), 2U);
  EXPECT_EQ(j["algorithms"][0]["algorithm"], "tree-dyn");
  EXPECT_EQ(j["algorithms"][1]["algorithm"], "binomial-stat");
  for (const auto& a : j["algorithms"]) {
    for (const char* key : {"mean", "stddev", "sem", "q10", "q50", "q90", "runs", "verified"}) {
      EXPECT_TRUE(a.contains(key)) << key;
    }
    EXPECT_EQ(a["runs"], 300);
    EXPECT_EQ(a["verified"], true);
    EXPECT_LE(a["q10"].get<double>(), a["q50"].get<double>());
    EXPECT_LE(a["q50"].get<double>(), a["q90"].get<double>());
    EXPECT_NEAR(a["sem"].get<double>(), a["stddev"].get<double>() / std::sqrt(300.0), 1e-12);
  }
  EXPECT_GT(j["simulations_per_second"].get<double>(), 0);
  EXPECT_EQ(without_timing(j).dump(2) + "\n", golden("montecarlo_n16_gamma.json", without_timing(j).dump(2) + "\n"));
}

/// SCENARIO with @p a and with @p b gives the same document, timing aside.
void expect_same_numbers(const std::string& a, const std::string& b) {
  const auto first = run_starnet(SCENARIO + " " + a);
  const auto second = run_starnet(SCENARIO + " " + b);
  ASSERT_EQ(first.exit_code, 0) << a << first.err;
  ASSERT_EQ(second.exit_code, 0) << b << second.err;
  EXPECT_EQ(without_timing(first.json()), without_timing(second.json())) << a << " vs " << b;
}

TEST(MontecarloCommand, SameNumbersWhateverTheThreadCount) { expect_same_numbers("--threads 1", "--threads 2"); }

TEST(MontecarloCommand, FastPathOffGivesTheSameNumbers) { expect_same_numbers("--fast-path on", "--fast-path off"); }

TEST(MontecarloCommand, StudyCsvIsTheSameOnBothPaths) {
  std::vector<std::string> csvs;
  for (const char* path : {"on", "off"}) {
    const auto csv = scratch(std::string("figure4_") + path + ".csv");
    const auto r = run_starnet("montecarlo --study figure4 --n 16 --runs 300 --points 4 --fast-path " + std::string(path) +
                               " --csv " + csv);
    ASSERT_EQ(r.exit_code, 0) << path << r.err;
    csvs.push_back(read(csv));
    std::filesystem::remove(csv);
  }
  EXPECT_EQ(csvs[0], csvs[1]);
  EXPECT_EQ(std::count(csvs[0].begin(), csvs[0].end(), '\n'), 1 + 4 * 4);
}

TEST(MontecarloCommand, HumanSummaryAndCsv) {
  const auto csv = scratch("summary.csv");
  const auto r = run_starnet("montecarlo --n 12 --dist uniform --cv 0.3 --runs 100 --csv " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* text : {"binomial-stat", "fibonacci-stat", "tree-dyn", "noncommut-tree-dyn", "100/100", "simulations/s"}) {
    EXPECT_THAT(r.out, HasSubstr(text)) << text;
  }
  const auto content = read(csv);
  EXPECT_THAT(content, StartsWith("algorithm,n,distribution,cv,mu_d,mu_c,runs,verified_runs,mean"));
  EXPECT_EQ(std::count(content.begin(), content.end(), '\n'), 5);
  std::filesystem::remove(csv);
}

TEST(MontecarloCommand, GanttOfOneRun) {
  const auto svg = scratch("run.svg");
  const auto r = run_starnet("montecarlo --algos fibonacci-stat --n 8 --cv 1 --mu-c 0.5 --runs 10 --gantt " + svg +
                             " --run 4 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["gantt"]["run"], 4);
  const auto content = read(svg);
  EXPECT_THAT(content, HasSubstr("<svg"));
  EXPECT_THAT(content, HasSubstr("fibonacci-stat, n = 8"));
  EXPECT_THAT(content, HasSubstr("P7"));
  std::filesystem::remove(svg);
}

TEST(MontecarloCommand, BadInputExitsTwoNamingIt) {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case& c : {Case{"--algos tree-stat", "tree-stat"}, Case{"--dist normal", "normal"},
                        Case{"--dist triangle --cv 0.5", "triangle"}, Case{"--dist uniform --cv 0.9", "0.9"},
                        Case{"--n 0", "--n 0"}, Case{"--runs 0", "--runs 0"}, Case{"--runs -3", "--runs -3"},
                        Case{"--cv -1", "-1"}, Case{"--mu-d -2", "-2"}, Case{"--algos tree-dyn,tree-dyn", "twice"},
                        Case{"--gantt x.svg", "--algos"}, Case{"--algos tree-dyn --gantt x.svg --run 99 --runs 10", "--run 99"},
                        Case{"--run 3", "--gantt"}, Case{"--study figure7", "figure7"},
                        Case{"--study figure4 --cv 1", "--cv"}, Case{"--study figure4 --plot out.pdf", "out.pdf"},
                        Case{"--plot out.svg", "--study"}, Case{"--worst-case --study figure4", "--worst-case"},
                        Case{"--worst-case --n 8", "--n"}, Case{"--progress sometimes", "sometimes"},
                        Case{"--study figure5 --points 1", "--points 1"}, Case{"--study figure6 --ratio-points 0", "--ratio-points 0"},
                        Case{"--fast-path maybe", "--fast-path maybe"}, Case{"--worst-case --fast-path off", "--fast-path"}}) {
    const auto r = run_starnet(std::string("montecarlo ") + c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
  }
}

TEST(MontecarloCommand, Figure4StudyWithNotesCsvAndPlot) {
  const auto csv = scratch("f4.csv");
  const auto svg = scratch("f4.svg");
  const auto r = run_starnet("montecarlo --study figure4 --n 16 --runs 400 --points 4 --json --csv " + csv + " --plot " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["study"], "figure4");
  ASSERT_EQ(j["points"].size(), 4U);
  EXPECT_DOUBLE_EQ(j["points"][0]["cv"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(j["points"][3]["cv"].get<double>(), 10);
  EXPECT_EQ(j["points"][1]["algorithms"].size(), 4U);
  ASSERT_FALSE(j["notes"].empty());
  for (const auto& n : j["notes"]) {
    EXPECT_TRUE(n["agrees"].is_boolean());
    EXPECT_FALSE(n["finding"].get<std::string>().empty());
  }
  const auto content = read(csv);
  EXPECT_EQ(std::count(content.begin(), content.end(), '\n'), 1 + 4 * 4);
  EXPECT_THAT(read(svg), HasSubstr("<svg"));
  std::filesystem::remove(csv);
  std::filesystem::remove(svg);
}

TEST(MontecarloCommand, Figure5And6StudiesOnASmallGrid) {
  for (const std::string study : {"figure5", "figure6"}) {
    const auto csv = scratch(study + ".csv");
    const auto png = scratch(study + ".png");
    const auto r = run_starnet("montecarlo --study " + study + " --n 8 --runs 30 --points 3 --ratio-points 3 --json --csv " +
                               csv + " --plot " + png);
    ASSERT_EQ(r.exit_code, 0) << study << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["cells"].size(), 9U) << study;
    EXPECT_EQ(j["distributions"].size(), study == "figure5" ? 1U : 10U);
    // CVs 0.01, 0.316, 10: beta100 stops below 0.1; at 10 only bernoulli, binomial and gamma run.
    EXPECT_EQ(j["skipped_cells"], study == "figure5" ? 0 : 3 * (1 + 7));
    EXPECT_FALSE(j["notes"].empty()) << study;
    const auto content = read(csv);
    EXPECT_EQ(std::count(content.begin(), content.end(), '\n'), 1 + 9) << study;
    EXPECT_EQ(read(png).substr(1, 3), "PNG") << study;
    std::filesystem::remove(csv);
    std::filesystem::remove(png);
  }
}

TEST(MontecarloCommand, WorstCasesReachTableI) {
  const auto r = run_starnet("montecarlo --worst-case --json");
  const auto rows = r.json()["worst_case"];
  ASSERT_GE(rows.size(), 10U);
  bool all_within = true;
  for (const auto& row : rows) {
    EXPECT_EQ(row["verified"], true) << row.dump();
    EXPECT_EQ(row["optimum_certified"], true) << row.dump();
    all_within = all_within && row["within_bound"].get<bool>();
    // Theorem 1, first ratio: reached exactly, (C + D)/d = (3 + 4)/1.
    if (row["instance"] == "theorem1-low-overlap") {
      EXPECT_EQ(row["ratio"], 7) << row.dump();
    }
  }
  // The self-check: exit 1 exactly when a ratio breaks its proven bound (stderr names it).
  EXPECT_EQ(r.exit_code, all_within ? 0 : 1) << r.err;
  if (!all_within) {
    EXPECT_THAT(r.err, HasSubstr("above"));
  }
}

TEST(MontecarloCommand, HelpDescribesTheModes) {
  const auto r = run_starnet("montecarlo --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* text : {"--algos", "--dist", "--cv", "--mu-d", "--mu-c", "--runs", "--seed", "--threads", "--json",
                           "--csv", "--gantt", "--run", "--study", "--plot", "--worst-case", "--fast-path", "figure4"}) {
    EXPECT_THAT(r.out, HasSubstr(text)) << text;
  }
}

/// Every --plot of the command line that writes SVG, drawn once for the tests below (tools/plot.hpp
/// is the one path they all take; its figures and scripts are checked here, where most of them are).
class EverySvgPlot : public ::testing::Test {
 protected:
  struct Plot {
    std::string name;  ///< NAME.svg and NAME.gp in the scratch folder
    std::string args;
    CliResult result;
  };

  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() / ("starnet_plots_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    plots_ = {{"whatif", "whatif --topologies star:4,hypercube:4,torus:4x4 --ports 1,2 --fail-random 0,0.1", {}},
              {"whatif_timed", "whatif --topologies star:4,ring:6 --costs random --duplex full,half", {}},
              {"figure2", "reduce --study figure2 --max-n 200", {}},
              {"figure4", "montecarlo --study figure4 --n 16 --runs 200 --points 4", {}},
              {"figure5", "montecarlo --study figure5 --n 8 --runs 20 --points 3 --ratio-points 3", {}},
              {"figure6", "montecarlo --study figure6 --n 8 --runs 20 --points 3 --ratio-points 3", {}}};
    for (auto& p : plots_) p.result = run_starnet(p.args + " --plot " + svg(p).string());
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }

  static std::filesystem::path svg(const Plot& p) { return dir_ / (p.name + ".svg"); }
  static std::filesystem::path script(const Plot& p) { return dir_ / (p.name + ".gp"); }
  /// Runs @p command through the shell, its output to a log in the scratch folder.
  static int shell(const std::string& command) {
    return std::system((command + " >" + (dir_ / "shell.log").string() + " 2>&1").c_str());
  }

  static inline std::filesystem::path dir_;
  static inline std::vector<Plot> plots_;
};

TEST_F(EverySvgPlot, KeepsItsSelfContainedScriptBeside) {
  for (const auto& p : plots_) {
    ASSERT_EQ(p.result.exit_code, 0) << p.args << "\n" << p.result.err;
    EXPECT_THAT(read(svg(p).string()), HasSubstr("<svg")) << p.name;
    const std::string text = read(script(p).string());
    EXPECT_THAT(text, StartsWith("# ")) << p.name;            // what the figure is, how to redraw it
    EXPECT_THAT(text, HasSubstr(" << EOD\n")) << p.name;      // the data inline
    EXPECT_THAT(text, HasSubstr("set output outfile")) << p.name;
    EXPECT_THAT(text, Not(HasSubstr(".dat'"))) << p.name;     // no data file left outside it
  }
}

TEST_F(EverySvgPlot, ScriptRedrawsTheSameFigureFromAnywhere) {
  for (const auto& p : plots_) {
    ASSERT_EQ(p.result.exit_code, 0) << p.args << "\n" << p.result.err;
    const auto again = dir_ / (p.name + "_again.svg");
    // From another folder, into another file: the script reads nothing but itself.
    EXPECT_EQ(shell("cd / && gnuplot -e \"outfile='" + again.string() + "'\" " + script(p).string()), 0)
        << p.name << "\n" << read((dir_ / "shell.log").string());
    EXPECT_EQ(read(again.string()), read(svg(p).string())) << p.name << ": the script kept is not the one that drew";
  }
}

TEST_F(EverySvgPlot, HasNoMarkerScaledToZero) {
  // gnuplot's svg terminal writes `scale(0.00)` for points of size 0, a singular matrix.
  for (const auto& p : plots_) {
    ASSERT_EQ(p.result.exit_code, 0) << p.args << "\n" << p.result.err;
    EXPECT_THAT(read(svg(p).string()), Not(HasSubstr("scale(0"))) << p.name;
  }
}

TEST_F(EverySvgPlot, RendersInLibrsvg) {
  if (shell("command -v rsvg-convert") != 0) {
    GTEST_SKIP() << "rsvg-convert is not installed (librsvg2-bin, in tools/packages.txt: run tools/bootstrap)";
  }
  for (const auto& p : plots_) {
    ASSERT_EQ(p.result.exit_code, 0) << p.args << "\n" << p.result.err;
    const auto png = dir_ / (p.name + ".png");
    EXPECT_EQ(shell("rsvg-convert " + svg(p).string() + " -o " + png.string()), 0)
        << p.name << ": " << read((dir_ / "shell.log").string());
    EXPECT_EQ(read(png.string()).substr(1, 3), "PNG") << p.name;
  }
}

}  // namespace
}  // namespace starnet::tools::testing
