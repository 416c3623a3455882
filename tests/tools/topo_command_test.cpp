// `starnet topo` run as a user runs it: exit codes, messages, JSON fields, golden transcripts.
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <string_view>

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

// Oh, Choi, Primeaux 2005, Table 1 (model, size, degree, diameter), as printed in the paper, with
// the spec that is each network here. Degree is the maximum degree: D_n's nodes 0…0 and 1…1 have
// degree 2, MCT_D(L)'s all-leaf nodes degree D (families.hpp). HS_{n,m} is S_n × S_m: its caption
// says hypercube × star, but no Q_a × S_b has 144 or 720 nodes (HsRowsAreProductsOfStars…).
struct Table1Row {
  const char* model;
  const char* spec;
  std::uint64_t size;
  std::uint32_t degree;
  std::uint32_t diameter;
};
constexpr Table1Row TABLE1[] = {
    {"S5", "star:5", 120, 4, 6},
    {"S6", "star:6", 720, 5, 7},
    {"7-Cube", "hypercube:7", 128, 7, 7},
    {"10-Cube", "hypercube:10", 1024, 10, 10},
    {"MCT4(3)", "mct:4:3", 81, 12, 16},
    {"MCT6(3)", "mct:6:3", 729, 18, 24},
    {"D7", "debruijn:7", 128, 4, 7},
    {"D10", "debruijn:10", 1024, 4, 10},
    {"HS4,3", "product:star:4*star:3", 144, 5, 7},
    {"HS5,3", "product:star:5*star:3", 720, 6, 9},
};
constexpr const char* TABLE1_SPECS =
    "star:5 star:6 hypercube:7 hypercube:10 mct:4:3 mct:6:3 debruijn:7 debruijn:10 'product:star:4*star:3' "
    "'product:star:5*star:3'";

// The paper's values that are not the network's (docs/topology.md, "Table 1 of Oh–Choi–Primeaux"):
// MCT_D(3) is the product of D complete binary trees of 3 levels, (2^3 − 1)^D nodes; the paper
// prints 3^D, the number of levels to the D. Its degree 3D and diameter 2D(3 − 1) are right.
struct Table1Erratum {
  const char* model;
  const char* field;
  std::uint64_t network;
};
constexpr std::uint64_t power(std::uint64_t base, int exponent) { return exponent == 0 ? 1 : base * power(base, exponent - 1); }
constexpr Table1Erratum TABLE1_ERRATA[] = {{"MCT4(3)", "size", power(7, 4)}, {"MCT6(3)", "size", power(7, 6)}};
static_assert(power(3, 4) == 81 && power(3, 6) == 729, "the paper's MCT sizes are 3^D");

/// The network's value of @p field for @p row when the paper misprints it, else nothing.
std::optional<std::uint64_t> erratum(const Table1Row& row, std::string_view field) {
  for (const auto& e : TABLE1_ERRATA) {
    if (std::string_view(e.model) == row.model && field == e.field) return e.network;
  }
  return std::nullopt;
}

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

