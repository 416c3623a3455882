#include "expect_error.hpp"

#include <starnet/topology/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/files.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace starnet::topology {
namespace {

const std::string GRAPHML_HEAD = R"(<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="r" for="node" attr.name="role" attr.type="string"/>
  <key id="s" for="node" attr.name="speed" attr.type="string"/>
  <key id="n" for="node" attr.name="name" attr.type="string"/>
  <key id="c" for="edge" attr.name="cost" attr.type="string"/>
)";

std::string graphml(const std::string& body, const std::string& edgedefault = "directed") {
  return GRAPHML_HEAD + "  <graph edgedefault=\"" + edgedefault + "\">\n" + body + "  </graph>\n</graphml>\n";
}

/// A directed platform that uses every attribute: routers, rational speeds and costs, labels,
/// dimensions, an arc without its reverse and names that DOT must quote.
Platform weighted_directed() {
  Platform p("weighted", /*directed=*/true);
  p.add_node({"a b", Role::PROCESSOR, Rational(2, 3), "213"});
  p.add_node({"r\"1", Role::ROUTER, 1, ""});
  p.add_node({"c", Role::PROCESSOR, Rational(5, 2), ""});
  p.add_link(0, 1, {Rational(1, 7), 3});
  p.add_link(1, 0, {Rational(3, 7), 0});
  p.add_link(1, 2, {4, 0});
  return p;
}

TEST(Files, EveryFamilyRoundTripsThroughDotAndGraphml) {
  std::vector<Platform> platforms;
  for (const char* spec : {"star:4", "hypercube:4", "debruijn:5", "complete:5", "ring:6", "ring:1", "torus:3x4",
                           "mesh:2x3", "product:ring:3*star:3"}) {
    platforms.push_back(make_platform(spec));
  }
  for (std::uint64_t seed = 0; seed < 10; ++seed) platforms.push_back(tiers_platform(seed));
  platforms.push_back(weighted_directed());
  for (const auto& p : platforms) {
    for (const auto format : {FileFormat::DOT, FileFormat::GRAPHML}) {
      const std::string text = write_platform(p, format);
      const Platform back = parse_platform(text, format, "round-trip");
      EXPECT_EQ(difference(p, back), std::nullopt) << p.name() << " " << to_string(format) << "\n" << text;
      EXPECT_EQ(back.name(), "round-trip");
    }
  }
}

TEST(Files, GraphmlKeepsTheNodeOrderAndDotSortsByName) {
  const Platform p = make_platform("ring:12");
  const Platform g = parse_platform(write_platform(p, FileFormat::GRAPHML), FileFormat::GRAPHML, "r.graphml");
  const Platform d = parse_platform(write_platform(p, FileFormat::DOT), FileFormat::DOT, "r.dot");
  for (std::size_t v = 0; v < 12; ++v) EXPECT_EQ(g.graph()[v].name, std::to_string(v));
  EXPECT_EQ(d.graph()[2].name, "10");
}

TEST(Files, ReadsHandWrittenDotWithDefaultsCommentsAndQuotedFractions) {
  const Platform p = parse_platform(R"(// a tiny platform
graph net {
  node [role=processor];
  edge [cost="1/2"];
  hub [role=router, color=red];   /* drawing attributes are ignored */
  a [speed=3]; b [speed="2/3"];
  a -- hub; b -- hub [cost=0.25];
})",
                                    FileFormat::DOT, "net.dot");
  EXPECT_FALSE(p.directed());
  EXPECT_EQ(p.num_nodes(), 3U);
  EXPECT_EQ(p.num_links(), 2U);
  const auto& g = p.graph();
  EXPECT_EQ(g[*p.find("hub")].role, Role::ROUTER);
  EXPECT_EQ(g[*p.find("b")].speed, Rational(2, 3));
  EXPECT_EQ(g[boost::edge(*p.find("a"), *p.find("hub"), g).first].cost, Rational(1, 2));
  EXPECT_EQ(g[boost::edge(*p.find("hub"), *p.find("b"), g).first].cost, Rational(1, 4));
}

TEST(Files, GraphmlNodesWithoutNameAreNamedByTheirId) {
  const Platform p = parse_platform(graphml(R"(    <node id="x"><data key="r">processor</data></node>
    <node id="y"><data key="r">router</data><data key="n">gateway</data></node>
    <edge source="x" target="y"><data key="c">3/4</data></edge>
)"),
                                    FileFormat::GRAPHML, "ids.graphml");
  EXPECT_TRUE(p.directed());
  EXPECT_EQ(p.graph()[0].name, "x");
  EXPECT_EQ(p.graph()[1].name, "gateway");
  EXPECT_EQ(p.graph()[boost::edge(0, 1, p.graph()).first].cost, Rational(3, 4));
}

