#include "../core/expect_error.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/files.hpp>
#include <starnet/topology/input.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
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

/// The cost of link @p u -> @p v of @p p, found by name.
Rational cost(const Platform& p, const std::string& u, const std::string& v) {
  const auto [e, found] = boost::edge(*p.find(u), *p.find(v), p.graph());
  EXPECT_TRUE(found) << u << "->" << v;
  return found ? p.graph()[e].cost : Rational(0);
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

/// What networkx 3 writes (nx.write_graphml) for an undirected graph with a graph attribute
/// `name`, node attributes `size` (int) and `color`, and edge weights (float).
const std::string NETWORKX = R"(<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <key id="d3" for="edge" attr.name="weight" attr.type="double" />
  <key id="d2" for="node" attr.name="color" attr.type="string" />
  <key id="d1" for="node" attr.name="size" attr.type="long" />
  <key id="d0" for="graph" attr.name="name" attr.type="string" />
  <graph edgedefault="undirected">
    <data key="d0">cluster</data>
    <node id="0">
      <data key="d1">4</data>
      <data key="d2">red</data>
    </node>
    <node id="1">
      <data key="d2">blue</data>
    </node>
    <node id="2" />
    <edge source="0" target="1">
      <data key="d3">0.5</data>
    </edge>
    <edge source="1" target="2">
      <data key="d3">2.0</data>
    </edge>
  </graph>
</graphml>
)";

/// A directed platform that uses every attribute: routers, rational speeds and costs, labels,
/// dimensions, an arc without its reverse and names that DOT must quote.
Platform weighted_directed() {
  Platform p("weighted", /*directed=*/true);
  p.add_node({"a b", Role::PROCESSOR, Rational(2, 3), "213"});
  p.add_node({"r\"1", Role::ROUTER, 1, ""});
  p.add_node({"c", Role::PROCESSOR, Rational(5, 2), ""});
  p.add_link(0, 1, {Rational(1, 7), 3});
  p.add_link(1, 0, {Rational(3, 7), 0});
  p.add_link(1, 2, {4, 0, Rational(5, 2)});
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
  std::vector<std::string> warnings;
  const Platform p = parse_platform(R"(// a tiny platform
graph net {
  node [role=processor];
  edge [cost="1/2"];
  hub [role=router, color=red];   /* drawing attributes are named in a warning */
  a [speed=3]; b [speed="2/3"];
  a -- hub; b -- hub [cost=0.25];
})",
                                    FileFormat::DOT, "net.dot", &warnings);
  EXPECT_FALSE(p.directed());
  EXPECT_EQ(p.num_nodes(), 3U);
  EXPECT_EQ(p.num_links(), 2U);
  const auto& g = p.graph();
  EXPECT_EQ(g[*p.find("hub")].role, Role::ROUTER);
  EXPECT_EQ(g[*p.find("b")].speed, Rational(2, 3));
  EXPECT_EQ(cost(p, "a", "hub"), Rational(1, 2));
  EXPECT_EQ(cost(p, "hub", "b"), Rational(1, 4));
  EXPECT_EQ(warnings, std::vector<std::string>{
                          "topology file \"net.dot\": attribute \"color\" of nodes is not used by starnet (ignored)"});
}

TEST(Files, PlainDotLoadsWithEveryNodeAProcessorAndEveryLinkOfCostOne) {
  std::vector<std::string> warnings;
  const Platform p = parse_platform("graph G { a -- b; b -- c; }", FileFormat::DOT, "plain.dot", &warnings);
  EXPECT_FALSE(p.directed());
  EXPECT_EQ(p.num_nodes(), 3U);
  EXPECT_EQ(p.num_links(), 2U);
  for (const auto v : boost::make_iterator_range(boost::vertices(p.graph()))) {
    EXPECT_EQ(p.graph()[v].role, Role::PROCESSOR) << p.graph()[v].name;
    EXPECT_EQ(p.graph()[v].speed, 1) << p.graph()[v].name;
    EXPECT_EQ(p.graph()[v].label, "") << p.graph()[v].name;
  }
  EXPECT_EQ(cost(p, "a", "b"), 1);
  EXPECT_EQ(cost(p, "c", "b"), 1);
  EXPECT_TRUE(warnings.empty());

  const Platform d = parse_platform("digraph { a -> b; b -> a; b -> c; }", FileFormat::DOT, "plain.gv");
  EXPECT_TRUE(d.directed());
  EXPECT_EQ(d.num_nodes(), 3U);
  EXPECT_EQ(d.num_links(), 3U);
  EXPECT_EQ(d.graph()[*d.find("c")].role, Role::PROCESSOR);
  EXPECT_EQ(cost(d, "b", "c"), 1);
  EXPECT_FALSE(boost::edge(*d.find("c"), *d.find("b"), d.graph()).second);
}