// A SimGrid platform, as a user writes one: loads with SimGrid's units as exact rationals, exports
// back; a bad unit is exit 2 naming the element.
TEST_F(TopoCommand, SimgridPlatformsLoadExportAndNameWhatIsWrong) {
  const auto path = file("p.xml", R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/><host id="b" speed="2Gf"/><host id="c" speed="500Mf"/>
    <link id="ab" bandwidth="125MBps" latency="50us"/>
    <link id="bc" bandwidth="1Gbps" latency="1ms"/>
    <route src="a" dst="b"><link_ctn id="ab"/></route>
    <route src="b" dst="c"><link_ctn id="bc"/></route>
    <route src="a" dst="c"><link_ctn id="ab"/><link_ctn id="bc"/></route>
  </zone>
</platform>
)");
  const auto info = run_starnet("topo info --json " + path);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(info.json().at("nodes"), 3);
  EXPECT_EQ(info.json().at("links"), 3);
  const auto exported = run_starnet("topo export " + path + " --format simgrid");
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.out.find("<platform version=\"4.1\">"), std::string::npos) << exported.out;
  // a→c: 50 us + 1 ms and the smaller bandwidth, 1 Gbps = 125 MB/s.
  const auto dot = run_starnet("topo export " + path + " --format dot");
  ASSERT_EQ(dot.exit_code, 0) << dot.err;
  EXPECT_NE(dot.out.find("a--c  [cost=\"1/125000000\", dimension=0, latency=\"21/20000\"]"), std::string::npos)
      << dot.out;

  const auto bad = run_starnet("topo info " + file("bad.xml", R"(<platform version="4.1"><zone id="z" routing="Full">
<host id="a" speed="1Gf"/><host id="b" speed="1Gf"/>
<link id="l" bandwidth="12Qbps" latency="0"/>
<route src="a" dst="b"><link_ctn id="l"/></route></zone></platform>)"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("bad.xml"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("line 3"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("\"Qbps\""), std::string::npos) << bad.err;
  const auto ghost = run_starnet("topo info " + file("ghost.xml", R"(<platform version="4.1"><zone id="z" routing="Full">
<host id="a" speed="1Gf"/><link id="l" bandwidth="1GBps" latency="0"/>
<route src="a" dst="ghost"><link_ctn id="l"/></route></zone></platform>)"));
  EXPECT_EQ(ghost.exit_code, 2);
  EXPECT_NE(ghost.err.find("\"ghost\""), std::string::npos) << ghost.err;
}

TEST_F(TopoCommand, InfoGivesTheDistancesAmongTheHostsOfANetworkOfSwitches) {
  const auto text = run_starnet("topo info fattree:8");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, ::testing::HasSubstr("host to host (128 processors, routes through routers only): diameter 6, "
                                             "average distance 726/127 ≈ 5.7165\n"));
  const auto json = run_starnet("topo info --json fattree:8");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = json.json();
  EXPECT_EQ(doc.at("hosts").at("average_distance_exact"), "726/127");
  EXPECT_EQ(doc.at("hosts").at("diameter"), 6);
  EXPECT_EQ(doc.at("average_distance_exact"), "12034/2691") << "every pair of nodes, switches too";
  const auto star = run_starnet("topo info --json star:4");
  EXPECT_TRUE(star.json().at("hosts").is_null());
}

TEST_F(TopoCommand, CompareReproducesTable1OfOhChoiPrimeaux) {
  const auto r = run_starnet(std::string("topo compare --json ") + TABLE1_SPECS);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = r.json().at("topologies");
  ASSERT_EQ(rows.size(), std::size(TABLE1));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = TABLE1[i];
    EXPECT_EQ(rows[i].at("name"), row.spec);
    EXPECT_EQ(rows[i].at("nodes"), erratum(row, "size").value_or(row.size)) << row.model;
    EXPECT_EQ(rows[i].at("degree_max"), erratum(row, "degree").value_or(row.degree)) << row.model;
    EXPECT_EQ(rows[i].at("diameter"), erratum(row, "diameter").value_or(row.diameter)) << row.model;
  }
  EXPECT_EQ(rows[6].at("degree_min"), 2);                 // D7
  EXPECT_EQ(rows[4].at("degree_min"), 4);                 // MCT4(3): every coordinate a leaf
  EXPECT_EQ(rows[5].at("method"), "product-of-factors");  // MCT6(3) is beyond the platform limit
}

