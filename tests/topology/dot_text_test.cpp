// DOT numerals and numeric values, checked before Boost's reader (topology/src/dot_text.cpp),
// through the public reader parse_platform().
#include "../core/expect_error.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/files.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace starnet::topology {
namespace {

/// The cost of link @p u -> @p v of @p p, found by name.
Rational cost(const Platform& p, const std::string& u, const std::string& v) {
  const auto [e, found] = boost::edge(*p.find(u), *p.find(v), p.graph());
  EXPECT_TRUE(found) << u << "->" << v;
  return found ? p.graph()[e].cost : Rational(0);
}

TEST(DotText, ReadsExponentNumeralsExactly) {
  std::vector<std::string> warnings;
  const Platform p = parse_platform(R"(graph {
  a [speed=2.5E+1];
  a -- b [weight=1e-3]; b -- c [cost=.5e1, weight=5]; c -- d [cost=1.e2, latency=25e-1];
  d -- e [bandwidth=4E0];
})",
                                    FileFormat::DOT, "exp.dot", &warnings);
  // Never split into the attributes "e" and "-3": no warning at all.
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(cost(p, "a", "b"), Rational(1, 1000));
  EXPECT_EQ(cost(p, "b", "c"), 5);
  EXPECT_EQ(p.graph()[*p.find("a")].speed, 25);
  EXPECT_EQ(cost(p, "d", "e"), Rational(1, 4));
  const auto [cd, found] = boost::edge(*p.find("c"), *p.find("d"), p.graph());
  ASSERT_TRUE(found);
  EXPECT_EQ(p.graph()[cd].cost, 100);
  EXPECT_EQ(p.graph()[cd].latency, Rational(5, 2));
}

TEST(DotText, ANegativeExponentNumeralIsStillRefusedAsACost) {
  // -.5e1 = -5 reaches the cost check as itself, not as a different number.
  EXPECT_ERROR(TopologyError, parse_platform("graph { a -- b [cost=-.5e1] }", FileFormat::DOT, "neg.dot"),
               "neg.dot", "link a->b", "cost -5", "must be > 0");
}

TEST(DotText, AGraphAttributeWithAnExponentStaysOneValue) {
  // At statement level `weight=1e-3` used to become weight=1 and two new nodes, e and -3.
  std::vector<std::string> warnings;
  const Platform p = parse_platform("graph { weight=1e-3; a -- b }", FileFormat::DOT, "g.dot", &warnings);
  EXPECT_EQ(p.num_nodes(), 2U);
  EXPECT_FALSE(p.find("e").has_value());
}

TEST(DotText, AnExponentNumeralAsANodeNameIsOneNode) {
  const Platform p = parse_platform("digraph { 1e3 -> b; 2E-1->c }", FileFormat::DOT, "n.dot");
  EXPECT_EQ(p.num_nodes(), 4U);
  EXPECT_TRUE(p.find("1e3").has_value());
  EXPECT_TRUE(p.find("2E-1").has_value());
  EXPECT_FALSE(p.find("e3").has_value());
}

TEST(DotText, RefusesANumeralRunIntoLettersNamingFileLineAttributeAndValue) {
  const std::string text = "graph {\n  a -- b [cost=2];\n  b -- c [weight=1x];\n}\n";
  EXPECT_ERROR(TopologyError, parse_platform(text, FileFormat::DOT, "bad.dot"), "topology file \"bad.dot\" line 3",
               "link b->c weight", "\"1x\" is not a number", "1e-3");
  for (const std::string value : {"2.5.1", "1e", "0x1F", "1-2", "3_a", "1e-3.5"}) {
    EXPECT_ERROR(TopologyError,
                 parse_platform("digraph { a:p -> b:q:n [color=red, cost=" + value + "] }", FileFormat::DOT, "v.dot"),
                 "v.dot\" line 1", "link a->b cost", "\"" + value + "\" is not a number");
  }
  // A non-numeric attribute may hold an ID: the word is named as one.
  EXPECT_ERROR(TopologyError, parse_platform("graph { node [label=2x] a }", FileFormat::DOT, "l.dot"),
               "l.dot\" line 1", "node defaults label", "\"2x\" is not a DOT ID");
}