TEST(Files, DotNodeNamedOnlyByALinkIsAProcessor) {
  // Before the default role, such a node was refused as undeclared.
  const Platform p = parse_platform("digraph { a [role=router]; a -> c; }", FileFormat::DOT, "u.dot");
  EXPECT_EQ(p.graph()[*p.find("a")].role, Role::ROUTER);
  EXPECT_EQ(p.graph()[*p.find("c")].role, Role::PROCESSOR);
  EXPECT_EQ(p.graph()[*p.find("c")].speed, 1);
}

TEST(Files, DotWeightIsTheLinkCost) {
  const Platform p = parse_platform(R"(graph {
  a -- b [weight=2]; b -- c [weight=0.5]; c -- d [weight="1e-3"];
  d -- e [weight="2/3", cost="2/3"]; e -- f [weight=3.0, cost=3]; f -- g [cost=5];
})",
                                    FileFormat::DOT, "w.dot");
  EXPECT_EQ(cost(p, "a", "b"), 2);
  EXPECT_EQ(cost(p, "b", "c"), Rational(1, 2));
  EXPECT_EQ(cost(p, "c", "d"), Rational(1, 1000));
  EXPECT_EQ(cost(p, "d", "e"), Rational(2, 3));
  EXPECT_EQ(cost(p, "e", "f"), 3);
  EXPECT_EQ(cost(p, "f", "g"), 5);
}

TEST(Files, LatencyAndBandwidthGiveTheAlphaBetaModel) {
  const Platform p = parse_platform(R"(graph {
  a -- b [latency=2, bandwidth=4]; b -- c [latency="1/2", weight=3];
  c -- d [bandwidth=0.5, cost=2]; d -- e;
})",
                                    FileFormat::DOT, "ab.dot");
  const auto link = [&](const char* u, const char* v) {
    return p.graph()[boost::edge(p.at(u, "test"), p.at(v, "test"), p.graph()).first];
  };
  EXPECT_EQ(link("a", "b").latency, 2);
  EXPECT_EQ(link("a", "b").cost, Rational(1, 4));  // 1/β
  EXPECT_EQ(link("b", "c").latency, Rational(1, 2));
  EXPECT_EQ(link("b", "c").cost, 3);
  EXPECT_EQ(link("c", "d").cost, 2);
  EXPECT_EQ(link("d", "e").latency, 0);
  EXPECT_EQ(link("d", "e").cost, 1);
  const std::string graphml = GRAPHML_HEAD + R"(  <key id="l" for="edge" attr.name="latency" attr.type="double"/>
  <key id="b" for="edge" attr.name="bandwidth" attr.type="long"/>
  <graph edgedefault="undirected">
    <node id="a"/><node id="b"/>
    <edge source="a" target="b"><data key="l">0.001</data><data key="b">125000000</data></edge>
  </graph>