// Every printed value is either the measured one or a documented erratum, the notes explain each
// difference and each maximum degree, and nothing is left unexplained.
TEST_F(TopoCommand, ComparePaperTable1PrintsTheTenRowsBesideThePaper) {
  const auto r = run_starnet("topo compare --paper table1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("verified"), true);
  const auto& rows = j.at("rows");
  ASSERT_EQ(rows.size(), std::size(TABLE1));
  std::vector<std::string> notes = j.at("notes");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = TABLE1[i];
    const auto& got = rows[i];
    EXPECT_EQ(got.at("model"), row.model);
    EXPECT_EQ(got.at("spec"), row.spec);
    EXPECT_EQ(got.at("size_paper"), row.size) << row.model;
    EXPECT_EQ(got.at("degree_paper"), row.degree) << row.model;
    EXPECT_EQ(got.at("diameter_paper"), row.diameter) << row.model;
    std::vector<std::string> expected_differences;
    const struct {
      const char* field;
      const char* measured;
      std::uint64_t paper;
    } fields[] = {{"size", "size", row.size}, {"degree", "degree_max", row.degree}, {"diameter", "diameter", row.diameter}};
    for (const auto& f : fields) {
      const auto network = erratum(row, f.field);
      if (network) {
        expected_differences.emplace_back(f.field);
        EXPECT_EQ(got.at(f.measured), *network) << row.model << " " << f.field;
      } else {
        EXPECT_EQ(got.at(f.measured), f.paper) << row.model << " " << f.field << " differs from the paper undocumented";
      }
    }
    EXPECT_EQ(got.at("differences"), expected_differences) << row.model;
    for (const auto& field : expected_differences) {
      const std::string printed = "the paper prints " + field + " " + std::to_string(got.at(field + "_paper").get<std::uint64_t>());
      EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const std::string& n) {
        return n.rfind(std::string(row.model) + ": ", 0) == 0 && n.find(printed) != std::string::npos;
      })) << row.model << " lacks a note: " << printed;
    }
    if (got.at("degree_min") != got.at("degree_max")) {
      EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const std::string& n) {
        return n.rfind(std::string(row.model) + ": the paper's degree", 0) == 0 && n.find("maximum") != std::string::npos;
      })) << row.model;
    }
  }
  for (const auto& n : notes) EXPECT_EQ(n.find("unexplained"), std::string::npos) << n;
  for (const std::string product : {"HS4,3: the caption", "S_4 × S_3", "HS5,3: the caption", "S_5 × S_3"}) {
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(product) != std::string::npos; }))
        << "no note names " << product;
  }
  const auto text = run_starnet("topo compare --paper table1");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, golden("topo_compare_paper_table1.txt", text.out));
  EXPECT_EQ(lines(text.out), 3U + std::size(TABLE1) + notes.size());
}

// The caption calls HS_{n,m} the Cartesian product of a hypercube and a star, but Q_a × S_b has
// 2^a·b! nodes, which is never 144 or 720 for a ≥ 1; S_4 × S_3 and S_5 × S_3 have the printed
// size, degree (n − 1) + (m − 1) and diameter ⌊3(n−1)/2⌋ + ⌊3(m−1)/2⌋.
TEST_F(TopoCommand, HsRowsAreProductsOfStarsNotOfAHypercubeAndAStar) {
  for (const std::uint64_t size : {144U, 720U}) {
    std::uint64_t factorial = 1;
    for (int b = 1; b <= 6; ++b) {
      factorial *= static_cast<std::uint64_t>(b);
      for (int a = 1; a <= 10; ++a) EXPECT_NE((std::uint64_t{1} << a) * factorial, size) << " a=" << a << " b=" << b;
    }
  }
  for (const auto& row : TABLE1) {
    if (std::string_view(row.model).rfind("HS", 0) != 0) continue;
    const int n = row.model[2] - '0';
    const int m = row.model[4] - '0';
    EXPECT_EQ(row.degree, static_cast<std::uint32_t>((n - 1) + (m - 1))) << row.model;
    EXPECT_EQ(row.diameter, static_cast<std::uint32_t>(3 * (n - 1) / 2 + 3 * (m - 1) / 2)) << row.model;
  }
}