TEST(Files, DotSyntaxErrorNamesTheLineOfTheOffendingToken) {
  for (int bad = 2; bad <= 9; ++bad) {
    std::string text = "digraph {\n";
    for (int line = 2; line <= 9; ++line) text += line == bad ? "  a -> ;\n" : "  n" + std::to_string(line) + " [role=router];\n";
    text += "}\n";
    EXPECT_ERROR(TopologyError, parse_platform(text, FileFormat::DOT, "bad.dot"),
                 "topology file \"bad.dot\" line " + std::to_string(bad) + ":", "malformed DOT");
  }
  // A file cut short fails at its end: the last line that has something on it.
  EXPECT_ERROR(TopologyError, parse_platform("graph {\n  a [role=router];\n\n\n", FileFormat::DOT, "cut.dot"),
               "\"cut.dot\" line 2:", "<eof>");
}

TEST(Files, MalformedGraphmlNamesTheLine) {
  EXPECT_ERROR(TopologyError, parse_platform("<graphml>\n<graph edgedefault=\"directed\">\n<node id=\"a\"/>\n<node id=\"b\" =/>\n</graph>\n</graphml>\n",
                                             FileFormat::GRAPHML, "bad.graphml"),
               "topology file \"bad.graphml\" line 4:", "malformed GraphML");
  EXPECT_ERROR(TopologyError, parse_platform("<graph/>", FileFormat::GRAPHML, "root.graphml"), "root.graphml", "<graphml>");
  EXPECT_ERROR(TopologyError, parse_platform(GRAPHML_HEAD + "<graph><node id=\"a\"/></graph></graphml>", FileFormat::GRAPHML, "e.graphml"),
               "e.graphml", "edgedefault");
}

TEST(Files, RejectsNonPositiveCosts) {
  EXPECT_ERROR(TopologyError,
               parse_platform("digraph { node [role=processor]; a -> b [cost=-1]; }", FileFormat::DOT, "neg.dot"),
               "topology file \"neg.dot\"", "link a->b", "cost -1", "must be > 0");
  EXPECT_ERROR(TopologyError,
               parse_platform("graph { node [role=processor]; a -- b [cost=0]; }", FileFormat::DOT, "zero.dot"),
               "\"zero.dot\"", "link a->b", "cost 0", "must be > 0");
  EXPECT_ERROR(TopologyError,
               parse_platform(graphml(R"(<node id="a"><data key="r">router</data></node><node id="b"><data key="r">router</data></node>
<edge source="a" target="b"><data key="c">0</data></edge>)"),
                              FileFormat::GRAPHML, "zero.graphml"),
               "\"zero.graphml\"", "link a->b", "cost 0");
  EXPECT_ERROR(TopologyError,
               parse_platform("digraph { node [role=processor]; a -> b [cost=cheap]; }", FileFormat::DOT, "word.dot"),
               "\"word.dot\"", "link a->b cost", "\"cheap\" is not a number");
}

TEST(Files, RejectsNonNumericOrNonPositiveSpeeds) {
  EXPECT_ERROR(TopologyError, parse_platform("graph { a [role=processor, speed=fast]; }", FileFormat::DOT, "s.dot"),
               "topology file \"s.dot\"", "node \"a\" speed", "\"fast\" is not a number");
  EXPECT_ERROR(TopologyError,
               parse_platform(graphml(R"(<node id="a"><data key="r">processor</data><data key="s">1/0</data></node>)"),
                              FileFormat::GRAPHML, "s.graphml"),
               "\"s.graphml\"", "node \"a\" speed", "zero denominator");
  EXPECT_ERROR(TopologyError, parse_platform("graph { a [role=processor, speed=-2]; }", FileFormat::DOT, "n.dot"),
               "\"n.dot\"", "node \"a\" has speed -2", "must be > 0");
}

TEST(Files, RejectsLinksToUndeclaredNodes) {
  // DOT: the edge creates c, but no statement gives it a role.
  EXPECT_ERROR(TopologyError, parse_platform("digraph { a [role=processor]; a -> c; }", FileFormat::DOT, "u.dot"),
               "topology file \"u.dot\"", "node \"c\" has no role", "undeclared");
  EXPECT_ERROR(TopologyError,
               parse_platform(graphml(R"(<node id="a"><data key="r">processor</data></node>
<edge source="a" target="z"/>)"),
                              FileFormat::GRAPHML, "u.graphml"),
               "topology file \"u.graphml\"", "link a->z", "node \"z\", which is not declared");
}