</graphml>)";
  const Platform q = parse_platform(graphml, FileFormat::GRAPHML, "ab.graphml");
  const auto& ab = q.graph()[boost::edge(0, 1, q.graph()).first];
  EXPECT_EQ(ab.latency, Rational(1, 1000));
  EXPECT_EQ(ab.cost, Rational(1, 125000000));

  EXPECT_ERROR(TopologyError, parse_platform("graph { a -- b [latency=-1]; }", FileFormat::DOT, "nl.dot"),
               "topology file \"nl.dot\"", "link a->b has latency -1", "must be >= 0");
  EXPECT_ERROR(TopologyError, parse_platform("graph { a -- b [bandwidth=0]; }", FileFormat::DOT, "zb.dot"),
               "\"zb.dot\"", "link a->b has bandwidth 0", "must be > 0");
  EXPECT_ERROR(TopologyError, parse_platform("graph { a -- b [bandwidth=-4]; }", FileFormat::DOT, "nb.dot"),
               "link a->b has bandwidth -4", "must be > 0");
  EXPECT_ERROR(TopologyError, parse_platform("graph { a -- b [bandwidth=4, cost=1]; }", FileFormat::DOT, "cb.dot"),
               "link a->b has cost 1 and bandwidth 4", "cost = 1/bandwidth = 1/4");
  EXPECT_ERROR(TopologyError, parse_platform("graph { a -- b [latency=soon]; }", FileFormat::DOT, "wl.dot"),
               "link a->b latency", "\"soon\" is not a number");
}

TEST(Files, RejectsACostAndAWeightThatDiffer) {
  EXPECT_ERROR(TopologyError, parse_platform("graph { a -- b [cost=2, weight=3]; }", FileFormat::DOT, "cw.dot"),
               "topology file \"cw.dot\"", "link a->b has cost 2 and weight 3", "expected one value");
  EXPECT_ERROR(TopologyError,
               parse_platform(GRAPHML_HEAD + R"(  <key id="w" for="edge" attr.name="weight" attr.type="double"/>
  <graph edgedefault="directed">
    <node id="a"/><node id="b"/>
    <edge source="a" target="b"><data key="c">1/2</data><data key="w">0.25</data></edge>
  </graph>
</graphml>
)",
                              FileFormat::GRAPHML, "cw.graphml"),
               "topology file \"cw.graphml\" line 10:", "link a->b has cost 1/2 and weight 1/4");
}

TEST(Files, RejectsNonPositiveOrNonFiniteWeights) {
  EXPECT_ERROR(TopologyError, parse_platform("graph { a -- b [weight=-1]; }", FileFormat::DOT, "neg.dot"),
               "topology file \"neg.dot\"", "link a->b has weight -1", "must be > 0");
  EXPECT_ERROR(TopologyError, parse_platform("digraph { a -> b [weight=0.0]; }", FileFormat::DOT, "zero.dot"),
               "\"zero.dot\"", "link a->b has weight 0", "must be > 0");
  EXPECT_ERROR(TopologyError, parse_platform("digraph { a -> b [weight=heavy]; }", FileFormat::DOT, "word.dot"),
               "\"word.dot\"", "link a->b weight", "\"heavy\" is not a number");
  for (const std::string bad : {"nan", "inf", "-INF", "NaN"}) {
    EXPECT_ERROR(TopologyError,
                 parse_platform(GRAPHML_HEAD + R"(  <key id="w" for="edge" attr.name="weight" attr.type="double"/>
  <graph edgedefault="undirected">
    <node id="a"/><node id="b"/>
    <edge source="a" target="b"><data key="w">)" + bad + R"(</data></edge>
  </graph>
</graphml>
)",
                                FileFormat::GRAPHML, "nan.graphml"),
                 "topology file \"nan.graphml\" line 10:", "link a->b weight", "\"" + bad + "\" is not finite");
  }
  EXPECT_ERROR(TopologyError, parse_platform("digraph { a -> b [weight=\"1e-40\"]; }", FileFormat::DOT, "tiny.dot"),
               "link a->b weight", "\"1e-40\" cannot be held exactly");
  // A fraction too (Rational::parse alone would hold it beyond 64 bits).
  EXPECT_ERROR(TopologyError,
               parse_platform("digraph { a -> b [weight=\"1/100000000000000000000000\"]; }", FileFormat::DOT, "big.dot"),
               "link a->b weight", "\"1/100000000000000000000000\" cannot be held exactly", "64-bit");
}