TEST_F(TopoCommand, ComparePaperTakesNoSpecAndOnlyTable1) {
  for (const std::string args : {"topo compare", "topo compare --paper table1 star:5", "topo compare --paper table2"}) {
    const auto r = run_starnet(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
  EXPECT_NE(run_starnet("topo compare").err.find("--paper table1"), std::string::npos);
  EXPECT_NE(run_starnet("topo compare --paper table1 star:5").err.find("star:5"), std::string::npos);
  EXPECT_NE(run_starnet("topo compare --paper table2").err.find("table2"), std::string::npos);
  EXPECT_NE(run_starnet("topo compare --help").out.find("--paper"), std::string::npos);
}

TEST_F(TopoCommand, CompareTranscript) {
  const auto r = run_starnet(std::string("topo compare ") + TABLE1_SPECS + " torus:4x4 mesh:3x3 tiers:1");
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
  // complete:4's average distance is whole, 1: its average_distance_exact was left out.
  for (const std::string spec : {"star:6", "torus:3x5", "debruijn:6", "tiers:4", "complete:4"}) {
    const auto r = run_starnet("topo info --json " + spec);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = r.json();
    for (const char* key : {"name", "nodes", "links", "directed", "degree_min", "degree_max", "diameter",
                            "average_distance", "average_distance_exact", "distance_histogram", "method", "unreachable_pairs", "processors",
                            "model", "version"}) {
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
    EXPECT_EQ(exact(j, "average_distance"), std::to_string(sum / g) + (pairs / g == 1 ? "" : "/" + std::to_string(pairs / g)));
    EXPECT_DOUBLE_EQ(j.at("average_distance").get<double>(), static_cast<double>(sum) / static_cast<double>(pairs));
    EXPECT_EQ(j.at("directed"), false);
  }
  EXPECT_EQ(run_starnet("topo info --json star:6").json().at("method"), "one-bfs-vertex-transitive");
  EXPECT_EQ(run_starnet("topo info --json star:6").json().at("model"), "implicit-star-graph");
  EXPECT_EQ(run_starnet("topo info --json debruijn:6").json().at("method"), "all-pairs-bfs");
}

// A graph file has no formula: its bisection is the balanced partition's bound, counted links.
TEST_F(TopoCommand, InfoGivesAFilesBisectionAsAPartitionsUpperBound) {
  const auto dot = run_starnet("topo export ring:8 --format dot");
  ASSERT_EQ(dot.exit_code, 0) << dot.err;
  const auto path = file("ring8.dot", dot.out);
  const auto r = run_starnet("topo info --json " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto b = r.json().at("bisection");
  ASSERT_TRUE(b.is_object()) << r.out;
  EXPECT_EQ(b.at("links"), 2);
  EXPECT_EQ(b.at("exact"), false);
  EXPECT_EQ(b.at("argument"), "upper bound: a balanced partition by METIS (Karypis and Kumar, 1998), 2 links cross");
  const auto human = run_starnet("topo info " + path);
  EXPECT_THAT(human.out, ::testing::HasSubstr("bisection width: 2 links at most (upper bound: a balanced partition by "
                                              "METIS (Karypis and Kumar, 1998), 2 links cross)\n"));
  // The same ring by spec keeps its formula.
  EXPECT_EQ(run_starnet("topo info --json ring:8").json().at("bisection").at("exact"), true);
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
  EXPECT_EQ(exact(j, "average_distance"), "4/3");
  // One processor against two: one arc crosses, counted whichever way it points.
  EXPECT_EQ(j.at("bisection").at("links"), 1);
  EXPECT_EQ(j.at("bisection").at("argument"),
            "upper bound: a balanced partition by METIS (Karypis and Kumar, 1998), 1 arc crosses (either way)");
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
      {"topo info " + (dir_ / "missing.dot").string(), {"missing.dot", "does not exist"}},
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