TEST(Files, RejectsDuplicateNodeNamesAndIds) {
  EXPECT_ERROR(TopologyError,
               parse_platform(graphml(R"(<node id="1"><data key="r">processor</data><data key="n">a</data></node>
<node id="2"><data key="r">router</data><data key="n">a</data></node>)"),
                              FileFormat::GRAPHML, "dup.graphml"),
               "topology file \"dup.graphml\"", "node name \"a\" is used twice");
  EXPECT_ERROR(TopologyError,
               parse_platform(graphml(R"(<node id="a"><data key="r">processor</data></node>
<node id="a"><data key="r">router</data></node>)"),
                              FileFormat::GRAPHML, "dupid.graphml"),
               "\"dupid.graphml\"", "node id \"a\" is declared twice");
}

TEST(Files, DotMergesRepeatedNodeStatementsAsTheLanguageSays) {
  // Documented limitation (files.hpp): Boost's reader merges them, the later attributes win.
  const Platform p = parse_platform("graph { a [role=processor, speed=2]; a [role=router]; }", FileFormat::DOT, "m.dot");
  EXPECT_EQ(p.num_nodes(), 1U);
  EXPECT_EQ(p.graph()[0].role, Role::ROUTER);
  EXPECT_EQ(p.graph()[0].speed, 2);
}

TEST(Files, RejectsOtherBadAttributesAndShapes) {
  EXPECT_ERROR(TopologyError, parse_platform("graph { a [role=switch]; }", FileFormat::DOT, "r.dot"), "\"r.dot\"",
               "node \"a\"", "role \"switch\"", "processor or router");
  EXPECT_ERROR(TopologyError,
               parse_platform("graph { node [role=router]; a -- b [dimension=two]; }", FileFormat::DOT, "d.dot"),
               "link a->b dimension \"two\"", "integer >= 0");
  EXPECT_ERROR(TopologyError, parse_platform("digraph { node [role=router]; a -> a; }", FileFormat::DOT, "l.dot"),
               "\"l.dot\"", "link a->a is a self-loop");
  EXPECT_ERROR(TopologyError, parse_platform("graph { node [role=router]; a -- b; b -- a; }", FileFormat::DOT, "t.dot"),
               "\"t.dot\"", "is given twice");
  EXPECT_ERROR(TopologyError, parse_platform("graph { }", FileFormat::DOT, "empty.dot"), "\"empty.dot\"", "no nodes");
  const std::string typed = R"(<graphml><key id="c" for="edge" attr.name="cost" attr.type="double"/>
<graph edgedefault="directed"/></graphml>)";
  EXPECT_ERROR(TopologyError, parse_platform(typed, FileFormat::GRAPHML, "typed.graphml"), "\"typed.graphml\"",
               "key \"cost\"", "attr.type=\"string\"");
}

TEST(Files, ReadPlatformFileNamesMissingAndUnreadableFiles) {
  EXPECT_ERROR(TopologyError, read_platform_file("/nonexistent/net.dot"), "topology file \"/nonexistent/net.dot\"",
               "cannot be read", "No such file");
  const auto dir = std::filesystem::temp_directory_path() / ("starnet_dir_" + std::to_string(::getpid()) + ".dot");
  std::filesystem::create_directory(dir);
  EXPECT_ERROR(TopologyError, read_platform_file(dir.string()), dir.string(), "is a directory");
  std::filesystem::remove(dir);
  EXPECT_ERROR(TopologyError, read_platform_file("net.txt"), "\"net.txt\"", ".graphml");
}

TEST(Files, ReadPlatformFileReadsByExtension) {
  const auto path = std::filesystem::temp_directory_path() / ("starnet_files_" + std::to_string(::getpid()) + ".graphml");
  const Platform p = tiers_platform(7);
  std::ofstream(path) << write_platform(p, FileFormat::GRAPHML);
  const Platform back = read_platform_file(path.string());
  EXPECT_EQ(difference(p, back), std::nullopt);
  EXPECT_EQ(back.name(), path.string());
  EXPECT_EQ(difference(make_platform(path.string()), p), std::nullopt);
  std::filesystem::remove(path);
}

TEST(Files, FormatNames) {
  EXPECT_EQ(parse_file_format("dot", "--format"), FileFormat::DOT);
  EXPECT_EQ(parse_file_format("graphml", "--format"), FileFormat::GRAPHML);
  EXPECT_ERROR(UsageError, parse_file_format("xml", "--format"), "--format", "\"xml\"", "dot or graphml");
  EXPECT_EQ(format_of_path("a/b.gv"), FileFormat::DOT);
  EXPECT_EQ(format_of_path("b.graphml"), FileFormat::GRAPHML);
  EXPECT_EQ(format_of_path("b.xml"), std::nullopt);
}

}  // namespace
}  // namespace starnet::topology