TEST(Files, ReadsNetworkxGraphmlWithDoubleWeightsAndWarnsOfItsOtherAttributes) {
  std::vector<std::string> warnings;
  const Platform p = parse_platform(NETWORKX, FileFormat::GRAPHML, "nx.graphml", &warnings);
  EXPECT_FALSE(p.directed());
  EXPECT_EQ(p.num_nodes(), 3U);
  EXPECT_EQ(p.num_links(), 2U);
  for (std::size_t v = 0; v < 3; ++v) {
    EXPECT_EQ(p.graph()[v].name, std::to_string(v));
    EXPECT_EQ(p.graph()[v].role, Role::PROCESSOR);
  }
  EXPECT_EQ(cost(p, "0", "1"), Rational(1, 2));
  EXPECT_EQ(cost(p, "2", "1"), 2);
  const std::string file = "topology file \"nx.graphml\": attribute ";
  EXPECT_EQ(warnings, (std::vector<std::string>{file + "\"name\" of the graph is not used by starnet (ignored)",
                                                file + "\"size\" of nodes is not used by starnet (ignored)",
                                                file + "\"color\" of nodes is not used by starnet (ignored)"}));
}

TEST(Files, GraphmlReadsEveryAttrTypeThatCanHoldTheValue) {
  const Platform p = parse_platform(R"(<graphml>
  <key id="r" for="node" attr.name="role" attr.type="string"/>
  <key id="s" for="node" attr.name="speed" attr.type="double"/>
  <key id="c" for="edge" attr.name="cost" attr.type="long"/>
  <key id="w" for="edge" attr.name="weight" attr.type="float"><default>0.5</default></key>
  <key id="k" for="edge" attr.name="dimension" attr.type="int"/>
  <graph edgedefault="directed">
    <node id="a"><data key="s">0.25</data></node>
    <node id="b"><data key="r">router</data><data key="s"> 1.5e1 </data></node>
    <node id="c"/>
    <edge source="a" target="b"><data key="c">4</data><data key="k">2</data></edge>
    <edge source="b" target="c"/>
    <edge source="c" target="a"><data key="w">2.0</data></edge>
  </graph>
</graphml>)",
                                    FileFormat::GRAPHML, "typed.graphml");
  const auto& g = p.graph();
  EXPECT_EQ(g[*p.find("a")].speed, Rational(1, 4));
  EXPECT_EQ(g[*p.find("b")].speed, 15);
  EXPECT_EQ(g[*p.find("b")].role, Role::ROUTER);
  EXPECT_EQ(g[*p.find("c")].speed, 1);
  // A value given on the link wins over a key's <default>, whichever of cost and weight it is.
  EXPECT_EQ(cost(p, "a", "b"), 4);
  EXPECT_EQ(cost(p, "b", "c"), Rational(1, 2));  // the weight key's <default>
  EXPECT_EQ(cost(p, "c", "a"), 2);
  EXPECT_EQ(g[boost::edge(*p.find("a"), *p.find("b"), g).first].dimension, 2);
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

TEST(Files, RejectsGraphmlLinksToUndeclaredIds) {
  EXPECT_ERROR(TopologyError,
               parse_platform(graphml(R"(<node id="a"><data key="r">processor</data></node>
<edge source="a" target="z"/>)"),
                              FileFormat::GRAPHML, "u.graphml"),
               "topology file \"u.graphml\" line 9:", "link a->z", "node \"z\", which is not declared");
}

TEST(Files, GraphmlRefusesADoctype) {
  EXPECT_ERROR(TopologyError, parse_platform(R"(<?xml version="1.0"?>
<!DOCTYPE graphml [<!ENTITY p "processor">]>
<graphml><graph edgedefault="directed"><node id="a"/></graph></graphml>
)",
                                             FileFormat::GRAPHML, "dt.graphml"),
               "topology file \"dt.graphml\" line 2:", "<!DOCTYPE>", "expands no entities");
}

