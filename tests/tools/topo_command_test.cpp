// `starnet topo` run as a user runs it: exit codes, messages, JSON fields, golden transcripts.
#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>

namespace starnet::tools::testing {
namespace {

namespace fs = std::filesystem;

/// A scratch folder for the files the tests write and read.
class TopoCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("starnet_topo_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& content) const {
    const auto path = dir_ / name;
    std::ofstream(path) << content;
    return path.string();
  }
  fs::path dir_;
};

std::size_t lines(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

// Oh, Choi, Primeaux 2005, Table 1 (model, size, degree, diameter), as printed in the paper.
// Degree is the maximum degree: D_n's nodes 0…0 and 1…1 have degree 2 (families.hpp).
struct Table1Row {
  const char* model;
  const char* spec;
  std::uint64_t size;
  std::uint32_t degree;
  std::uint32_t diameter;
};
constexpr Table1Row TABLE1[] = {
    {"S5", "star:5", 120, 4, 6},           {"S6", "star:6", 720, 5, 7},
    {"7-Cube", "hypercube:7", 128, 7, 7},  {"10-Cube", "hypercube:10", 1024, 10, 10},
    {"D7", "debruijn:7", 128, 4, 7},       {"D10", "debruijn:10", 1024, 4, 10},
};
constexpr const char* TABLE1_SPECS = "star:5 star:6 hypercube:7 hypercube:10 debruijn:7 debruijn:10";

// A DOT file from a paper's artefact: no starnet attribute, a weight, a colour starnet does not use.
TEST_F(TopoCommand, PlainDotLoadsWithDefaultsAndNamesUnusedAttributesOnce) {
  const auto path = file("plain.dot", "graph G { a -- b [weight=2, color=red]; b -- c [color=blue]; }");
  const auto r = run_starnet("topo info --json " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("nodes"), 3);
  EXPECT_EQ(j.at("processors"), 3);
  const std::string warning = "attribute \"color\" of links is not used by starnet";
  ASSERT_NE(r.err.find(warning), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(warning), r.err.rfind(warning)) << "named once: " << r.err;
  EXPECT_NE(r.err.find("starnet: warning: "), std::string::npos) << r.err;
}

TEST_F(TopoCommand, CompareReproducesTable1OfOhChoiPrimeaux) {
  const auto r = run_starnet(std::string("topo compare --json ") + TABLE1_SPECS);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = r.json().at("topologies");
  ASSERT_EQ(rows.size(), std::size(TABLE1));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = TABLE1[i];
    EXPECT_EQ(rows[i].at("name"), row.spec);
    EXPECT_EQ(rows[i].at("nodes"), row.size) << row.model;
    EXPECT_EQ(rows[i].at("degree_max"), row.degree) << row.model;
    EXPECT_EQ(rows[i].at("diameter"), row.diameter) << row.model;
  }
  EXPECT_EQ(rows[4].at("degree_min"), 2);
}

TEST_F(TopoCommand, CompareTranscript) {
  const auto r = run_starnet(std::string("topo compare ") + TABLE1_SPECS + " product:star:4*star:3 torus:4x4 mesh:3x3 tiers:1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, golden("topo_compare_table1.txt", r.out));
  EXPECT_EQ(r.err, "");
}

TEST_F(TopoCommand, InfoTranscripts) {
  for (const std::string spec : {"star:5", "mesh:3x3"}) {
    const auto r = run_starnet("topo info " + spec);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string name = "topo_info_" + spec + ".txt";
    std::replace(name.begin(), name.end(), ':', '_');
    EXPECT_EQ(r.out, golden(name, r.out)) << spec;
  }
}

TEST_F(TopoCommand, InfoJsonHasTheDocumentedFieldsAndTheyAgree) {
  for (const std::string spec : {"star:6", "torus:3x5", "debruijn:6", "tiers:4"}) {
    const auto r = run_starnet("topo info --json " + spec);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = r.json();
    for (const char* key : {"name", "nodes", "links", "directed", "degree_min", "degree_max", "diameter",
                            "average_distance", "average_distance_exact", "distance_histogram", "method",
                            "unreachable_pairs", "processors", "model"}) {
      EXPECT_TRUE(j.contains(key)) << spec << " lacks " << key;
    }
    EXPECT_EQ(j.at("name"), spec);
    // Certificate: the histogram counts every ordered pair once; diameter and averages follow from it.
    const auto h = j.at("distance_histogram").get<std::vector<std::uint64_t>>();
    const auto nodes = j.at("nodes").get<std::uint64_t>();
    EXPECT_EQ(std::accumulate(h.begin(), h.end(), std::uint64_t{0}), nodes * nodes) << spec;
    EXPECT_EQ(j.at("diameter"), h.size() - 1) << spec;
    std::uint64_t sum = 0;
    for (std::size_t d = 0; d < h.size(); ++d) sum += d * h[d];
    const std::uint64_t pairs = nodes * nodes - nodes;
    const std::uint64_t g = std::gcd(sum, pairs);
    EXPECT_EQ(j.at("average_distance_exact"), std::to_string(sum / g) + (pairs / g == 1 ? "" : "/" + std::to_string(pairs / g)));
    EXPECT_DOUBLE_EQ(j.at("average_distance").get<double>(), static_cast<double>(sum) / static_cast<double>(pairs));
    EXPECT_EQ(j.at("directed"), false);
  }
  EXPECT_EQ(run_starnet("topo info --json star:6").json().at("method"), "one-bfs-vertex-transitive");
  EXPECT_EQ(run_starnet("topo info --json star:6").json().at("model"), "implicit-star-graph");
  EXPECT_EQ(run_starnet("topo info --json debruijn:6").json().at("method"), "all-pairs-bfs");
}

TEST_F(TopoCommand, InfoOnADirectedFileReportsUnreachablePairs) {
  const auto path = file("path.dot", "digraph { node [role=processor]; a -> b [cost=\"1/2\"]; b -> c; }\n");
  const auto r = run_starnet("topo info --json " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("directed"), true);
  EXPECT_EQ(j.at("links"), 2);
  EXPECT_TRUE(j.at("diameter").is_null());
  EXPECT_EQ(j.at("unreachable_pairs"), 3);
  EXPECT_EQ(j.at("average_distance_exact"), "4/3");
  const auto human = run_starnet("topo info " + path);
  EXPECT_NE(human.out.find("3 ordered pairs are unreachable"), std::string::npos) << human.out;
}

TEST_F(TopoCommand, BadInputExitsTwoWithOneLineNamingTheInput) {
  const std::string role = "node [role=processor]; ";
  const struct {
    std::string args;
    std::vector<std::string> fragments;
  } cases[] = {
      {"topo info star:0", {"\"star:0\"", "1..12"}},
      {"topo info star:13", {"\"star:13\"", "1..12"}},
      {"topo info star:x", {"\"star:x\"", "star:N"}},
      {"topo info hypercube:-1", {"\"hypercube:-1\"", "1..16"}},
      {"topo info hypercube:40", {"\"hypercube:40\"", "65,536"}},
      {"topo info mobius:5", {"\"mobius:5\"", "FAMILY:ARG"}},
      {"topo info star:12", {"\"star:12\"", "N ≤ 11"}},
      {"topo info " + (dir_ / "missing.dot").string(), {"missing.dot", "cannot be read"}},
      {"topo info " + [&] { fs::create_directory(dir_ / "folder.dot"); return (dir_ / "folder.dot").string(); }(),
       {"folder.dot", "is a directory"}},
      {"topo info " + file("syntax.dot", "digraph {\n  a [role=router];\n  a -> ;\n}\n"), {"syntax.dot", "line 3", "malformed DOT"}},
      {"topo info " + file("syntax.graphml", "<graphml>\n<graph edgedefault=\"directed\">\n<node id=\"a\" =/>\n</graph></graphml>\n"),
       {"syntax.graphml", "line 3", "malformed GraphML"}},
      {"topo info " + file("negative.dot", "digraph { " + role + "a -> b [cost=-1]; }"), {"negative.dot", "a->b", "cost -1", "> 0"}},
      {"topo info " + file("zero.dot", "graph { " + role + "a -- b [cost=0]; }"), {"zero.dot", "cost 0", "> 0"}},
      {"topo info " + file("speed.dot", "graph { a [role=processor, speed=fast]; }"), {"speed.dot", "node \"a\" speed", "\"fast\""}},
      {"topo info " + file("undeclared.graphml", "<graphml><graph edgedefault=\"undirected\"><node id=\"a\"/><edge source=\"a\" target=\"ghost\"/></graph></graphml>"),
       {"undeclared.graphml", "\"ghost\"", "not declared"}},
      {"topo info " + file("duplicate.graphml",
                           "<graphml><key id=\"n\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>"
                           "<key id=\"r\" for=\"node\" attr.name=\"role\" attr.type=\"string\"><default>router</default></key>"
                           "<graph edgedefault=\"undirected\"><node id=\"1\"><data key=\"n\">hub</data></node>"
                           "<node id=\"2\"><data key=\"n\">hub</data></node></graph></graphml>"),
       {"duplicate.graphml", "\"hub\"", "used twice"}},
      {"topo compare star:4 ring:0", {"\"ring:0\"", "1..65536"}},
      {"topo export ring:x --format dot", {"\"ring:x\"", "ring:N"}},
  };
  for (const auto& c : cases) {
    const auto r = run_starnet(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c.args;
    EXPECT_EQ(lines(r.err), 1U) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("starnet: error: ", 0), 0U) << r.err;
    for (const auto& fragment : c.fragments) EXPECT_NE(r.err.find(fragment), std::string::npos) << c.args << "\n" << r.err << "lacks " << fragment;
  }
}

TEST_F(TopoCommand, ExportWritesAFileThatReadsBack) {
  for (const std::string format : {"dot", "graphml"}) {
    const auto out = (dir_ / ("tiers." + format)).string();
    const auto r = run_starnet("topo export tiers:3 --format " + format + " -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "");
    const auto original = run_starnet("topo info --json tiers:3").json();
    auto back = run_starnet("topo info --json " + out).json();
    EXPECT_EQ(back.at("name"), out);
    back["name"] = original.at("name");
    EXPECT_EQ(back, original) << format;
  }
}

TEST_F(TopoCommand, ExportToStandardOutputIsTheSameOnEveryMachine) {
  // tiers:SEED draws from std::mt19937_64 (fixed by the standard) with our own range mapping.
  const auto r = run_starnet("topo export tiers:1 --format dot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, golden("topo_export_tiers1.dot", r.out));
}

TEST_F(TopoCommand, ExportWritesNothingOnBadInput) {
  const auto out = dir_ / "never.dot";
  for (const std::string args : {"topo export star:9 --format dot -o ", "topo export foo:1 --format dot -o ",
                                 "topo export ring:4 --format svg -o ", "topo export ring:4 -o "}) {
    const auto r = run_starnet(args + out.string());
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_FALSE(fs::exists(out)) << args;
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 0) << "no temporary left behind";
  }
  EXPECT_NE(run_starnet("topo export star:9 --format dot").err.find("implicit"), std::string::npos);
}

TEST_F(TopoCommand, HelpDescribesEverySubcommandAndTheSpecSyntax) {
  for (const std::string sub : {"", " info", " compare", " export"}) {
    const auto r = run_starnet("topo" + sub + " --help");
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("tiers:SEED"), std::string::npos) << sub;
    EXPECT_NE(r.out.find("product:S1*S2"), std::string::npos) << sub;
  }
  EXPECT_NE(run_starnet("topo info --help").out.find("--json"), std::string::npos);
  EXPECT_NE(run_starnet("topo export --help").out.find("--format"), std::string::npos);
  EXPECT_NE(run_starnet("topo export --help").out.find("-o,--output"), std::string::npos);
}

}  // namespace
}  // namespace starnet::tools::testing
