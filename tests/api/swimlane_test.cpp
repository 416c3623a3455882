// The space-time diagram (api/swimlane.hpp), drawn as both faces draw it: on a real trace of the
// emulator (an arrow per receive, from the sender's line at its send to the receiver's at its
// arrival), and on traces made by hand for labels, marks, unfinished messages and the limits.
#include "../core/expect_error.hpp"
#include "../tools/viz_xml.hpp"
#include "star_trace.hpp"

#include <starnet/api/swimlane.hpp>

#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace starnet::api {
namespace {

using tools::testing::select;
using tools::testing::xml_elements;
using tools::testing::xml_errors;
using tools::testing::XmlElement;
using topology::StarGraph;

using testing::allreduce_trace;

template <class Time>
double floor_of(const Time& t) {
  if constexpr (std::is_same_v<Time, Rational>) {
    return std::floor(t.to_double());
  } else {
    return std::floor(t);
  }
}

template <class Time>
TraceEvent<Time> event(EventKind kind, Time time, NodeId node, NodeId peer, std::string payload = "",
                       Rational size = 1) {
  TraceEvent<Time> e;
  e.kind = kind;
  e.time = time;
  e.step = static_cast<std::uint64_t>(floor_of(time));
  e.node = node;
  e.peer = peer;
  e.size = size;
  e.payload = std::move(payload);
  return e;
}

template <class Time>
std::string svg_of(const std::vector<TraceEvent<Time>>& trace, const Topology& g, const PayloadText& text = {}) {
  return swimlane_svg(swimlane_diagram(trace, g, "", text));
}

TEST(Swimlane, AllReduceOnS3DrawsOneArrowPerReceiveFromSenderToReceiver) {
  const StarGraph g(3);
  const auto trace = allreduce_trace(g);
  const std::string svg = svg_of(trace, g);
  ASSERT_EQ(xml_errors(svg), "");
  const auto all = xml_elements(svg);
  const auto receives = std::count_if(trace.begin(), trace.end(), [](const auto& e) { return e.kind == EventKind::RECEIVE; });
  ASSERT_EQ(receives, 18);  // 6 nodes × 3 steps
  const auto arrows = select(all, "line", "arrow");
  EXPECT_EQ(static_cast<long>(arrows.size()), receives);
  EXPECT_EQ(select(all, "g", "message").size(), arrows.size());
  EXPECT_EQ(select(all, "line", "unfinished").size(), 0U);
  // One line per node, named, at heights in id order.
  const auto lifelines = select(all, "line", "lifeline");
  ASSERT_EQ(lifelines.size(), g.size());
  std::map<double, std::size_t> line_of_y;
  for (std::size_t v = 0; v < lifelines.size(); ++v) line_of_y[lifelines[v].number("y1")] = v;
  const auto names = select(all, "text", "node-name");
  ASSERT_EQ(names.size(), g.size());
  for (StarGraph::vertex_descriptor v = 0; v < g.size(); ++v) EXPECT_EQ(names[v].text, g.label_string(v)) << v;
  // Each arrow joins a sender's line to its receiver's, one step later, on a link of the star
  // graph; the arrows' (sender, receiver) pairs are the trace's receives.
  std::multiset<std::pair<std::size_t, std::size_t>> drawn;
  std::multiset<std::pair<std::size_t, std::size_t>> received;
  for (const auto& e : trace) {
    if (e.kind == EventKind::RECEIVE) received.insert({e.peer, e.node});
  }
  const double step_width = (lifelines[0].number("x2") - lifelines[0].number("x1")) / 3;
  for (const auto& a : arrows) {
    ASSERT_TRUE(line_of_y.contains(a.number("y1")) && line_of_y.contains(a.number("y2")));
    const auto from = line_of_y[a.number("y1")];
    const auto to = line_of_y[a.number("y2")];
    drawn.insert({from, to});
    EXPECT_NEAR(a.number("x2") - a.number("x1"), step_width, 0.02) << from << " → " << to;
    EXPECT_THAT(a.attributes.at("marker-end"), ::testing::StartsWith("url(#head-"));
  }
  EXPECT_EQ(drawn, received);
  EXPECT_THAT(svg, ::testing::HasSubstr("makespan 3"));
}

TEST(Swimlane, LabelsAreShortenedWhereDrawnAndWholeInTheTooltip) {
  const StarGraph g(3);
  const std::string long_text = "a payload much longer than any arrow's label, <with> & \"quotes\"";
  std::vector<TraceEvent<Rational>> trace = {
      event<Rational>(EventKind::SEND, Rational(0), 0, 1, long_text),
      event<Rational>(EventKind::RECEIVE, Rational(4), 1, 0, long_text),
      event<Rational>(EventKind::SEND, Rational(4), 1, 0, std::string("\x07\x00", 2)),
      event<Rational>(EventKind::RECEIVE, Rational(5), 0, 1, std::string("\x07\x00", 2)),
  };
  const std::string svg = svg_of(trace, g);
  ASSERT_EQ(xml_errors(svg), "");
  const auto all = xml_elements(svg);
  const auto messages = select(all, "g", "message");
  ASSERT_EQ(messages.size(), 2U);
  const auto titles = select(all, "title");
  const auto whole = std::find_if(titles.begin(), titles.end(),
                                  [&](const XmlElement& t) { return t.text.find(long_text) != std::string::npos; });
  ASSERT_NE(whole, titles.end()) << "the whole payload in a tooltip";
  EXPECT_THAT(whole->text, ::testing::HasSubstr("sent at 0, arrived at 4"));
  const auto labels = select(all, "text", "message-label");
  ASSERT_GE(labels.size(), 1U);
  EXPECT_THAT(labels[0].text, ::testing::EndsWith("…"));
  EXPECT_EQ(labels[0].text, shorten(long_text, SWIMLANE_LABEL_CHARS));
  // A word of two bytes reads as the built-ins' little-endian number.
  EXPECT_THAT(svg, ::testing::HasSubstr(": 7</title>"));
  // The caller's text wins.
  const std::string told = svg_of(trace, g, [](std::string_view p) { return "len " + std::to_string(p.size()); });
  EXPECT_THAT(told, ::testing::HasSubstr(": len 2</title>"));
  EXPECT_THAT(told, ::testing::Not(::testing::HasSubstr("much longer")));
}

TEST(Swimlane, ComputationsTimersAndUnfinishedMessagesOnDoubleTime) {
  const StarGraph g(2);
  // Node 12 computes 3 tasks over [0, 1.5], sleeps 0.5 until 2, then sends to 21 a message the
  // trace ends before it arrives.
  std::vector<TraceEvent<double>> trace = {
      event<double>(EventKind::COMPUTE, 0.0, 0, 0, "", 3),
      event<double>(EventKind::COMPUTE_END, 1.5, 0, 0, "", 3),
      event<double>(EventKind::TIMER, 2.0, 0, 0, "", Rational(1, 2)),
      event<double>(EventKind::SEND, 2.0, 0, 1, "hi"),
      event<double>(EventKind::COMPUTE, 2.5, 1, 1, "", 1),
  };
  const std::string svg = swimlane_svg(swimlane_diagram(trace, g, "two nodes"), 600);
  ASSERT_EQ(xml_errors(svg), "");
  const auto all = xml_elements(svg);
  EXPECT_EQ(select(all, "rect", "compute").size(), 2U);
  EXPECT_EQ(select(all, "rect", "compute unfinished").size(), 1U);
  EXPECT_EQ(select(all, "circle", "timer").size(), 1U);
  const auto unfinished = select(all, "line", "arrow unfinished");
  ASSERT_EQ(unfinished.size(), 1U);
  EXPECT_FALSE(unfinished[0].attributes.contains("marker-end")) << "no head: it never arrived";
  EXPECT_THAT(svg, ::testing::HasSubstr("still in flight at 2.5"));
  EXPECT_THAT(svg, ::testing::HasSubstr("timer at 12: slept 1/2, fired at 2"));
  EXPECT_THAT(svg, ::testing::HasSubstr("compute at 12: 3 tasks, time 0 to 1.5"));
  EXPECT_THAT(svg, ::testing::HasSubstr("two nodes"));
  // The sleep's dotted span covers 1.5..2, a quarter of the computation's bar's 0..1.5 times 4/3.
  const auto sleep = select(all, "line", "sleep");
  const auto bar = select(all, "rect", "compute");
  ASSERT_EQ(sleep.size(), 1U);
  EXPECT_NEAR(sleep[0].number("x2") - sleep[0].number("x1"), bar[0].number("width") / 3, 0.02);
}

TEST(Swimlane, RefusesMoreNodesOrMessagesThanItCanShowAndNodesOutsideTheTopology) {
  EXPECT_ERROR(UsageError, require_swimlane_nodes(StarGraph(6)), "star:6", "720 nodes", "at most 256", "«gantt»");
  EXPECT_EQ(starnet::testing::setting_of([] { require_swimlane_nodes(StarGraph(6)); }), "swimlane=");
  EXPECT_NO_THROW(require_swimlane_nodes(MAX_SWIMLANE_NODES, "ring"));
  const StarGraph g(3);
  std::vector<TraceEvent<Rational>> many;
  for (std::uint64_t i = 0; i <= MAX_SWIMLANE_MESSAGES; ++i) {
    many.push_back(event<Rational>(EventKind::SEND, Rational(static_cast<std::int64_t>(i)), 0, 1));
    many.push_back(event<Rational>(EventKind::RECEIVE, Rational(static_cast<std::int64_t>(i + 1)), 1, 0));
  }
  EXPECT_ERROR(UsageError, (void)swimlane_diagram(many, g), "10001 messages", "at most 10000", "star:3");
  many.resize(2 * MAX_SWIMLANE_MESSAGES);
  EXPECT_EQ(swimlane_diagram(many, g).arrows.size(), MAX_SWIMLANE_MESSAGES);
  std::vector<TraceEvent<Rational>> outside = {event<Rational>(EventKind::SEND, Rational(0), 0, 99)};
  EXPECT_ERROR(InputError, (void)swimlane_diagram(outside, g), "99", "outside star:3", "nodes 0..5");
}

}  // namespace
}  // namespace starnet::api