TEST(Files, RefusesMalformedGraphmlStructureNamingTheLine) {
  const struct {
    const char* what;
    std::string body;     // from line 8 of a directed document with GRAPHML_HEAD's keys
    std::string_view at;  // "line L:"
    std::string_view message;
  } cases[] = {
      {"data with an undeclared key", R"(<node id="a"><data key="zz">1</data></node>)", "line 8:",
       "<data key=\"zz\"> names no key"},
      {"data on the wrong element",
       "<node id=\"a\"/>\n<node id=\"b\"/>\n<edge source=\"a\" target=\"b\"><data key=\"r\">router</data></edge>",
       "line 10:", "<data key=\"r\"> in <edge>: that key is not for links (expected a key with for=\"edge\""},
      {"two values for one key", R"(<node id="a"><data key="s">1</data><data key="s">2</data></node>)", "line 8:",
       "<node> has two <data key=\"s\">"},
      {"a nested graph", R"(<node id="a"><graph edgedefault="directed"/></node>)", "line 8:", "nested <graph>"},
      {"a hyperedge", R"(<node id="a"/><hyperedge><endpoint node="a"/></hyperedge>)", "line 8:", "<hyperedge>"},
      {"an edge without target", R"(<node id="a"/><edge source="a"/>)", "line 8:", "lacks source or target"},
      {"a node without id", R"(<node/>)", "line 8:", "<node> has no id"},
      {"a mixed edge", R"(<node id="a"/><node id="b"/><edge source="a" target="b" directed="false"/>)", "line 8:",
       "link a->b has directed=\"false\" in a graph with edgedefault=\"directed\""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_ERROR(TopologyError, parse_platform(graphml(c.body + "\n"), FileFormat::GRAPHML, "s.graphml"),
                 "topology file \"s.graphml\" ", c.at, c.message);
  }
  const auto key = [](const std::string& k) {
    return "<graphml>\n" + k + "\n<graph edgedefault=\"directed\"><node id=\"a\"/></graph></graphml>\n";
  };
  EXPECT_ERROR(TopologyError,
               parse_platform(key(R"(<key id="c" for="edge" attr.name="cost" attr.type="boolean"/>)"), FileFormat::GRAPHML,
                              "bool.graphml"),
               "topology file \"bool.graphml\" line 2:", "key \"cost\" has attr.type \"boolean\"", "float or double");
  EXPECT_ERROR(TopologyError,
               parse_platform(key(R"(<key id="n" for="node" attr.name="role" attr.type="double"/>)"), FileFormat::GRAPHML,
                              "role.graphml"),
               "line 2:", "key \"role\" has attr.type \"double\"", "string, int or long");
  EXPECT_ERROR(TopologyError,
               parse_platform(key(R"(<key id="x" for="node" attr.type="complex"/>)"), FileFormat::GRAPHML, "t.graphml"),
               "line 2:", "key \"x\" has attr.type \"complex\"");
  EXPECT_ERROR(TopologyError,
               parse_platform(key("<key id=\"x\" for=\"node\"/>\n<key id=\"x\" for=\"edge\"/>"), FileFormat::GRAPHML,
                              "k.graphml"),
               "line 3:", "key id \"x\" is declared twice");
  EXPECT_ERROR(TopologyError,
               parse_platform(key(R"(<key id="x" for="vertex"/>)"), FileFormat::GRAPHML, "f.graphml"), "line 2:",
               "key \"x\" has for=\"vertex\"");
}

TEST(Files, UnknownAttributesAreNamedOnceEachAndNeverDropped) {
  std::vector<std::string> warnings;
  const Platform p = parse_platform(R"(digraph {
  rankdir=LR;
  node [shape=box];
  a [color=red]; b [color=blue, pos="1,2"];
  a -> b [color=green, penwidth=2, label=x];
  b -> a [color=red];
})",
                                    FileFormat::DOT, "w.dot", &warnings);
  EXPECT_EQ(p.num_links(), 2U);
  const std::string file = "topology file \"w.dot\": attribute ";
  const std::string ignored = " is not used by starnet (ignored)";
  EXPECT_EQ(sorted(warnings), sorted({file + "\"rankdir\" of the graph" + ignored, file + "\"shape\" of nodes" + ignored,
                                      file + "\"color\" of nodes" + ignored, file + "\"pos\" of nodes" + ignored,
                                      file + "\"color\" of links" + ignored, file + "\"penwidth\" of links" + ignored,
                                      file + "\"label\" of links" + ignored}));

  // GraphML: a key without attr.name (yEd's graphics) and an element starnet does not read.
  warnings.clear();
  (void)parse_platform(R"(<graphml xmlns:y="http://www.yworks.com/xml/graphml">
  <key id="d6" for="node" yfiles.type="nodegraphics"/>
  <graph edgedefault="directed">
    <node id="a"><data key="d6"><y:ShapeNode><y:Fill color="#FFCC00"/></y:ShapeNode></data><port name="p"/></node>
    <node id="b"><data key="d6"><y:ShapeNode/></data></node>
  </graph>
</graphml>)",
                       FileFormat::GRAPHML, "y.graphml", &warnings);
  EXPECT_EQ(warnings, (std::vector<std::string>{
                          "topology file \"y.graphml\": attribute of key \"d6\" (no attr.name) of nodes is not used by "
                          "starnet (ignored)",
                          "topology file \"y.graphml\": element <port> in <node> is not used by starnet (ignored)"}));
}