TEST(DotText, RefusesANumeralRunIntoLettersOutsideAttributes) {
  // Boost read `2a -> b` as the nodes 2 and a, with a link a->b.
  EXPECT_ERROR(TopologyError, parse_platform("digraph {\n\n2a -> b }", FileFormat::DOT, "id.dot"),
               "topology file \"id.dot\" line 3", "\"2a\"", "not a DOT ID");
}

TEST(DotText, RefusesANonNumberForANumericAttributeNamingItsLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"weight=abc", "\"abc\""},          {"cost=\"1/0x\"", "\"1/0x\""},     {"latency=inf", "\"inf\""},
      {"bandwidth=<b>2</b>", "\"<b>2</b>\""}, {"\"weight\"=\"\"", "\"\""}, {"cost=\"1e-3 s\"", "\"1e-3 s\""}};
  for (const auto& [attribute, value] : cases) {
    const std::string text = "graph {\n  a -- b\n  b -- c [" + attribute + "]\n}";
    EXPECT_ERROR(TopologyError, parse_platform(text, FileFormat::DOT, "nan.dot"), "topology file \"nan.dot\" line 3",
                 "link b->c", value);
  }
  EXPECT_ERROR(TopologyError, parse_platform("graph {\n a [speed=fast] }", FileFormat::DOT, "s.dot"),
               "s.dot\" line 2", "node \"a\" speed", "\"fast\" is not a number");
  EXPECT_ERROR(TopologyError, parse_platform("graph {\n edge [cost=x]\n a -- b }", FileFormat::DOT, "d.dot"),
               "d.dot\" line 2", "link defaults cost", "\"x\" is not a number");
  EXPECT_ERROR(TopologyError, parse_platform("graph { weight=heavy; a }", FileFormat::DOT, "g.dot"),
               "g.dot\" line 1", "graph attribute weight", "\"heavy\" is not a number");
}

TEST(DotText, ErrorsAreReportedInFileOrder) {
  // A syntax error before the bad numeral is named first, and a bad numeral before a syntax error.
  EXPECT_ERROR(TopologyError, parse_platform("graph {\n a -- ;\n b -- c [cost=1x]\n}", FileFormat::DOT, "o.dot"),
               "o.dot\" line 2", "malformed DOT");
  EXPECT_ERROR(TopologyError, parse_platform("graph {\n b -- c [cost=1x]\n a -- ;\n}", FileFormat::DOT, "o.dot"),
               "o.dot\" line 2", "\"1x\" is not a number");
}

TEST(DotText, LeavesStringsCommentsAndOtherAttributesAlone) {
  std::vector<std::string> warnings;
  const Platform p = parse_platform(R"(// 1x in a comment
/* and 2.5.1
   over lines */
# 3y on a preprocessor line
graph {
  a [label="1e-3x", color=red];
  a -- b [weight="2" + "5", tooltip=<i>1x</i>];
  b -- c [weight="0.5"];
}
)",
                                    FileFormat::DOT, "ok.dot", &warnings);
  EXPECT_EQ(p.graph()[*p.find("a")].label, "1e-3x");
  EXPECT_EQ(cost(p, "a", "b"), 25);  // "2" + "5": DOT's string concatenation
  EXPECT_EQ(cost(p, "b", "c"), Rational(1, 2));
}

TEST(DotText, LineNumbersCountLinesInsideStringsAndComments) {
  const std::string text = "graph {\n  a [label=\"two\nlines\"]\n  /* a\n comment */ a -- b [cost=nope]\n}";
  EXPECT_ERROR(TopologyError, parse_platform(text, FileFormat::DOT, "l.dot"), "l.dot\" line 5", "link a->b cost", "\"nope\"");
}

}  // namespace
}  // namespace starnet::topology