TEST(Files, GraphmlNestingIsLimited) {
  const auto nested = [](std::size_t depth) {
    std::string deep;
    for (std::size_t i = 0; i < depth; ++i) deep += "<x>";
    for (std::size_t i = 0; i < depth; ++i) deep += "</x>";
    return R"(<graphml><key id="d" for="node" attr.name="shape"/><graph edgedefault="directed">
<node id="a"><data key="d">)" + deep + "</data></node></graph></graphml>";
  };
  // graphml > graph > node > data: four levels before the nested ones.
  std::vector<std::string> warnings;
  const Platform p = parse_platform(nested(MAX_NESTING - 4), FileFormat::GRAPHML, "deep.graphml", &warnings);
  EXPECT_EQ(p.num_nodes(), 1U);
  EXPECT_EQ(warnings.size(), 1U);
  EXPECT_ERROR(TopologyError, parse_platform(nested(MAX_NESTING - 3), FileFormat::GRAPHML, "deeper.graphml"),
               "topology file \"deeper.graphml\" line 2:", "nesting deeper than 1000 levels of elements");
  // 200,000 levels are refused before pugixml builds them; unclosed too.
  EXPECT_ERROR(TopologyError, parse_platform(nested(200'000), FileFormat::GRAPHML, "deep.graphml"), "deeper than 1000");
  EXPECT_ERROR(TopologyError, parse_platform("<graphml>\n" + std::string(100'000, '<') + "x>", FileFormat::GRAPHML, "open.graphml"),
               "topology file \"open.graphml\"");
}

TEST(Files, DotNestingIsLimitedBeforeBoostRecurses) {
  const auto nested = [](std::size_t depth, std::string_view inner = "a -- b;") {
    std::string text = "graph {\n";
    for (std::size_t i = 0; i < depth; ++i) text += "subgraph {";
    text += inner;
    for (std::size_t i = 0; i < depth; ++i) text += "}";
    return text + "\n}";
  };
  EXPECT_EQ(parse_platform(nested(MAX_NESTING - 1), FileFormat::DOT, "deep.dot").num_nodes(), 2U);
  EXPECT_ERROR(TopologyError, parse_platform(nested(MAX_NESTING), FileFormat::DOT, "deeper.dot"),
               "topology file \"deeper.dot\" line 2:", "nesting deeper than 1000 levels of braces");
  // Boost's reader would overflow the stack here: refused in linear time.
  EXPECT_ERROR(TopologyError, parse_platform(nested(200'000), FileFormat::DOT, "hostile.dot"), "deeper than 1000");
  // Braces in quoted strings and in comments are not nesting.
  const std::string quoted = "a [label=\"" + std::string(2000, '{') + "\"]; /* " + std::string(2000, '{') + " */ a -- b;";
  EXPECT_EQ(parse_platform(nested(1, quoted), FileFormat::DOT, "quoted.dot").num_nodes(), 2U);
}

TEST(Files, DotWriterRefusesNodeNamesThatItWouldNotQuote) {
  // Found by fuzz/dot_fuzz.cpp: `graph { "node" }` holds a node named node; written unquoted, the
  // line `node;` reads back as a default-attribute statement and the node is lost.
  const Platform p = parse_platform("graph { \"Node\" -- b; }", FileFormat::DOT, "k.dot");
  EXPECT_EQ(p.num_nodes(), 2U);
  EXPECT_ERROR(TopologyError, write_platform(p, FileFormat::DOT), "node \"Node\"", "a DOT keyword");
  EXPECT_EQ(parse_platform(write_platform(p, FileFormat::GRAPHML), FileFormat::GRAPHML, "k.graphml").num_nodes(), 2U);
  // Found by the long fuzz run: Boost takes "." for a numeral; DOT needs a digit in one.
  for (const char* name : {".", "-."}) {
    const Platform dot = parse_platform("graph { \"" + std::string(name) + "\" -- b; }", FileFormat::DOT, "d.dot");
    EXPECT_ERROR(TopologyError, write_platform(dot, FileFormat::DOT), "node \"" + std::string(name) + "\"",
                 "numeral without digits");
  }
  const Platform ok = parse_platform("graph { \"nodes\" -- b; \".5\" -- \"-1.\" }", FileFormat::DOT, "ok.dot");
  EXPECT_EQ(parse_platform(write_platform(ok, FileFormat::DOT), FileFormat::DOT, "ok2.dot").num_nodes(), 4U);
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
  EXPECT_ERROR(TopologyError,
               parse_platform(R"(<graphml><graph edgedefault="directed"/></graphml>)", FileFormat::GRAPHML, "empty.graphml"),
               "\"empty.graphml\"", "no nodes");
}

TEST(Files, ReadPlatformFileNamesMissingAndUnreadableFiles) {
  EXPECT_ERROR(TopologyError, read_platform_file("/nonexistent/net.dot"), "topology file \"/nonexistent/net.dot\"",
               "does not exist");
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

  const auto dot = std::filesystem::temp_directory_path() / ("starnet_files_" + std::to_string(::getpid()) + ".dot");
  std::ofstream(dot) << "graph { a -- b [weight=2, color=red]; }\n";
  std::vector<std::string> warnings;
  const Platform w = read_platform_file(dot.string(), &warnings);
  EXPECT_EQ(cost(w, "a", "b"), 2);
  EXPECT_EQ(warnings, std::vector<std::string>{"topology file \"" + dot.string() +
                                               "\": attribute \"color\" of links is not used by starnet (ignored)"});
  std::filesystem::remove(dot);
}

TEST(Files, FormatNames) {
  EXPECT_EQ(parse_file_format("dot", "--format"), FileFormat::DOT);
  EXPECT_EQ(parse_file_format("graphml", "--format"), FileFormat::GRAPHML);
  EXPECT_EQ(parse_file_format("simgrid", "--format"), FileFormat::SIMGRID);
  EXPECT_ERROR(UsageError, parse_file_format("xml", "--format"), "--format", "\"xml\"", "dot, graphml or simgrid");
  EXPECT_EQ(format_of_path("a/b.gv"), FileFormat::DOT);
  EXPECT_EQ(format_of_path("b.graphml"), FileFormat::GRAPHML);
  EXPECT_EQ(format_of_path("platform.xml"), FileFormat::SIMGRID);
  EXPECT_EQ(format_of_path("b.json"), std::nullopt);
  // extensions in any case, as Windows and macOS users write them.
  EXPECT_EQ(format_of_path("NET.DOT"), FileFormat::DOT);
  EXPECT_EQ(format_of_path("a/b.Gv"), FileFormat::DOT);
  EXPECT_EQ(format_of_path("b.GraphML"), FileFormat::GRAPHML);
  EXPECT_EQ(format_of_path("Platform.XML"), FileFormat::SIMGRID);
  EXPECT_EQ(format_of_path("x.dotx"), std::nullopt);
  EXPECT_EQ(format_of_path(""), std::nullopt);
}

}  // namespace
}  // namespace starnet::topology
